package auction_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestOpenLot(t *testing.T) {
	l := newLeague(t, 4, "A")
	ctx := context.Background()
	t.Run("ErrNotAnOrganiser", func(t *testing.T) {
		_, err := l.svc.OpenLot(ctx, l.captains["A"], l.name, l.players[0], 0)
		refused(t, "captain opens a lot", err, errs.Forbidden, "")
	})
	t.Run("ErrCaptainIsNotAuctioned", func(t *testing.T) {
		_, err := l.svc.OpenLot(ctx, l.admin, l.name, l.captains["A"].UserID, 0)
		refused(t, "lot for a captain", err, errs.Conflict, "")
	})
	t.Run("ErrNotRegistered", func(t *testing.T) {
		_, err := l.svc.OpenLot(ctx, l.admin, l.name, l.admin.UserID, 0)
		refused(t, "lot for someone not registered", err, errs.NotFound, "")
	})
	t.Run("ErrBasePriceOutside", func(t *testing.T) {
		_, err := l.svc.OpenLot(ctx, l.admin, l.name, l.players[0], 2300)
		refused(t, "base 2300", err, errs.Unprocessable, "")
	})
	t.Run("OKTierSetsThePrice", func(t *testing.T) {
		p, _ := postgres.Auction{DB: l.db}.Player(ctx, l.id(), l.players[0])
		lot := l.open(l.players[0], 0)
		want := auction.PriceOf(p.Tier)
		if lot.BasePrice != want.Base || lot.Increment != want.Increment || lot.Status != auction.LotOpen || lot.High != nil {
			t.Fatalf("%+v, want %+v", lot, want)
		}
		_, err := l.svc.OpenLot(ctx, l.admin, l.name, l.players[1], 0)
		refused(t, "a second open lot", err, errs.Conflict, "Another lot is open: close it first.")
		if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrWrongPhase", func(t *testing.T) {
		l.phase(tournament.StatusMatches)
		defer l.phase(tournament.StatusAuction)
		_, err := l.svc.OpenLot(ctx, l.admin, l.name, l.players[2], 0)
		refused(t, "lot after the auction", err, errs.Conflict, fmt.Sprintf(tournament.Rules[tournament.OpenLot].Refusal, l.name, "matches"))
	})
}

// The rules of a bid, each refusal with the rule it broke, and nothing
// changed by a refused bid.
func TestBidRules(t *testing.T) {
	l := newLeague(t, 8, "A", "B")
	ctx := context.Background()
	a, b := l.captains["A"], l.captains["B"]
	lot := l.open(l.players[0], 1400) // tier prices give the step
	bid := func(who core.Actor, amount int) error {
		_, err := l.svc.Bid(ctx, who, l.name, lot.ID, amount)
		return err
	}
	refused(t, "an organiser bids", bid(l.admin, 1400), errs.Forbidden, auction.MsgCaptainsOnly)
	refused(t, "a player bids", bid(core.Actor{UserID: l.players[3]}, 1400), errs.Forbidden, auction.MsgCaptainsOnly)
	refused(t, "anonymous bids", bid(core.Actor{}, 1400), errs.Unauthorized, "")
	refused(t, "below the base", bid(a, 1300), errs.Unprocessable, "The opening bid is at least the base price, 1400.")
	refused(t, "above 2200", bid(a, 2300), errs.Unprocessable, "A bid must be from 1100 to 2200 credits.")
	if err := bid(a, 1400); err != nil {
		t.Fatal(err)
	}
	refused(t, "the leader again", bid(a, 1600), errs.Conflict, "Team A already holds the high bid.")
	refused(t, "at the high bid", bid(b, 1400), errs.Conflict, "Outbid: the high bid is now 1400 by Team A.")
	refused(t, "less than a step", bid(b, 1401), errs.Unprocessable, "")
	step := lot.Increment
	if err := bid(b, 1400+step); err != nil {
		t.Fatal(err)
	}
	got, _ := postgres.Auction{DB: l.db}.FindLot(ctx, l.id(), lot.ID)
	if got.High == nil || got.High.Team != "B" || got.High.Amount != 1400+step || len(got.Bids) != 2 {
		t.Fatalf("after two bids: %+v", got)
	}
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		t.Fatal(err)
	}
	refused(t, "a closed lot", bid(a, 2000), errs.Conflict, auction.MsgLotClosed)
	if tb := l.team("B"); tb.PurseLeft != tb.Purse-(1400+step) || len(tb.Players) != 1 || tb.Players[0].UserID != l.players[0] {
		t.Fatalf("team B after the sale: %+v", tb)
	}
}

// A team never bids more than its purse less what it needs to fill its
// other free slots at the lowest price, and a full team does not bid.
func TestPurseAndSlots(t *testing.T) {
	l := newLeague(t, 8, "A", "B")
	ctx := context.Background()
	if _, err := l.db.Pool.Exec(ctx, `UPDATE tournaments SET purse = 7000 WHERE name = $1`, l.name); err != nil {
		t.Fatal(err)
	}
	// A buys four players at 1400: 5600 spent, 1400 left, one free slot.
	for i := range 4 {
		lot := l.open(l.players[i], 1400)
		if _, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1400); err != nil {
			t.Fatal(err)
		}
		if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
			t.Fatal(err)
		}
	}
	team := l.team("A")
	if team.PurseLeft != 1400 || team.FreeSlots != 1 || team.MaxBid != 1400 {
		t.Fatalf("team A: %+v", team)
	}
	lot := l.open(l.players[4], 1100)
	_, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1500)
	refused(t, "over purse", err, errs.Unprocessable, "")
	if _, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1400); err != nil {
		t.Fatalf("the whole purse on the last slot: %v", err)
	}
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		t.Fatal(err)
	}
	lot = l.open(l.players[5], 1100)
	_, err = l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1100)
	refused(t, "a full team", err, errs.Unprocessable, "Team A has no free slot.")
	t.Run("MaxBidKeepsTheOtherSlotsFillable", func(t *testing.T) {
		if got := auction.MaxBid(7000, 5); got != 2200 {
			t.Fatalf("MaxBid(7000, 5) = %d", got)
		}
		if got := auction.MaxBid(5000, 3); got != 2800-0 && got != 2200 {
			t.Fatalf("MaxBid(5000, 3) = %d", got)
		}
		if got := auction.MaxBid(3000, 2); got != 1900 {
			t.Fatalf("MaxBid(3000, 2) = %d, want 3000-1100", got)
		}
		if got := auction.MaxBid(3000, 0); got != 0 {
			t.Fatalf("a full team: %d", got)
		}
	})
}

// A late bid gives the lot more time, and the lot closes by itself when
// its countdown ends: sold to the high bidder, or unsold for a later round.
func TestCountdown(t *testing.T) {
	l := newLeague(t, 4, "A")
	l.svc.LotTime = 2 * time.Second
	ctx := context.Background()
	lot := l.open(l.players[0], 1100)
	time.Sleep(1500 * time.Millisecond) // inside the last LateBid
	got, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1100)
	if err != nil {
		t.Fatal(err)
	}
	if !got.EndsAt.After(lot.EndsAt) {
		t.Fatalf("a late bid did not extend the lot: %v -> %v", lot.EndsAt, got.EndsAt)
	}
	waitStatus := func(id int64, want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			l2, _ := postgres.Auction{DB: l.db}.FindLot(ctx, l.id(), id)
			if l2.Status == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("lot %d is %s, want %s", id, l2.Status, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitStatus(lot.ID, auction.LotSold)
	if tm := l.team("A"); len(tm.Players) != 1 || tm.Players[0].Price != 1100 {
		t.Fatalf("team A: %+v", tm)
	}
	next := l.open(l.players[1], 0)
	waitStatus(next.ID, auction.LotUnsold)
	v, err := l.svc.State(ctx, l.name)
	if err != nil || v.Lot != nil || len(v.Sold) != 1 || len(v.Unsold) != 1 || v.Unsold[0].Player.UserID != l.players[1] {
		t.Fatalf("state: lot %v sold %d unsold %+v %v", v.Lot, len(v.Sold), v.Unsold, err)
	}
	// An unsold player comes back in a later round.
	again := l.open(l.players[1], 0)
	if _, err := l.svc.Close(ctx, l.admin, l.name, again.ID); err != nil {
		t.Fatal(err)
	}
}

// A lot whose instance died (its timer gone) is closed by the scheduled
// job, on another instance, once.
func TestLotClosesWithoutItsInstance(t *testing.T) {
	l := newLeague(t, 2, "A")
	ctx := context.Background()
	jobs := &postgres.Jobs{DB: l.db}
	other := &auction.Service{Store: postgres.Auction{DB: l.db}, Tournaments: l.tour, Cards: l.tour, Tx: l.db,
		Events: postgres.Outbox{DB: l.db}, Audit: postgres.Audit{DB: l.db}, Jobs: jobs}
	postgres.Work(jobs, func(ctx context.Context, job auction.CloseLot) error {
		return other.CloseDue(ctx, job.Tournament, job.Lot)
	})
	if err := jobs.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs.Stop(context.Background()) })
	first := &auction.Service{Store: postgres.Auction{DB: l.db}, Tournaments: l.tour, Cards: l.tour, Tx: l.db,
		Events: postgres.Outbox{DB: l.db}, Audit: postgres.Audit{DB: l.db}, Jobs: jobs, LotTime: time.Second}
	lot, err := first.OpenLot(ctx, l.admin, l.name, l.players[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	first.Stop() // the instance that opened it is gone
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, _ := postgres.Auction{DB: l.db}.FindLot(ctx, l.id(), lot.ID)
		if got.Status == auction.LotUnsold {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lot still %s", got.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var closes int
	l.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action = 'auction.close_lot' AND data->>'lot' = $1`,
		fmt.Sprint(lot.ID)).Scan(&closes)
	if closes != 1 {
		t.Fatalf("the lot was closed %d times", closes)
	}
}

// Two captains bidding in the same moment cannot both lead: 100 bids at
// once end in one winner, whose purse pays exactly the last accepted bid,
// and the accepted bids rise one after another.
func TestConcurrentBids(t *testing.T) {
	l := newLeague(t, 2, "A", "B", "C", "D")
	ctx := context.Background()
	lot := l.open(l.players[0], 1100)
	letters := []string{"A", "B", "C", "D"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := 0
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			amount := 1100 + 50*rand.IntN(23)
			if _, err := l.svc.Bid(ctx, l.captains[letters[i%4]], l.name, lot.ID, amount); err == nil {
				mu.Lock()
				accepted++
				mu.Unlock()
			} else if k := errs.KindOf(err); k != errs.Conflict && k != errs.Unprocessable {
				t.Errorf("bid %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	got, err := postgres.Auction{DB: l.db}.FindLot(ctx, l.id(), lot.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Bids) != accepted || accepted == 0 {
		t.Fatalf("%d bids recorded, %d accepted", len(got.Bids), accepted)
	}
	for i := 1; i < len(got.Bids); i++ {
		if got.Bids[i].Amount <= got.Bids[i-1].Amount || got.Bids[i].Team == got.Bids[i-1].Team {
			t.Fatalf("bid %d (%+v) does not beat %+v", i, got.Bids[i], got.Bids[i-1])
		}
	}
	last := got.Bids[len(got.Bids)-1]
	if got.High.Team != last.Team || got.High.Amount != last.Amount {
		t.Fatalf("high %+v, last bid %+v", got.High, last)
	}
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		t.Fatal(err)
	}
	for _, letter := range letters {
		tm := l.team(letter)
		spent := tm.Purse - tm.PurseLeft
		if (letter == last.Team) != (spent == last.Amount && len(tm.Players) == 1) || (letter != last.Team && spent != 0) {
			t.Fatalf("team %s spent %d with %d players; winner %s at %d", letter, spent, len(tm.Players), last.Team, last.Amount)
		}
	}
}

// Whatever happens, in any order, the auction's invariants hold: no team
// over its slots or its purse (it can always fill its free slots at the
// lowest price), no player on two teams, and every credit spent is a sale.
func TestAuctionInvariants(t *testing.T) {
	l := newLeague(t, 16, "A", "B", "C")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 2026))
	var open *auction.Lot
	for step := range 400 {
		switch op := rng.IntN(10); {
		case open == nil && op < 3:
			lot, err := l.svc.OpenLot(ctx, l.admin, l.name, l.players[rng.IntN(len(l.players))], 0)
			if err == nil {
				open = &lot
			} else if errs.KindOf(err) != errs.Conflict {
				t.Fatalf("step %d open: %v", step, err)
			}
		case open != nil && op < 8:
			letter := string("ABC"[rng.IntN(3)])
			_, err := l.svc.Bid(ctx, l.captains[letter], l.name, open.ID, 1100+50*rng.IntN(23))
			if k := errs.KindOf(err); err != nil && k != errs.Conflict && k != errs.Unprocessable {
				t.Fatalf("step %d bid: %v", step, err)
			}
		case open != nil && op < 9:
			if _, err := l.svc.Close(ctx, l.admin, l.name, open.ID); err != nil {
				t.Fatalf("step %d close: %v", step, err)
			}
			open = nil
		default:
			v, _ := l.svc.State(ctx, l.name)
			if len(v.Sold) > 0 && rng.IntN(4) == 0 {
				sale := v.Sold[rng.IntN(len(v.Sold))]
				if _, err := l.svc.Void(ctx, l.admin, l.name, sale.LotID); err != nil {
					t.Fatalf("step %d void: %v", step, err)
				}
			}
		}
		v, err := l.svc.State(ctx, l.name)
		if err != nil {
			t.Fatal(err)
		}
		onTeam := map[int64]string{}
		salesByTeam := map[string]int{}
		for _, s := range v.Sold {
			salesByTeam[s.Team] += s.Price
		}
		for _, tm := range v.Teams {
			if len(tm.Players) > auction.Slots || tm.PurseLeft < auction.MinPrice*tm.FreeSlots {
				t.Fatalf("step %d: team %s has %d players and %d left", step, tm.ID, len(tm.Players), tm.PurseLeft)
			}
			if tm.Purse-tm.PurseLeft != salesByTeam[tm.ID] {
				t.Fatalf("step %d: team %s spent %d, its sales come to %d", step, tm.ID, tm.Purse-tm.PurseLeft, salesByTeam[tm.ID])
			}
			for _, p := range tm.Players {
				if other, dup := onTeam[p.UserID]; dup {
					t.Fatalf("step %d: player %d on teams %s and %s", step, p.UserID, other, tm.ID)
				}
				onTeam[p.UserID] = tm.ID
				if p.Price < auction.MinPrice || p.Price > auction.MaxPrice {
					t.Fatalf("step %d: price %d", step, p.Price)
				}
			}
		}
	}
}

// Voiding a sale gives the team its credits back and the player to the pool.
func TestVoid(t *testing.T) {
	l := newLeague(t, 3, "A")
	ctx := context.Background()
	lot := l.open(l.players[0], 1500)
	if _, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1500); err != nil {
		t.Fatal(err)
	}
	if _, err := l.svc.Close(ctx, l.admin, l.name, lot.ID); err != nil {
		t.Fatal(err)
	}
	_, err := l.svc.Void(ctx, l.captains["A"], l.name, lot.ID)
	refused(t, "a captain voids", err, errs.Forbidden, "")
	voided, err := l.svc.Void(ctx, l.admin, l.name, lot.ID)
	if err != nil || voided.Status != auction.LotVoided {
		t.Fatalf("%+v %v", voided, err)
	}
	if tm := l.team("A"); tm.PurseLeft != tm.Purse || len(tm.Players) != 0 {
		t.Fatalf("team A after the void: %+v", tm)
	}
	_, err = l.svc.Void(ctx, l.admin, l.name, lot.ID)
	refused(t, "void twice", err, errs.Conflict, "")
	l.open(l.players[0], 0) // back in the pool
	var audited int
	l.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action = 'auction.void'`).Scan(&audited)
	if audited == 0 {
		t.Fatal("the void is not in the audit log")
	}
}

func TestCaptains(t *testing.T) {
	l := newLeague(t, 3, "A")
	ctx := context.Background()
	t.Run("ErrOneTeamPerCaptain", func(t *testing.T) {
		_, err := l.svc.SetCaptain(ctx, l.admin, l.name, "B", l.captains["A"].UserID)
		refused(t, "captain of two teams", err, errs.Conflict, "")
	})
	t.Run("ErrNotRegistered", func(t *testing.T) {
		_, err := l.svc.SetCaptain(ctx, l.admin, l.name, "B", l.admin.UserID)
		refused(t, "captain not registered", err, errs.Unprocessable, "")
	})
	t.Run("ErrUnknownTeam", func(t *testing.T) {
		_, err := l.svc.SetCaptain(ctx, l.admin, l.name, "Z", l.players[0])
		refused(t, "team Z", err, errs.NotFound, "")
	})
	t.Run("ErrNotAnOrganiser", func(t *testing.T) {
		_, err := l.svc.SetCaptain(ctx, l.captains["A"], l.name, "B", l.players[0])
		refused(t, "a captain names another", err, errs.Forbidden, "")
	})
	t.Run("OKReplacingTheCaptain", func(t *testing.T) {
		team, err := l.svc.SetCaptain(ctx, l.admin, l.name, "A", l.players[0])
		if err != nil || team.Captain == nil || team.Captain.UserID != l.players[0] {
			t.Fatalf("%+v %v", team, err)
		}
		caps, _, _ := postgres.Accounts{DB: l.db}.Roles(ctx, l.captains["A"].UserID)
		for _, c := range caps {
			if c.TournamentID == l.id() {
				t.Fatal("the old captain still captains")
			}
		}
	})
	t.Run("TierOverride", func(t *testing.T) {
		p, err := l.svc.SetTier(ctx, l.admin, l.name, l.players[1], 1)
		if err != nil || p.Tier != 1 {
			t.Fatalf("%+v %v", p, err)
		}
		if lot := l.open(l.players[1], 0); lot.BasePrice != auction.TierPrices[1].Base {
			t.Fatalf("lot of a tier-1 player at %d", lot.BasePrice)
		}
	})
}
