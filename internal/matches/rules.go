package matches

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Party is who an actor is to one match.
type Party string

// The parties to a match. Home and Away are the captains of its two sides
// in its tournament; a captain of another team or another season is Other.
const (
	Home      Party = "home captain"
	Away      Party = "away captain"
	Organiser Party = "organiser"
	System    Party = "the league's scheduled jobs"
	Other     Party = "anyone else"
)

// Action is one thing done to a match.
type Action string

// What can be done to a match.
const (
	ActPostRoom    Action = "post the room"
	ActSetTime     Action = "set the time"
	ActPropose     Action = "propose times"
	ActAccept      Action = "accept a proposed time"
	ActCheckIn     Action = "check in for the match"
	ActPickLineup  Action = "pick a lineup"
	ActUploadProof Action = "upload a proof"
	ActReport      Action = "report the result"
	ActConfirm     Action = "confirm the result"
	ActDispute     Action = "dispute the result"
	ActResolve     Action = "rule on the match"
	ActForfeit     Action = "forfeit the own side"
	ActForfeitSide Action = "forfeit a side for it"
	ActAutoConfirm Action = "confirm by the deadline"
	ActRemind      Action = "announce the match"
)

// open is where a match can still be played: nobody has reported it.
var open = []string{StatusScheduled, StatusLive}

// MatchRule is when an action may be done to a match and by whom.
type MatchRule struct {
	States []string
	Who    []Party
	// Answering: only the side that did not report (a confirmation or a
	// dispute answers the other side's report).
	Answering bool
	// Replying: only the side that did not make the standing time
	// proposal (accepting answers the other side's proposal).
	Replying bool
	// HomeFirst: the home captain proposes first; the away captain only
	// counters a standing proposal.
	HomeFirst bool
	// Phase is the tournament action the match action is part of (its
	// phases: a match of a finished season is final).
	Phase tournament.Action
	// To is where the match goes ("" stays).
	To string
}

// MatchRules is the one table of what may be done to a match in which
// state, and by whom. Every method of Service consults it (through may);
// docs/league.md states it for people, and a test tries every action in
// every state as every party.
var MatchRules = map[Action]MatchRule{
	ActPostRoom: {States: open, Who: []Party{Home}, Phase: tournament.PlayMatch, To: StatusLive},
	ActSetTime:  {States: open, Who: []Party{Home, Organiser}, Phase: tournament.PlayMatch},
	// Up to MaxProposals times; a counter from the other side replaces the
	// standing proposal and swaps the roles.
	ActPropose: {States: open, Who: []Party{Home, Away}, HomeFirst: true, Phase: tournament.PlayMatch},
	ActAccept:  {States: open, Who: []Party{Home, Away}, Replying: true, Phase: tournament.PlayMatch},
	// Within the hour before the match's time (checked by CheckIn); a side
	// that did not check in is an organiser's to forfeit, never by itself.
	ActCheckIn:     {States: open, Who: []Party{Home, Away}, Phase: tournament.PlayMatch},
	ActPickLineup:  {States: open, Who: []Party{Home, Away}, Phase: tournament.PlayMatch},
	ActUploadProof: {States: open, Who: []Party{Home, Away}, Phase: tournament.PlayMatch},
	ActReport:      {States: open, Who: []Party{Home, Away}, Phase: tournament.PlayMatch, To: StatusReported},
	ActConfirm:     {States: []string{StatusReported}, Who: []Party{Home, Away}, Answering: true, Phase: tournament.PlayMatch, To: StatusCompleted},
	ActDispute:     {States: []string{StatusReported}, Who: []Party{Home, Away}, Answering: true, Phase: tournament.PlayMatch, To: StatusDisputed},
	// A ruling settles a match with no report, a report nobody answered, a
	// dispute, or corrects a result (while the winner's next match is
	// unplayed: checked by Resolve).
	ActResolve: {States: []string{StatusScheduled, StatusLive, StatusReported, StatusDisputed, StatusCompleted},
		Who: []Party{Organiser}, Phase: tournament.RuleMatch, To: StatusCompleted},
	// A forfeit gives a match nobody has reported: never over a report,
	// whose kills would be lost (that is a ruling's to settle).
	ActForfeit:     {States: open, Who: []Party{Home, Away}, Phase: tournament.PlayMatch, To: StatusCompleted},
	ActForfeitSide: {States: open, Who: []Party{Organiser}, Phase: tournament.RuleMatch, To: StatusCompleted},
	ActAutoConfirm: {States: []string{StatusReported}, Who: []Party{System}, Phase: tournament.PlayMatch, To: StatusCompleted},
	ActRemind:      {States: open, Who: []Party{System}, Phase: tournament.PlayMatch},
}

// PartiesOf is who a is to m: an organiser (of the site, or of m's
// tournament) may also captain a side.
func PartiesOf(a core.Actor, m Match) []Party {
	var ps []Party
	if a.System {
		ps = append(ps, System)
	}
	if a.Organises(m.TournamentID) {
		ps = append(ps, Organiser)
	}
	if team, ok := a.CaptainOf(m.TournamentID); ok && a.UserID != 0 {
		switch {
		case m.Team1 != nil && m.Team1.ID == team:
			ps = append(ps, Home)
		case m.Team2 != nil && m.Team2.ID == team:
			ps = append(ps, Away)
		}
	}
	if len(ps) == 0 {
		ps = append(ps, Other)
	}
	return ps
}

// may checks that a may do act to m in tournament t, in the table's order:
// who the actor is (401, 403), then the season's phase and the match's state
// (409). It returns the side the actor acts for (a captain's own), or nil.
func may(act Action, a core.Actor, m Match, t tournament.Tournament) (*TeamRef, error) {
	r, ok := MatchRules[act]
	if !ok {
		panic(fmt.Sprintf("matches: no rule for %q", act))
	}
	var (
		side    *TeamRef
		allowed bool
	)
	for _, p := range PartiesOf(a, m) {
		if !slices.Contains(r.Who, p) {
			continue
		}
		allowed = true
		switch p {
		case Home:
			side = m.Team1
		case Away:
			side = m.Team2
		}
	}
	if !allowed {
		return nil, refuseParty(act, r, a, m)
	}
	if r.Answering && side != nil && m.ReportedBy != nil && *m.ReportedBy == side.ID {
		return nil, errs.E(errs.Forbidden, "The other side answers a report: team %s reported it.", side.ID)
	}
	if err := refuseTurn(r, side, m); err != nil {
		return nil, err
	}
	if err := t.Allows(r.Phase); err != nil {
		return nil, err
	}
	if !slices.Contains(r.States, m.Status) {
		return nil, refuseState(act, m)
	}
	if m.Team1 == nil || m.Team2 == nil {
		return nil, errs.E(errs.Conflict, "Match %d waits for the winners of earlier matches.", m.ID)
	}
	return side, nil
}

func refuseParty(act Action, r MatchRule, a core.Actor, m Match) error {
	if !a.SignedIn() {
		return core.ErrUnauthenticated
	}
	who := make([]string, len(r.Who))
	for i, p := range r.Who {
		switch p {
		case Home:
			who[i] = fmt.Sprintf("the home captain (team %s)", letterOf(m.Team1))
		case Away:
			who[i] = fmt.Sprintf("the away captain (team %s)", letterOf(m.Team2))
		case Organiser:
			who[i] = "an organiser"
		default:
			who[i] = string(p)
		}
	}
	if slices.Equal(r.Who, []Party{Home, Away}) {
		who = []string{"the captains of the two sides"}
	}
	return errs.E(errs.Forbidden, "Only %s can %s.", strings.Join(who, " or "), act)
}

func refuseState(act Action, m Match) error {
	switch m.Status {
	case StatusReported, StatusDisputed:
		if act == ActForfeit || act == ActForfeitSide {
			return errs.E(errs.Conflict, "Match %d is %s: its result is an organiser's ruling now, not a forfeit.", m.ID, m.Status)
		}
		if act == ActConfirm || act == ActDispute {
			return errs.E(errs.Conflict, "Match %d has no report to answer (it is %s).", m.ID, m.Status)
		}
		return errs.E(errs.Conflict, "Match %d is %s already.", m.ID, m.Status)
	case StatusScheduled, StatusLive:
		return errs.E(errs.Conflict, "Match %d has no report to answer (it is %s).", m.ID, m.Status)
	}
	return errs.E(errs.Conflict, "Match %d is %s.", m.ID, m.Status)
}

// refuseTurn says why side may not answer or make a time proposal now.
func refuseTurn(r MatchRule, side *TeamRef, m Match) error {
	if side == nil {
		return nil
	}
	switch {
	case r.Replying && m.Proposal == nil:
		return errs.E(errs.Conflict, "Match %d has no proposed times to accept.", m.ID)
	case r.Replying && m.Proposal.By == side.ID:
		return errs.E(errs.Forbidden, "The other side answers a proposal: team %s proposed these times.", side.ID)
	case r.HomeFirst && m.Proposal == nil && m.Team2 != nil && side.ID == m.Team2.ID:
		return errs.E(errs.Forbidden, "The home captain (team %s) proposes times first; you can then accept one or counter.", m.Team1.ID)
	}
	return nil
}
