// Package auction holds the league's credits auction: eight teams, their
// captains and purses, player tiers, and lots that captains bid on live
// until a countdown ends (docs/league.md, "The auction"). Its rules are pure
// functions; the Service applies them in one transaction per change, with
// the change's audit entry, its live events and the lot's closing job.
package auction

import (
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// The auction's rules (docs/league.md, "The auction").
const (
	MinPrice = 1100 // a player's price is from MinPrice
	MaxPrice = 2200 // to MaxPrice credits
	Slots    = 5    // players a team buys, besides its captain
	// Substitutes is how many substitutes a team may sign once the
	// auction is over, beside its Slots.
	Substitutes = 2
	Letters     = "ABCDEFGH"

	// LotTime is how long a lot runs from its opening; a bid in its last
	// LateBid restarts the countdown at LateBid.
	LotTime = 20 * time.Second
	LateBid = 10 * time.Second
)

// Price is what a tier sets for a lot: where bidding starts and the step.
type Price struct {
	Base      int `json:"base_price"`
	Increment int `json:"increment"`
}

// TierPrices are the lots' defaults per tier (an organiser may open a lot
// at another base price).
var TierPrices = map[int]Price{
	1: {Base: 1700, Increment: 100},
	2: {Base: 1400, Increment: 100},
	3: {Base: 1200, Increment: 50},
	4: {Base: 1100, Increment: 50},
}

// PriceOf is the default price of a tier.
func PriceOf(tier int) Price {
	if p, ok := TierPrices[tier]; ok {
		return p
	}
	return TierPrices[core.Tiers]
}

// MaxBid is the most a team may bid: its purse left, less the lowest price
// of each other slot it still has to fill. A full team bids nothing.
func MaxBid(purseLeft, freeSlots int) int {
	if freeSlots <= 0 {
		return 0
	}
	return min(purseLeft-MinPrice*(freeSlots-1), MaxPrice)
}

// NextBids are the amounts a team may bid now, lowest first (at most n):
// the opening bid or the high bid plus a step, up to the team's MaxBid.
func NextBids(l Lot, team TeamState, n int) []int {
	start := l.BasePrice
	if l.High != nil {
		start = l.High.Amount + l.Increment
	}
	var out []int
	for a := start; a <= MaxBid(team.PurseLeft, team.FreeSlots) && len(out) < n; a += l.Increment {
		out = append(out, a)
	}
	return out
}

// CheckBid says why team may not bid amount on lot at now, or nil. A bid
// at or under the high bid is "outbid" (409, someone got there first); one
// that breaks a rule of the auction is 422.
func CheckBid(l Lot, team TeamState, amount int, now time.Time) error {
	switch {
	case l.Status == LotOpen && l.PausedLeftMs != nil:
		return errs.E(errs.Conflict, MsgPaused)
	case l.Status != LotOpen || !now.Before(l.EndsAt):
		return errs.E(errs.Conflict, MsgLotClosed)
	case l.High != nil && l.High.Team == team.Letter:
		return errs.E(errs.Conflict, "Team %s already holds the high bid.", team.Letter)
	case l.High != nil && amount <= l.High.Amount:
		return errs.E(errs.Conflict, "Outbid: the high bid is now %d by Team %s.", l.High.Amount, l.High.Team)
	case amount < MinPrice || amount > MaxPrice:
		return errs.E(errs.Unprocessable, "A bid must be from %d to %d credits.", MinPrice, MaxPrice)
	case l.High == nil && amount < l.BasePrice:
		return errs.E(errs.Unprocessable, "The opening bid is at least the base price, %d.", l.BasePrice)
	case l.High == nil && (amount-l.BasePrice)%l.Increment != 0:
		return errs.E(errs.Unprocessable, "Bids go up in steps of %d from %d.", l.Increment, l.BasePrice)
	case l.High != nil && amount < l.High.Amount+l.Increment:
		return errs.E(errs.Unprocessable, "The next bid is at least %d (steps of %d).", l.High.Amount+l.Increment, l.Increment)
	case l.High != nil && (amount-l.High.Amount)%l.Increment != 0:
		return errs.E(errs.Unprocessable, "Bids go up in steps of %d from the high bid, %d.", l.Increment, l.High.Amount)
	case team.FreeSlots <= 0:
		return errs.E(errs.Unprocessable, "Team %s has no free slot.", team.Letter)
	case amount > MaxBid(team.PurseLeft, team.FreeSlots):
		return errs.E(errs.Unprocessable, "Over purse: Team %s can bid at most %d (it must still fill %d more slots at %d).",
			team.Letter, MaxBid(team.PurseLeft, team.FreeSlots), team.FreeSlots-1, MinPrice)
	}
	return nil
}

// CheckSigning says why team may not ask to sign, or be given, a
// substitute at price, or nil. bench is its substitutes (with those it
// asked for, when it asks), purseLeft its purse left (less what its other
// requests would cost). The auction is over, so nothing is kept back for
// the five: the purse alone limits a signing.
func CheckSigning(team string, purseLeft, bench, price int) error {
	switch {
	case bench >= Substitutes:
		return errs.E(errs.Unprocessable, "Team %s has its %d substitutes (or asked for them) already.", team, Substitutes)
	case price > purseLeft:
		return errs.E(errs.Unprocessable, "Over purse: Team %s has %d credits left for a signing; this one costs %d.", team, purseLeft, price)
	}
	return nil
}

// Deadline is when a lot ends after a bid at now: a late bid restarts the
// countdown at LateBid.
func Deadline(endsAt, now time.Time, lateBid time.Duration) time.Time {
	if later := now.Add(lateBid); later.After(endsAt) {
		return later
	}
	return endsAt
}

// Messages of the auction's refusals.
const (
	MsgLotClosed    = "This lot is closed."
	MsgCaptainsOnly = "Only captains bid."
)
