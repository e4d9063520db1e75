package tournament_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// A season moves one phase at a time; it goes back only while nothing of
// the later phase has happened, and never out of completed.
func TestPhaseMoves(t *testing.T) {
	const (
		reg  = tournament.StatusRegistration
		auc  = tournament.StatusAuction
		mat  = tournament.StatusMatches
		done = tournament.StatusCompleted
	)
	none := tournament.Facts{}
	lot := tournament.Facts{OpenLot: true}
	sold := tournament.Facts{Sales: 3}
	fixtures := tournament.Facts{Sales: 40, Fixtures: 28}
	cases := []struct {
		from, to string
		facts    tournament.Facts
		ok       bool
	}{
		{reg, auc, none, true},
		{reg, mat, none, false},
		{reg, done, none, false},
		{reg, reg, none, false},
		{auc, reg, none, true},
		{auc, reg, lot, false},
		{auc, reg, sold, false},
		{auc, mat, sold, true},
		{auc, mat, lot, false}, // the lot's countdown would sell a player into the fixtures
		{auc, done, sold, false},
		{mat, auc, sold, true},
		{mat, auc, fixtures, false},
		{mat, reg, sold, false},
		{mat, done, fixtures, true},
		{done, mat, fixtures, false},
		{done, auc, none, false},
		{done, reg, none, false},
		{done, done, none, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s to %s %+v", c.from, c.to, c.facts), func(t *testing.T) {
			err := tournament.CheckMove(tournament.Tournament{Name: "PPL7", Status: c.from}, c.to, c.facts)
			if c.ok != (err == nil) || (err != nil && errs.KindOf(err) != errs.Conflict) {
				t.Fatalf("got %v, want allowed=%v", err, c.ok)
			}
		})
	}
}

// Every action of the season has a rule, and every rule names who and when.
func TestEveryActionHasARule(t *testing.T) {
	for act, r := range tournament.Rules {
		if len(r.Who) == 0 || len(r.Phases) == 0 || r.Refusal == "" {
			t.Errorf("%q: %+v", act, r)
		}
		for _, p := range r.Phases {
			if !tournament.ValidStatus(p) {
				t.Errorf("%q: phase %q", act, p)
			}
		}
	}
}

// docsTable is the part of docs/league.md between <!-- name --> and
// <!-- /name -->.
func docsTable(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/league.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- "+name+" -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- /"+name+" -->")
	if !ok || !ok2 {
		t.Fatalf("docs/league.md has no %s table", name)
	}
	return table
}

// docs/league.md states the season's table as the code has it.
func TestTheDocsStateTheSeasonsTable(t *testing.T) {
	order := []tournament.Action{tournament.Register, tournament.Unregister, tournament.SetCap, tournament.OpenCheckin,
		tournament.CheckIn, tournament.CloseCheckin, tournament.Promote, tournament.NameCaptain, tournament.SetTier,
		tournament.OpenLot, tournament.Bid, tournament.CloseLot, tournament.VoidSale, tournament.TalkInRoom,
		tournament.ReorderSeeds, tournament.MakeFixtures, tournament.AskSubstitute, tournament.RuleSubstitute,
		tournament.PlayMatch, tournament.RuleMatch}
	if len(order) != len(tournament.Rules) {
		t.Fatalf("%d actions listed, %d in the table", len(order), len(tournament.Rules))
	}
	want := "| action | who | phases |\n| --- | --- | --- |\n"
	for _, act := range order {
		r := tournament.Rules[act]
		who := make([]string, len(r.Who))
		for i, w := range r.Who {
			who[i] = string(w)
		}
		want += fmt.Sprintf("| %s | %s | %s |\n", act, strings.Join(who, ", "), strings.Join(r.Phases, ", "))
	}
	if got := docsTable(t, "season-rules"); got != want {
		t.Fatalf("docs/league.md says\n%s\nthe code says\n%s", got, want)
	}
}
