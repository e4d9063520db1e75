package auction_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// A team signs at most two substitutes, each within its purse left; the
// five are bought already, so nothing is kept back for them.
func TestCheckSigning(t *testing.T) {
	cases := []struct {
		name                    string
		purseLeft, bench, price int
		kind                    string
	}{
		{"an empty bench", 3000, 0, 1400, ""},
		{"the second", 3000, 1, 1400, ""},
		{"the whole purse left", 1400, 0, 1400, ""},
		{"a full bench", 9000, auction.Substitutes, 1100, errs.Unprocessable},
		{"over purse", 1300, 0, 1400, errs.Unprocessable},
	}
	for _, c := range cases {
		err := auction.CheckSigning("A", c.purseLeft, c.bench, c.price)
		if (c.kind == "" && err != nil) || (c.kind != "" && errs.KindOf(err) != c.kind) {
			t.Errorf("%s: %v, want %q", c.name, err, c.kind)
		}
	}
}

// lastTeamsEvent is the newest event on the teams topic.
func (l *league) lastTeamsEvent() (string, map[string]any) {
	l.t.Helper()
	var (
		name string
		raw  []byte
	)
	if err := l.db.Pool.QueryRow(context.Background(), `SELECT event, data FROM outbox WHERE topic = 'teams' ORDER BY seq DESC LIMIT 1`).
		Scan(&name, &raw); err != nil {
		l.t.Fatal(err)
	}
	var data map[string]any
	json.Unmarshal(raw, &data)
	return name, data
}

// buy sells player to team at price through a lot.
func (l *league) buy(team string, player int64, price int) {
	l.t.Helper()
	ctx := context.Background()
	lot := l.open(player, 1100)
	if _, err := l.svc.Bid(ctx, l.captains[team], l.name, lot.ID, price); err != nil {
		l.t.Fatal(err)
	}
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		l.t.Fatal(err)
	}
}

func TestSubstitutes(t *testing.T) {
	l := newLeague(t, 16, "A", "B", "C")
	ctx := context.Background()
	for i, p := range l.players[:5] {
		l.buy("B", p, 2200) // team B spends 11,000 of its 12,000
		l.buy("A", l.players[5+i], 1100)
	}
	free := l.players[10:]
	ask := func(team string, player int64) (auction.SubstituteRequest, error) {
		return l.svc.AskSubstitute(ctx, l.captains[team], l.name, player)
	}

	t.Run("ErrWhileTheAuctionRuns", func(t *testing.T) {
		_, err := ask("A", free[0])
		if errs.KindOf(err) != errs.Conflict || errs.MessageOf(err) != "Substitutes are signed once the auction is over, in the matches phase: "+l.name+" is in its auction phase." {
			t.Fatal(err)
		}
	})
	l.phase(tournament.StatusMatches)

	var first auction.SubstituteRequest
	t.Run("ACaptainAsksAtTheTiersBasePrice", func(t *testing.T) {
		var err error
		if first, err = ask("A", free[0]); err != nil {
			t.Fatal(err)
		}
		if first.Status != auction.RequestPending || first.Team != "A" || first.Price != auction.PriceOf(first.Player.Tier).Base {
			t.Fatalf("%+v", first)
		}
		if name, data := l.lastTeamsEvent(); name != auction.EventSubstitute || data["request"].(map[string]any)["status"] != "pending" {
			t.Fatalf("%s %v", name, data)
		}
	})
	t.Run("ErrAskingTwiceForOnePlayer", func(t *testing.T) {
		if _, err := ask("A", free[0]); errs.KindOf(err) != errs.Conflict {
			t.Fatal(err)
		}
	})
	t.Run("ErrAPlayerOnATeam", func(t *testing.T) {
		if _, err := ask("A", l.players[0]); errs.KindOf(err) != errs.Conflict {
			t.Fatal(err)
		}
	})
	t.Run("ErrNotACaptain", func(t *testing.T) {
		if _, err := l.svc.AskSubstitute(ctx, l.admin, l.name, free[1]); errs.KindOf(err) != errs.Forbidden {
			t.Fatal(err)
		}
		if _, err := l.svc.AskSubstitute(ctx, core.Actor{}, l.name, free[1]); errs.KindOf(err) != errs.Unauthorized {
			t.Fatal(err)
		}
	})
	t.Run("ErrOverPurse", func(t *testing.T) {
		_, err := ask("B", free[1]) // 1,000 left, a player costs 1,100 at least
		if errs.KindOf(err) != errs.Unprocessable {
			t.Fatal(err)
		}
	})
	t.Run("ErrTheBenchCountsWhatWasAskedFor", func(t *testing.T) {
		if _, err := ask("A", free[1]); err != nil {
			t.Fatal(err)
		}
		if _, err := ask("A", free[2]); errs.KindOf(err) != errs.Unprocessable {
			t.Fatalf("a third request: %v", err)
		}
	})
	t.Run("ErrACaptainDoesNotDecide", func(t *testing.T) {
		if _, err := l.svc.DecideSubstitute(ctx, l.captains["A"], l.name, first.ID, true, ""); errs.KindOf(err) != errs.Forbidden {
			t.Fatal(err)
		}
	})
	t.Run("AnOrganiserRefusesWithAReason", func(t *testing.T) {
		second := l.requests()[0] // the newest: free[1]
		r, err := l.svc.DecideSubstitute(ctx, l.admin, l.name, second.ID, false, "  not this season ")
		if err != nil || r.Status != auction.RequestRefused || r.Reason != "not this season" || r.DecidedAt == nil {
			t.Fatalf("%+v %v", r, err)
		}
		if len(l.team("A").Substitutes) != 0 {
			t.Fatal("a refusal signed the player")
		}
	})
	t.Run("AnApprovalSignsThePlayerAndRefusesTheOtherTeamsAsks", func(t *testing.T) {
		// Team C asks for the same player.
		other, err := ask("C", free[0])
		if err != nil {
			t.Fatal(err)
		}
		before := l.team("A")
		r, err := l.svc.DecideSubstitute(ctx, l.admin, l.name, first.ID, true, "")
		if err != nil || r.Status != auction.RequestApproved {
			t.Fatalf("%+v %v", r, err)
		}
		after := l.team("A")
		if len(after.Substitutes) != 1 || after.Substitutes[0].UserID != free[0] || after.PurseLeft != before.PurseLeft-first.Price ||
			len(after.Players) != 5 || after.FreeSlots != 0 {
			t.Fatalf("team A: %+v", after)
		}
		if name, data := l.lastTeamsEvent(); name != auction.EventTeamUpdated || data["team"].(map[string]any)["id"] != "A" {
			t.Fatalf("%s %v", name, data)
		}
		if _, err := l.svc.DecideSubstitute(ctx, l.admin, l.name, first.ID, true, ""); errs.KindOf(err) != errs.Conflict {
			t.Fatalf("approved twice: %v", err)
		}
		for _, r := range l.requests() {
			if r.ID == other.ID && (r.Status != auction.RequestRefused || r.Reason != "Signed by Team A.") {
				t.Fatalf("team C's request: %+v", r)
			}
		}
		b, err := l.svc.Substitutes(ctx, l.name)
		if err != nil || slices.ContainsFunc(b.Pool, func(p auction.Signable) bool { return p.UserID == free[0] }) || len(b.Pool) == 0 {
			t.Fatalf("the signed player is still in the pool: %+v %v", b.Pool, err)
		}
	})
	t.Run("ErrBackToTheAuctionOnceSigned", func(t *testing.T) {
		_, err := l.tour.SetStatus(ctx, l.admin, l.name, tournament.StatusAuction, true)
		if errs.KindOf(err) != errs.Conflict || !strings.Contains(errs.MessageOf(err), "withdraw them first") {
			t.Fatal(err)
		}
	})
}

// requests are the league's requests, newest first.
func (l *league) requests() []auction.SubstituteRequest {
	l.t.Helper()
	b, err := l.svc.Substitutes(context.Background(), l.name)
	if err != nil {
		l.t.Fatal(err)
	}
	return b.Requests
}
