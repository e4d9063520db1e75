package tournament_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

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
	fixtures := tournament.Facts{Sales: 40, Fixtures: 28, Champion: true}
	unfinished := tournament.Facts{Sales: 40, Fixtures: 28, Unplayed: 3}
	deadline := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	checkingIn := tournament.Facts{Checkin: tournament.Checkin{OpenedAt: &deadline, Deadline: &deadline}}
	checkedIn := tournament.Facts{Checkin: tournament.Checkin{OpenedAt: &deadline, Deadline: &deadline, ClosedAt: &deadline}}
	signed := tournament.Facts{Sales: 40, Substitutes: 1}
	cases := []struct {
		from, to string
		facts    tournament.Facts
		ok       bool
	}{
		{reg, auc, none, true},
		{reg, auc, checkingIn, false}, // its deadline moves the no-shows to the waitlist first
		{reg, auc, checkedIn, true},
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
		{mat, auc, signed, false}, // substitutes are signed after the auction
		{mat, reg, sold, false},
		{mat, done, fixtures, true},
		{mat, done, unfinished, false}, // no champion yet: the badges need one
		{done, mat, fixtures, false},
		{done, auc, none, false},
		{done, reg, none, false},
		{done, done, none, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s to %s %+v", c.from, c.to, c.facts), func(t *testing.T) {
			_, err := tournament.CheckMove(tournament.Tournament{Name: "PPL7", Status: c.from}, c.to, c.facts, false)
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
		tournament.OpenLot, tournament.Bid, tournament.CloseLot, tournament.VoidSale, tournament.PauseAuction, tournament.ResumeAuction,
		tournament.UndoSale, tournament.SetTurns, tournament.Nominate, tournament.NominateDue, tournament.TalkInRoom,
		tournament.ReorderSeeds, tournament.MakeFixtures, tournament.ResetFixtures, tournament.AskSubstitute, tournament.RuleSubstitute,
		tournament.WithdrawPlayer, tournament.WithdrawTeam, tournament.PlayMatch, tournament.RuleMatch}
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

// Where a registration goes and when the waitlist moves by itself: a cap
// fills in order, a closed check-in sends every newcomer to the waitlist,
// and once it has closed only organisers promote.
func TestWaitlistRules(t *testing.T) {
	at := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	open := tournament.Checkin{OpenedAt: &at, Deadline: &at}
	closed := tournament.Checkin{OpenedAt: &at, Deadline: &at, ClosedAt: &at}
	cases := []struct {
		name              string
		cap               int
		checkin           tournament.Checkin
		confirmed         int
		admission         string
		inOrder, checksIn bool
	}{
		{"no cap", 0, tournament.Checkin{}, 500, tournament.Confirmed, false, false},
		{"a place left", 40, tournament.Checkin{}, 39, tournament.Confirmed, true, false},
		{"full", 40, tournament.Checkin{}, 40, tournament.Waitlisted, true, false},
		{"over a lowered cap", 30, tournament.Checkin{}, 40, tournament.Waitlisted, true, false},
		{"checking in, a place left", 40, open, 12, tournament.Confirmed, true, false},
		{"check-in closed, no cap", 0, closed, 12, tournament.Waitlisted, false, true},
		{"check-in closed, places left", 40, closed, 12, tournament.Waitlisted, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := tournament.Tournament{Name: "PPL7", Cap: c.cap, Checkin: c.checkin}
			if got := tournament.Admission(tt, c.confirmed); got != c.admission {
				t.Errorf("admission %s, want %s", got, c.admission)
			}
			if got := tournament.PromotesInOrder(tt); got != c.inOrder {
				t.Errorf("promotes in order %v, want %v", got, c.inOrder)
			}
			if got := tournament.PromotionChecksIn(tt); got != c.checksIn {
				t.Errorf("a promotion checks in %v, want %v", got, c.checksIn)
			}
		})
	}
}

// A check-in window is open until its deadline, closing past it until its
// job has run, then closed.
func TestCheckinState(t *testing.T) {
	deadline := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	before, after := deadline.Add(-time.Minute), deadline.Add(time.Second)
	cases := []struct {
		name string
		c    tournament.Checkin
		now  time.Time
		want string
	}{
		{"never opened", tournament.Checkin{}, before, tournament.CheckinNone},
		{"open", tournament.Checkin{OpenedAt: &before, Deadline: &deadline}, before, tournament.CheckinOpen},
		{"at its deadline", tournament.Checkin{OpenedAt: &before, Deadline: &deadline}, deadline, tournament.CheckinClosing},
		{"past its deadline", tournament.Checkin{OpenedAt: &before, Deadline: &deadline}, after, tournament.CheckinClosing},
		{"closed", tournament.Checkin{OpenedAt: &before, Deadline: &deadline, ClosedAt: &deadline}, after, tournament.CheckinClosed},
	}
	for _, c := range cases {
		if got := c.c.State(c.now); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
