package tournament

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// ActionUnpaidReleased is audited when a registration's payment hold ran
// out unpaid and its place was given up.
const ActionUnpaidReleased = "registration.unpaid_released"

// ReleaseUnpaid takes a player whose entry fee was not paid within its
// hold off the season's list (the league's scheduled job, while the season
// registers), and gives a confirmed place it frees to the first waiting
// player (PromotesInOrder). It says whether the player was on the list.
func (s *Service) ReleaseUnpaid(ctx context.Context, tournamentID, userID int64) (bool, error) {
	released := false
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.Store.LockRoster(ctx, tournamentID)
		if err != nil {
			return err
		}
		if !t.RegistrationOpen() {
			return nil
		}
		p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID)
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		if err != nil {
			return err
		}
		was, err := s.Store.Unregister(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		released = true
		if err := s.Audit.RecordAbout(ctx, core.System, ActionUnpaidReleased, t.ID, core.AuditSubject{UserID: userID, Name: p.Name},
			map[string]any{"user_id": userID, "was": was}); err != nil {
			return err
		}
		if _, err = s.Events.Emit(ctx, core.TopicRegistrations, EventUnregistered, map[string]any{"tournament": t.Name, "id": userID}); err != nil {
			return err
		}
		if was != Confirmed {
			return nil
		}
		return s.promoteInOrder(ctx, t)
	})
	return released, err
}
