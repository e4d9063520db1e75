package tournament_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// halfBought is eight teams with captains, two of five players bought
// each, but team H has no captain and team B bought four.
func halfBought() []tournament.TeamFacts {
	var teams []tournament.TeamFacts
	for _, l := range "ABCDEFGH" {
		teams = append(teams, tournament.TeamFacts{Letter: string(l), Captain: l != 'H', Players: 2})
	}
	teams[1].Players = 4
	teams[7].Players = 0
	return teams
}

// Moving on with rosters half bought is answered with the list of what is
// missing, team by team; only force makes the move, and the list stays
// what an organiser overrode.
func TestAMoveWithEmptySlotsListsThemAndNeedsForce(t *testing.T) {
	ppl7 := tournament.Tournament{Name: "PPL7", Status: tournament.StatusAuction}
	f := tournament.Facts{Sales: 15, Teams: halfBought()}
	want := []string{"Team A has 3 of 5 slots empty", "Team B has 1 of 5 slots empty", "Team C has 3 of 5 slots empty",
		"Team D has 3 of 5 slots empty", "Team E has 3 of 5 slots empty", "Team F has 3 of 5 slots empty",
		"Team G has 3 of 5 slots empty", "Team H has no captain: it will not play"}

	_, err := tournament.CheckMove(ppl7, tournament.StatusMatches, f, false)
	if errs.KindOf(err) != errs.Conflict || !slices.Equal(errs.ProblemsOf(err), want) {
		t.Fatalf("unforced: %v, problems %q; want a conflict listing %q", err, errs.ProblemsOf(err), want)
	}
	if msg := errs.MessageOf(err); msg != "Moving PPL7 to its matches phase leaves 8 things incomplete; an organiser may move anyway (force)." {
		t.Errorf("message %q", msg)
	}
	v, err := tournament.CheckMove(ppl7, tournament.StatusMatches, f, true)
	if err != nil || !slices.Equal(v.Warnings, want) {
		t.Fatalf("forced: %v, overrode %q", err, v.Warnings)
	}

	full := make([]tournament.TeamFacts, 8)
	for i, l := range "ABCDEFGH" {
		full[i] = tournament.TeamFacts{Letter: string(l), Captain: true, Players: tournament.RosterSlots}
	}
	if v, err := tournament.CheckMove(ppl7, tournament.StatusMatches, tournament.Facts{Sales: 40, Teams: full}, false); err != nil || len(v.Warnings) > 0 {
		t.Fatalf("full rosters: %v %+v; the move needs no force", err, v)
	}
}

// A refusal is never forced: a lot open, fixtures made, a completed
// season's missing champion.
func TestRefusalsCannotBeForced(t *testing.T) {
	cases := []struct {
		name, from, to string
		facts          tournament.Facts
		problem        string
	}{
		{"ALotIsOpen", tournament.StatusAuction, tournament.StatusMatches,
			tournament.Facts{OpenLot: true, Teams: halfBought()}, "a lot is open: close it first"},
		{"FixturesAreMade", tournament.StatusMatches, tournament.StatusAuction,
			tournament.Facts{Fixtures: 14}, "its fixtures are made: reset them first (their results are archived)"},
		{"SubstitutesAreSigned", tournament.StatusMatches, tournament.StatusAuction,
			tournament.Facts{Substitutes: 2}, "2 substitutes are signed (substitutes are signed after the auction): withdraw them first"},
		{"NoChampionYet", tournament.StatusMatches, tournament.StatusCompleted,
			tournament.Facts{Fixtures: 14, Unplayed: 1}, "the bracket has no champion yet: play or rule on its matches (1 match is left)"},
		{"NoFixturesNoChampion", tournament.StatusMatches, tournament.StatusCompleted,
			tournament.Facts{}, "no fixtures were made: make them and play the bracket to its champion (or take the season back to its auction)"},
		{"PlayersBought", tournament.StatusAuction, tournament.StatusRegistration,
			tournament.Facts{Sales: 1}, "players were bought already: void the sales first"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := tournament.Tournament{Name: "PPL7", Status: c.from}
			for _, force := range []bool{false, true} {
				_, err := tournament.CheckMove(tt, c.to, c.facts, force)
				if errs.KindOf(err) != errs.Conflict || !slices.Contains(errs.ProblemsOf(err), c.problem) {
					t.Fatalf("force %v: %v %q; want refused for %q", force, err, errs.ProblemsOf(err), c.problem)
				}
			}
		})
	}
}

// The warnings of each move: teams without captains before the auction,
// captains who did not check in, a season completed with matches left.
func TestWarningsOfEachMove(t *testing.T) {
	at := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	closed := tournament.Checkin{OpenedAt: &at, Deadline: &at, ClosedAt: &at}
	cases := []struct {
		name, from, to string
		facts          tournament.Facts
		want           []string
	}{
		{"CaptainsMissing", tournament.StatusRegistration, tournament.StatusAuction,
			tournament.Facts{Teams: []tournament.TeamFacts{{Letter: "A", Captain: true}, {Letter: "B"}}},
			[]string{"Team B has no captain yet: it cannot bid"}},
		{"NoShows", tournament.StatusRegistration, tournament.StatusAuction,
			tournament.Facts{Checkin: closed, NoShows: []string{"Ace", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"}},
			[]string{"7 confirmed players did not check in (Ace, Bo, Cy, Di, Ed and 2 more): they keep their places (captains never go to the waitlist)"}},
		{"MatchesLeft", tournament.StatusMatches, tournament.StatusCompleted, tournament.Facts{Fixtures: 8, Champion: true, Unplayed: 2},
			[]string{"2 matches are not played or confirmed: they stay as they are"}},
		{"BackWithAWithdrawnTeam", tournament.StatusMatches, tournament.StatusAuction,
			tournament.Facts{Teams: []tournament.TeamFacts{{Letter: "C", Captain: true, Withdrawn: true}}},
			[]string{"Team C is withdrawn: it stays out of the season"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := tournament.Judge(tournament.Tournament{Name: "PPL7", Status: c.from}, c.to, c.facts)
			if err != nil || !v.NeedsForce() || !slices.Equal(v.Warnings, c.want) {
				t.Fatalf("%v %+v, want warnings %q", err, v, c.want)
			}
		})
	}
}

// What the page is offered: the moves from the phase the season is in,
// each allowed, refused with its reasons, or allowed with force.
func TestOptionsOfferOnlyWhatTheServerTakes(t *testing.T) {
	auction := tournament.Tournament{Name: "PPL7", Status: tournament.StatusAuction}
	opts := tournament.Options(auction, tournament.Facts{Sales: 16, Teams: halfBought()})
	if len(opts) != 2 {
		t.Fatalf("%+v", opts)
	}
	for _, o := range opts {
		switch o.To {
		case tournament.StatusRegistration:
			if o.Allowed || !o.Back || len(o.Refusals) != 1 {
				t.Errorf("back to registration with sales: %+v", o)
			}
		case tournament.StatusMatches:
			if !o.Allowed || !o.Force || o.Back || len(o.Warnings) != 8 {
				t.Errorf("on to matches half bought: %+v", o)
			}
		default:
			t.Errorf("a move to %s offered", o.To)
		}
	}
	matches := tournament.Tournament{Name: "PPL7", Status: tournament.StatusMatches}
	for _, c := range []struct {
		fixtures int
		back     bool
	}{{14, false}, {0, true}} {
		for _, o := range tournament.Options(matches, tournament.Facts{Sales: 40, Fixtures: c.fixtures}) {
			if o.To == tournament.StatusAuction && o.Allowed != c.back {
				t.Errorf("%d fixtures: back to the auction allowed %v, want %v", c.fixtures, o.Allowed, c.back)
			}
		}
	}
	if opts := tournament.Options(tournament.Tournament{Status: tournament.StatusCompleted}, tournament.Facts{}); len(opts) != 0 {
		t.Errorf("a completed season offers %+v", opts)
	}
}
