// How a season moves between its phases, and what each move checks first.

package tournament

import (
	"fmt"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// RosterSlots is how many players a team buys besides its captain (the
// auction's slots).
const RosterSlots = 5

// TeamFacts is one team as a phase move sees it.
type TeamFacts struct {
	Letter    string
	Captain   bool
	Players   int // bought in the auction (or given as replacements), substitutes aside
	Withdrawn bool
}

// Facts are what a phase change depends on besides the phase.
type Facts struct {
	OpenLot  bool // a player is under the hammer
	Sales    int  // players bought (sold lots not voided)
	Fixtures int  // matches made
	// Unplayed are the matches made that are neither completed nor
	// cancelled; Champion whether the bracket has crowned one.
	Unplayed int
	Champion bool
	// Checkin is the season's check-in window; one that has a deadline
	// and has not closed yet keeps the season registering.
	Checkin     Checkin
	Substitutes int // substitutes signed
	Teams       []TeamFacts
	// NoShows are the confirmed players (by name) who did not check in,
	// once a check-in has closed: captains, who never go to the waitlist.
	NoShows []string
}

// Verdict is what a phase move meets: refusals, which nothing overrides
// (the move would break the season: a lot sold into the fixtures, results
// lost), and warnings, things left incomplete that an organiser may move
// on with all the same (force), audited with the warnings overridden.
type Verdict struct {
	Refusals []string `json:"refusals"`
	Warnings []string `json:"warnings"`
}

// Allowed reports whether the move may be made (with force when it warns).
func (v Verdict) Allowed() bool { return len(v.Refusals) == 0 }

// NeedsForce reports whether the move is allowed only with force.
func (v Verdict) NeedsForce() bool { return v.Allowed() && len(v.Warnings) > 0 }

func (v *Verdict) refuse(format string, args ...any) {
	v.Refusals = append(v.Refusals, fmt.Sprintf(format, args...))
}
func (v *Verdict) warn(format string, args ...any) {
	v.Warnings = append(v.Warnings, fmt.Sprintf(format, args...))
}

// Move is one phase change an organiser may make, with its checks.
type Move struct {
	From, To string
	Check    func(f Facts) Verdict
}

// Moves are the phase changes an organiser may make: a season goes forward
// one phase at a time, and back only while nothing of the later phase has
// happened; a completed season is final.
var Moves = []Move{
	{StatusRegistration, StatusAuction, func(f Facts) (v Verdict) {
		if f.Checkin.Pending() {
			v.refuse("its check-in is open until %s: wait for its deadline (the players who did not check in go to the waitlist), or cancel it",
				When(*f.Checkin.Deadline))
		}
		for _, t := range f.Teams {
			if !t.Captain {
				v.warn("Team %s has no captain yet: it cannot bid", t.Letter)
			}
		}
		if len(f.NoShows) > 0 {
			v.warn("%s: they keep their places (captains never go to the waitlist)", didNotCheckIn(f.NoShows))
		}
		return v
	}},
	{StatusAuction, StatusRegistration, func(f Facts) (v Verdict) {
		if f.OpenLot {
			v.refuse("a lot is open: close it first")
		}
		if f.Sales > 0 {
			v.refuse("players were bought already: void the sales first")
		}
		return v
	}},
	{StatusAuction, StatusMatches, func(f Facts) (v Verdict) {
		if f.OpenLot {
			v.refuse("a lot is open: close it first") // its countdown would sell a player into the fixtures
		}
		captains := 0
		for _, t := range f.Teams {
			switch {
			case !t.Captain:
				v.warn("Team %s has no captain: it will not play", t.Letter)
			case t.Players < RosterSlots:
				captains++
				v.warn("Team %s has %d of %d slots empty", t.Letter, RosterSlots-t.Players, RosterSlots)
			default:
				captains++
			}
		}
		if len(f.Teams) > 0 && captains < 2 {
			v.warn("only %s a captain: fixtures need at least 2", core.Count(captains, "team has", "teams have"))
		}
		return v
	}},
	{StatusMatches, StatusAuction, func(f Facts) (v Verdict) {
		if f.Fixtures > 0 {
			v.refuse("its fixtures are made: reset them first (their results are archived)")
		}
		if f.Substitutes > 0 {
			v.refuse("%s signed (substitutes are signed after the auction): withdraw them first", core.Count(f.Substitutes, "substitute is", "substitutes are"))
		}
		for _, t := range f.Teams {
			if t.Withdrawn {
				v.warn("Team %s is withdrawn: it stays out of the season", t.Letter)
			}
		}
		return v
	}},
	{StatusMatches, StatusCompleted, func(f Facts) (v Verdict) {
		// A season completes with its champion: the pages offer the move
		// only then (web/src/lib/phase.ts), and so does the server.
		switch {
		case f.Fixtures == 0:
			v.refuse("no fixtures were made: make them and play the bracket to its champion (or take the season back to its auction)")
		case !f.Champion:
			v.refuse("the bracket has no champion yet: play or rule on its matches (%s)", core.Count(f.Unplayed, "match is left", "matches are left"))
		case f.Unplayed == 1:
			v.warn("1 match is not played or confirmed: it stays as it is")
		case f.Unplayed > 1:
			v.warn("%d matches are not played or confirmed: they stay as they are", f.Unplayed)
		}
		return v
	}},
}

// didNotCheckIn names the players who did not check in: five at most, then
// how many more.
func didNotCheckIn(names []string) string {
	shown := names[:min(len(names), 5)]
	list := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("%s did not check in (%s)", core.Count(len(names), "confirmed player", "confirmed players"), list)
}

// Judge is what moving t to phase to meets given f, or a Conflict when the
// move is no move at all (the phase it is in, one that skips a phase, out
// of a completed season).
func Judge(t Tournament, to string, f Facts) (Verdict, error) {
	switch {
	case t.Status == to:
		return Verdict{}, errs.E(errs.Conflict, "%s is in its %s phase already.", t.Name, to)
	case t.Status == StatusCompleted:
		return Verdict{}, errs.E(errs.Conflict, "%s is completed: a finished season is final (its champion and badges are given).", t.Name)
	}
	for _, m := range Moves {
		if m.From == t.Status && m.To == to {
			return m.Check(f), nil
		}
	}
	return Verdict{}, errs.E(errs.Conflict, "%s moves one phase at a time (registration, auction, matches, completed): it is in its %s phase.", t.Name, t.Status)
}

// CheckMove says whether t may move to phase to given f: nil, or a Conflict
// that says why not and lists the problems. Refusals stand whatever force
// says; warnings stop the move unless it is forced.
func CheckMove(t Tournament, to string, f Facts, force bool) (Verdict, error) {
	v, err := Judge(t, to, f)
	switch {
	case err != nil:
		return v, err
	case !v.Allowed():
		return v, errs.WithProblems(errs.Conflict, v.Refusals, "%s cannot move to its %s phase now: %s.", t.Name, to, strings.Join(v.Refusals, "; "))
	case v.NeedsForce() && !force:
		return v, errs.WithProblems(errs.Conflict, v.Warnings, "Moving %s to its %s phase leaves %s; an organiser may move anyway (force).",
			t.Name, to, core.Count(len(v.Warnings), "thing incomplete", "things incomplete"))
	}
	return v, nil
}

// MoveOption is a phase an organiser could move a season to now, and what
// the move would meet: the page offers a move only when it is allowed, and
// "Move anyway" only when it needs force.
type MoveOption struct {
	To   string `json:"to"`
	Back bool   `json:"back"` // a move back a phase
	// Allowed: the server takes the move (with force when Force).
	Allowed bool `json:"allowed"`
	Force   bool `json:"force"`
	Verdict
}

// Options are the moves t could make now, given f: on to the next phase,
// back to the one before; none from a completed season.
func Options(t Tournament, f Facts) []MoveOption {
	out := []MoveOption{}
	order := []string{StatusRegistration, StatusAuction, StatusMatches, StatusCompleted}
	for _, m := range Moves {
		if m.From != t.Status {
			continue
		}
		v := m.Check(f)
		if v.Refusals == nil {
			v.Refusals = []string{}
		}
		if v.Warnings == nil {
			v.Warnings = []string{}
		}
		back := indexOf(order, m.To) < indexOf(order, m.From)
		out = append(out, MoveOption{To: m.To, Back: back, Allowed: v.Allowed(), Force: v.NeedsForce(), Verdict: v})
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
