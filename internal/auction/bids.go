// Captains' bids on the open lot.

package auction

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Bid places a captain's bid on the open lot. Bids on a lot are taken one
// at a time (the lot's row is locked), so of two bids in the same
// millisecond the second sees the first.
func (s *Service) Bid(ctx context.Context, a core.Actor, name string, lotID int64, amount int) (Lot, error) {
	if err := a.MustSignIn(); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, letter, err := s.captainIn(ctx, a, name, tournament.Bid, MsgCaptainsOnly)
		if err != nil {
			return err
		}
		l, err := s.Store.LockLot(ctx, t.ID, lotID)
		if err != nil {
			return err
		}
		teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
		if err != nil {
			return err
		}
		team, _ := teamOf(teams, letter)
		now := s.now()
		if err := CheckBid(l, team.State(), amount, now); err != nil {
			return err
		}
		endsAt := Deadline(l.EndsAt, now, s.lateBid())
		if err := s.Store.AddBid(ctx, l.ID, team, a.UserID, amount, endsAt); err != nil {
			return err
		}
		if endsAt.After(l.EndsAt) {
			if err := s.Jobs.Schedule(ctx, CloseLot{Tournament: t.ID, Lot: l.ID}, endsAt); err != nil {
				return err
			}
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionBid, t.ID, subjectOf(l.Player),
			map[string]any{"lot": l.ID, "team": letter, "amount": amount}); err != nil {
			return err
		}
		if lot, err = s.Store.FindLot(ctx, t.ID, l.ID); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicTeams, EventBid, BidNews{Tournament: t.Name, LotID: lot.ID,
			Bid: Bid{Team: letter, Amount: amount, At: now}, High: HighBid{Team: letter, Amount: amount}, EndsAt: lot.EndsAt})
		return err
	})
	if err == nil {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return lot, err
}
