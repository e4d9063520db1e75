package tournament

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
)

// LeaveAll withdraws a player whose account is being deleted from every
// tournament that can still do without them: one registering (as if they
// unregistered, the first waiting player taking a confirmed place), or one
// whose auction has not sold them (they leave the players it may put up).
// A player on a team, or in a season past its auction, stays: the league's
// records keep them under a pseudonym. It runs in the caller's transaction.
func (s *Service) LeaveAll(ctx context.Context, a core.Actor) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	names, err := s.Store.TournamentsOf(ctx, a.UserID)
	if err != nil {
		return err
	}
	for _, name := range names {
		t, err := s.Store.FindTournament(ctx, name)
		if err != nil {
			return err
		}
		var was string
		switch t.Status {
		case StatusRegistration:
			if t, _, err = s.lockRoster(ctx, a, name, Unregister); err != nil {
				return err
			}
			if was, err = s.Store.Unregister(ctx, t.ID, a.UserID); err != nil {
				return err
			}
		case StatusAuction:
			left, err := s.Store.DropUnsold(ctx, t.ID, a.UserID)
			if err != nil || !left {
				return err
			}
		default:
			continue
		}
		if _, err := s.Events.Emit(ctx, core.TopicRegistrations, EventUnregistered, map[string]any{"tournament": t.Name, "id": a.UserID}); err != nil {
			return err
		}
		if was == Confirmed {
			if err := s.promoteInOrder(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}
