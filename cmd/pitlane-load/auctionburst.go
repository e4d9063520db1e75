// The burst: many bids at one lot at once, and the one consistent state it must end in.

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// burst opens a lot and sends cfg.burst bids at it at once, spread over
// the captains at prices anywhere on the lot's steps; then it checks that
// the lot is in one consistent state before and after it closes.
func (lg *league) burst(ctx context.Context, tl *timeline, userID int64) (*burstCheck, error) {
	before, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	lot, err := lg.openLot(ctx, tl, userID)
	if err != nil {
		return nil, err
	}
	steps := lot.steps()
	bc := &burstCheck{Sent: lg.cfg.burst}
	type answer struct {
		letter         string
		amount, status int
	}
	answers := make([]answer, lg.cfg.burst)
	startGate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range answers {
		answers[i] = answer{letter: lg.letters[i%len(lg.letters)], amount: lot.BasePrice + rand.IntN(steps)*lot.Increment}
		wg.Go(func() {
			<-startGate
			_, answers[i].status, _ = lg.bid(ctx, tl, answers[i].letter, lot.ID, answers[i].amount)
		})
	}
	t0 := time.Now()
	close(startGate)
	wg.Wait()
	bc.Seconds = time.Since(t0).Seconds()
	leaders := map[int]string{}
	for _, a := range answers {
		switch a.status {
		case http.StatusOK:
			bc.Accepted++
			if a.amount > bc.MaxAccepted {
				bc.MaxAccepted = a.amount
			}
			if prev, ok := leaders[a.amount]; ok {
				bc.problem("two accepted bids of %d (teams %s and %s)", a.amount, prev, a.letter)
			}
			leaders[a.amount] = a.letter
		case http.StatusConflict, http.StatusUnprocessableEntity:
			bc.Refused++
		default:
			bc.Other++
		}
	}
	if bc.Accepted+bc.Refused != bc.Sent {
		bc.problem("accepted %d + refused %d != %d sent (%d other answers)", bc.Accepted, bc.Refused, bc.Sent, bc.Other)
	}
	mid, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case mid.Lot == nil || mid.Lot.ID != lot.ID:
		bc.problem("lot %d is no longer the open lot", lot.ID)
	case bc.Accepted == 0:
		bc.problem("no bid was accepted")
	case mid.Lot.High == nil:
		bc.problem("the lot has no high bid after %d accepted", bc.Accepted)
	default:
		bc.Leader, bc.HighBid, bc.LotBids = mid.Lot.High.Team, mid.Lot.High.Amount, len(mid.Lot.Bids)
		if bc.HighBid != bc.MaxAccepted || bc.Leader != leaders[bc.MaxAccepted] {
			bc.problem("high bid %d by %s, but the highest accepted was %d by %s", bc.HighBid, bc.Leader, bc.MaxAccepted, leaders[bc.MaxAccepted])
		}
		if bc.LotBids != bc.Accepted {
			bc.problem("the lot holds %d bids, %d were accepted", bc.LotBids, bc.Accepted)
		}
	}
	if d := pursesDiffer(before.Teams, mid.Teams, "", 0); d != "" {
		bc.problem("purses changed before the close: %s", d)
	}
	var closed struct{ Lot lotView }
	if err := lg.change(ctx, tl, fmt.Sprintf("/%d/close", lot.ID), nil, &closed); err != nil {
		return nil, err
	}
	after, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	var sales int
	for _, s := range after.Sold {
		if s.LotID == lot.ID {
			sales++
			bc.Buyer, bc.Price = s.Team, s.Price
		}
	}
	if closed.Lot.Status != "sold" || sales != 1 {
		bc.problem("after the close the lot is %q with %d sales", closed.Lot.Status, sales)
	}
	if bc.Buyer != bc.Leader || bc.Price != bc.HighBid {
		bc.problem("sold to %s for %d, the high bid was %s's %d", bc.Buyer, bc.Price, bc.Leader, bc.HighBid)
	}
	if d := pursesDiffer(before.Teams, after.Teams, bc.Buyer, bc.Price); d != "" {
		bc.problem("purses after the sale: %s", d)
	}
	if !lg.cfg.keepResults {
		if err := lg.change(ctx, tl, fmt.Sprintf("/%d/void", lot.ID), nil, nil); err != nil {
			return nil, err
		}
	}
	return bc, nil
}

func (bc *burstCheck) problem(format string, args ...any) {
	bc.Problems = append(bc.Problems, fmt.Sprintf(format, args...))
}

// pursesDiffer says how after's purses differ from before's, but for the
// buyer's, which must be lower by price.
func pursesDiffer(before, after []teamView, buyer string, price int) string {
	left := map[string]int{}
	for _, t := range before {
		left[t.ID] = t.PurseLeft
	}
	var diffs []string
	for _, t := range after {
		want := left[t.ID]
		if t.ID == buyer {
			want -= price
		}
		if t.PurseLeft != want {
			diffs = append(diffs, fmt.Sprintf("team %s %d, expected %d", t.ID, t.PurseLeft, want))
		}
	}
	return strings.Join(diffs, "; ")
}
