// Pausing and resuming the auction, and undoing its last sale.

package auction

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// FlowNews is what a pause, a resume or a new turn tells every client.
type FlowNews struct {
	Tournament string `json:"tournament"`
	Flow       Flow   `json:"flow"`
	Lot        *Lot   `json:"lot"`
}

// Pause stops the auction's clocks (organisers, while it runs): the open
// lot keeps its countdown's time left and takes no bid, the captain whose
// turn it is keeps theirs, and no lot opens until Resume.
func (s *Service) Pause(ctx context.Context, a core.Actor, name string) (FlowNews, error) {
	if err := tournament.Admit(a, tournament.PauseAuction); err != nil {
		return FlowNews{}, err
	}
	var news FlowNews
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, f, lot, err := s.lockFlow(ctx, a, name, tournament.PauseAuction)
		if err != nil {
			return err
		}
		if f.Paused {
			return errs.E(errs.Conflict, "The auction of %s is paused already.", t.Name)
		}
		now := s.now()
		f.Paused, f.PausedAt = true, &now
		data := map[string]any{}
		if lot != nil {
			lot.PausedLeftMs = ms(TimeLeft(lot.EndsAt, now))
			if err := s.Store.SetLotClock(ctx, lot.ID, lot.EndsAt, lot.PausedLeftMs); err != nil {
				return err
			}
			data["lot"], data["left_ms"] = lot.ID, *lot.PausedLeftMs
		}
		if f.TurnEndsAt != nil {
			f.TurnLeftMs, f.TurnEndsAt = ms(TimeLeft(*f.TurnEndsAt, now)), nil
			data["turn"], data["turn_left_ms"] = f.Turn, *f.TurnLeftMs
		}
		news = FlowNews{Tournament: t.Name, Flow: f, Lot: lot}
		return s.changeFlow(ctx, a, t, ActionPause, EventPaused, news, data)
	})
	if err == nil && news.Lot != nil {
		s.disarm(news.Lot.ID)
	}
	return news, err
}

// Resume restarts the auction's clocks (organisers): the open lot's
// countdown and the turn run again for the time they had left.
func (s *Service) Resume(ctx context.Context, a core.Actor, name string) (FlowNews, error) {
	if err := tournament.Admit(a, tournament.ResumeAuction); err != nil {
		return FlowNews{}, err
	}
	var news FlowNews
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, f, lot, err := s.lockFlow(ctx, a, name, tournament.ResumeAuction)
		if err != nil {
			return err
		}
		if !f.Paused {
			return errs.E(errs.Conflict, "%s", MsgNotPaused)
		}
		now := s.now()
		f.Paused, f.PausedAt = false, nil
		data := map[string]any{}
		if lot != nil && lot.PausedLeftMs != nil {
			lot.EndsAt, lot.PausedLeftMs = now.Add(time.Duration(*lot.PausedLeftMs)*time.Millisecond), nil
			if err := s.Store.SetLotClock(ctx, lot.ID, lot.EndsAt, nil); err != nil {
				return err
			}
			if err := s.Jobs.Schedule(ctx, CloseLot{Tournament: t.ID, Lot: lot.ID}, lot.EndsAt); err != nil {
				return err
			}
			data["lot"], data["ends_at"] = lot.ID, lot.EndsAt
		}
		if f.TurnLeftMs != nil {
			ends := now.Add(time.Duration(*f.TurnLeftMs) * time.Millisecond)
			f.TurnEndsAt, f.TurnLeftMs = &ends, nil
			if err := s.Jobs.Schedule(ctx, NominateTurn{Tournament: t.ID, Team: f.Turn}, ends); err != nil {
				return err
			}
			data["turn"], data["turn_ends_at"] = f.Turn, ends
		}
		news = FlowNews{Tournament: t.Name, Flow: f, Lot: lot}
		return s.changeFlow(ctx, a, t, ActionResume, EventResumed, news, data)
	})
	if err == nil && news.Lot != nil {
		s.arm(news.Lot.TournamentID, news.Lot.ID, news.Lot.EndsAt)
	}
	return news, err
}

// lockFlow holds the tournament's phase (which must allow act), its flow
// and its open lot, if any, in that order.
func (s *Service) lockFlow(ctx context.Context, a core.Actor, name string, act tournament.Action) (tournament.Tournament, Flow, *Lot, error) {
	t, err := s.inPhase(ctx, a, name, act)
	if err != nil {
		return t, Flow{}, nil, err
	}
	f, err := s.Store.LockFlow(ctx, t.ID)
	if err != nil {
		return t, f, nil, err
	}
	open, err := s.Store.OpenLot(ctx, t.ID)
	if err != nil || open == nil {
		return t, f, nil, err
	}
	l, err := s.Store.LockLot(ctx, t.ID, open.ID)
	return t, f, &l, err
}

// changeFlow saves the flow of news, audited as action, and tells of it
// as event.
func (s *Service) changeFlow(ctx context.Context, a core.Actor, t tournament.Tournament, action, event string, news FlowNews, data map[string]any) error {
	if err := s.Store.SaveFlow(ctx, t.ID, news.Flow); err != nil {
		return err
	}
	if err := s.Audit.Record(ctx, a, action, t.ID, t.Name, data); err != nil {
		return err
	}
	_, err := s.Events.Emit(ctx, core.TopicTeams, event, news)
	return err
}

// UndoLastSale voids the auction's most recent sale standing (organisers,
// while the auction runs): the player leaves the team and goes back to the
// pool, the credits go back to the team's purse. Undone again, it voids
// the sale before.
func (s *Service) UndoLastSale(ctx context.Context, a core.Actor, name string) (Lot, error) {
	if err := tournament.Admit(a, tournament.UndoSale); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.UndoSale)
		if err != nil {
			return err
		}
		id, err := s.Store.LastSale(ctx, t.ID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Conflict, "No sale of %s to undo.", t.Name)
		} else if err != nil {
			return err
		}
		lot, err = s.void(ctx, a, t, id, ActionUndo)
		return err
	})
	return lot, err
}
