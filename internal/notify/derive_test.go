package notify_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/notify"
)

// directory: team A's captain is user 1, team B's user 2; lot 7's bids
// were B 1500 then A 1600.
type directory struct{}

func (directory) Captain(_ context.Context, _, team string) (int64, error) {
	return map[string]int64{"A": 1, "B": 2}[team], nil
}

func (directory) BeatenTeam(_ context.Context, lot int64, amount int) (string, error) {
	if lot == 7 && amount > 1500 {
		return "B", nil
	}
	return "", nil
}

func event(t *testing.T, name string, data any) core.Event {
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return core.Event{Name: name, Data: raw}
}

func match(status string) matches.Match {
	at := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	return matches.Match{ID: 12, Team1: &matches.TeamRef{ID: "A", Name: "Alpha"}, Team2: &matches.TeamRef{ID: "B", Name: "Bravo"},
		Status: status, ScheduledAt: &at, Members: map[string][]matches.Member{"A": {{UserID: 1}, {UserID: 11}}, "B": {{UserID: 2}}}}
}

func derive(t *testing.T, ev core.Event) []notify.Notice {
	t.Helper()
	out, err := notify.Derive(context.Background(), ev, directory{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWhoHearsOfWhat(t *testing.T) {
	reported := match(matches.StatusReported)
	by, at := "B", time.Date(2026, 12, 1, 18, 40, 0, 0, time.UTC)
	reported.ReportedBy, reported.ReportedAt = &by, &at
	ruled := match(matches.StatusCompleted)
	winner := "A"
	ruled.Winner, ruled.Dispute = &winner, "wrong kills"
	undisputed := ruled
	undisputed.Dispute = ""

	for _, c := range []struct {
		name  string
		ev    core.Event
		kind  string
		users []int64
	}{
		{"a match set: every player of both sides", event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": match(matches.StatusScheduled)}),
			notify.KindMatchTime, []int64{1, 11, 2}},
		{"a report: the other side's captain", event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": reported}),
			notify.KindReportWaiting, []int64{1}},
		{"a dispute ruled: both captains", event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": ruled}),
			notify.KindDisputeRuled, []int64{1, 2}},
		{"a result confirmed without a dispute: nobody", event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": undisputed}),
			"", nil},
		{"a lot up: its player", event(t, auction.EventLot, map[string]any{"tournament": "PPL7",
			"lot": auction.Lot{ID: 7, Status: auction.LotOpen, Player: auction.PlayerRef{UserID: 40}}}), notify.KindLotUp, []int64{40}},
		{"a bid over another team's: that team's captain", event(t, auction.EventBid, auction.BidNews{Tournament: "PPL7", LotID: 7,
			Bid: auction.Bid{Team: "A", Amount: 1600}}), notify.KindOutbid, []int64{2}},
		{"the first bid: nobody", event(t, auction.EventBid, auction.BidNews{Tournament: "PPL7", LotID: 7,
			Bid: auction.Bid{Team: "B", Amount: 1500}}), "", nil},
		{"a sale: the player bought", event(t, auction.EventSold, map[string]any{"tournament": "PPL7",
			"sale": auction.Sale{LotID: 7, Team: "A", Price: 1600, Player: auction.PlayerRef{UserID: 40}}}), notify.KindBought, []int64{40}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := derive(t, c.ev)
			if c.kind == "" {
				if len(got) != 0 {
					t.Fatalf("notices %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Kind != c.kind || !slices.Equal(got[0].Users, c.users) || got[0].Key == "" {
				t.Fatalf("notices %+v, want one %s to %v", got, c.kind, c.users)
			}
		})
	}
}

// The key names the thing, not the event: the same report told twice is one
// notice; a match moved to another time is a new one.
func TestANoticeIsKeyedByWhatItTells(t *testing.T) {
	m := match(matches.StatusScheduled)
	first := derive(t, event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": m}))[0].Key
	again := derive(t, event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": m}))[0].Key
	later := m.ScheduledAt.Add(time.Hour)
	m.ScheduledAt = &later
	moved := derive(t, event(t, matches.EventMatch, map[string]any{"tournament": "PPL7", "match": m}))[0].Key
	if first != again || first == moved {
		t.Fatalf("keys %q, %q, %q", first, again, moved)
	}
}
