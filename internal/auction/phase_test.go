package auction_test

import (
	"context"
	"sync"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// An organiser naming a captain and another opening a lot on the same
// player at the same moment: one of them wins, never both (a captain would
// end up on another team's roster).
func TestCaptainAndLotOnOnePlayerAtOnce(t *testing.T) {
	l := newLeague(t, 24, "A", "B")
	ctx := context.Background()
	for i, p := range l.players[:12] {
		var wg sync.WaitGroup
		var capErr, lotErr error
		wg.Add(2)
		go func() { defer wg.Done(); _, capErr = l.svc.SetCaptain(ctx, l.admin, l.name, "C", p) }()
		go func() { defer wg.Done(); _, lotErr = l.svc.OpenLot(ctx, l.admin, l.name, p, 0) }()
		wg.Wait()
		if capErr == nil && lotErr == nil {
			t.Fatalf("round %d: player %d was named captain of team C and put under the hammer", i, p)
		}
		if capErr != nil && lotErr != nil {
			t.Fatalf("round %d: both refused: %v / %v", i, capErr, lotErr)
		}
		if lotErr == nil { // close it for the next round
			lot, err := l.svc.State(ctx, l.name)
			if err != nil || lot.Lot == nil {
				t.Fatal(err)
			}
			if _, err := l.svc.Close(ctx, l.admin, l.name, lot.Lot.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The auction's changes belong to the auction: its phase cannot end while a
// lot runs (its countdown would sell a player into the fixtures), and once
// it has ended, no sale is voided and no lot opened.
func TestTheAuctionEndsWithItsLots(t *testing.T) {
	l := newLeague(t, 6, "A", "B")
	ctx := context.Background()
	a := l.captains["A"]
	lot := l.open(l.players[0], 0)
	if _, err := l.svc.Bid(ctx, a, l.name, lot.ID, lot.BasePrice); err != nil {
		t.Fatal(err)
	}
	// Forcing overrides what is incomplete, never a lot that is open.
	_, err := l.tour.SetStatus(ctx, l.admin, l.name, tournament.StatusMatches, true)
	refused(t, "the matches phase while a lot is open", err, errs.Conflict, "")
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		t.Fatal(err)
	}
	_, err = l.tour.SetStatus(ctx, l.admin, l.name, tournament.StatusRegistration, true)
	refused(t, "registration again after a sale", err, errs.Conflict, "")
	l.phase(tournament.StatusMatches)
	_, err = l.svc.Void(ctx, l.admin, l.name, lot.ID)
	refused(t, "voiding a sale in the matches phase", err, errs.Conflict, "")
	if got := l.team("A"); len(got.Players) != 1 {
		t.Fatalf("team A has %d players, want the one it bought", len(got.Players))
	}
	_, err = l.svc.OpenLot(ctx, l.admin, l.name, l.players[1], 0)
	refused(t, "a lot in the matches phase", err, errs.Conflict, "")
}
