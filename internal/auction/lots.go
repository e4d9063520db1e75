// Lots: opened by an organiser, closed by their countdown (a timer here, a job as the backstop) or early, and sales voided while the auction runs.

package auction

import (
	"context"
	"log/slog"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// CloseLot is the scheduled job that closes a lot when its countdown ends.
// It is written with the lot (and again with each late bid), so it survives
// restarts; whichever instance runs it first closes the lot, once.
type CloseLot struct {
	Tournament int64 `json:"tournament"`
	Lot        int64 `json:"lot"`
}

// Kind implements core.Job.
func (CloseLot) Kind() string { return "auction.close_lot" }

// OpenLot puts a registered player under the hammer (organisers, during the
// auction): one lot at a time, at basePrice or (0) their tier's.
func (s *Service) OpenLot(ctx context.Context, a core.Actor, name string, userID int64, basePrice int) (Lot, error) {
	if err := tournament.Admit(a, tournament.OpenLot); err != nil {
		return Lot{}, err
	}
	if basePrice != 0 && (basePrice < MinPrice || basePrice > MaxPrice) {
		return Lot{}, errs.E(errs.Unprocessable, "The base price must be from %d to %d credits.", MinPrice, MaxPrice)
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.OpenLot)
		if err != nil {
			return err
		}
		f, err := s.Store.LockFlow(ctx, t.ID)
		if err != nil {
			return err
		}
		if f.Paused {
			return errs.E(errs.Conflict, MsgPaused)
		}
		if lot, err = s.putUp(ctx, a, t, userID, basePrice, ""); err != nil {
			return err
		}
		// The turn to nominate waits for the organiser's lot, and runs
		// afresh once it closes.
		if f.TurnEndsAt == nil {
			return nil
		}
		f.TurnEndsAt = nil
		return s.saveTurn(ctx, t, f)
	})
	if err == nil {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return lot, err
}

// putUp opens a lot on a registered player at basePrice or (0) their
// tier's, for an organiser or (team) on that team's turn to nominate; the
// caller holds the tournament's phase and flow.
func (s *Service) putUp(ctx context.Context, a core.Actor, t tournament.Tournament, userID int64, basePrice int, team string) (Lot, error) {
	// The player's row is locked: naming them captain meanwhile waits,
	// then finds them under the hammer.
	p, err := s.Store.LockPlayer(ctx, t.ID, userID)
	if errs.KindOf(err) == errs.NotFound {
		return Lot{}, errs.E(errs.NotFound, "Player %d is not registered for %s.", userID, t.Name)
	} else if err != nil {
		return Lot{}, err
	}
	why, err := s.Store.Engaged(ctx, t.ID, userID)
	if err != nil {
		return Lot{}, err
	}
	if why != "" {
		return Lot{}, errs.E(errs.Conflict, "%s %s.", p.Name, why)
	}
	price := PriceOf(p.Tier)
	if basePrice != 0 {
		price.Base = basePrice
	}
	now := s.now()
	lot, err := s.Store.CreateLot(ctx, Lot{TournamentID: t.ID, Player: p, BasePrice: price.Base,
		Increment: price.Increment, Status: LotOpen, EndsAt: now.Add(s.lotTime()), OpenedAt: now})
	if err != nil {
		return Lot{}, err
	}
	if err := s.Jobs.Schedule(ctx, CloseLot{Tournament: t.ID, Lot: lot.ID}, lot.EndsAt); err != nil {
		return Lot{}, err
	}
	action, data := ActionOpenLot, map[string]any{"lot": lot.ID, "user_id": userID, "base_price": lot.BasePrice, "increment": lot.Increment}
	if team != "" {
		action, data["team"] = ActionNominate, team
	}
	if err := s.Audit.RecordAbout(ctx, a, action, t.ID, core.AuditSubject{UserID: userID, Name: p.Name}, data); err != nil {
		return Lot{}, err
	}
	_, err = s.Events.Emit(ctx, core.TopicTeams, EventLot, map[string]any{"tournament": t.Name, "lot": lot})
	return lot, err
}

// Close closes a lot now (organisers): sold to its high bid, else unsold.
func (s *Service) Close(ctx context.Context, a core.Actor, name string, lotID int64) (Lot, error) {
	if err := tournament.Admit(a, tournament.CloseLot); err != nil {
		return Lot{}, err
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Lot{}, err
	}
	if err := tournament.Authorize(a, t, tournament.CloseLot); err != nil {
		return Lot{}, err
	}
	if err := t.Allows(tournament.CloseLot); err != nil {
		return Lot{}, err
	}
	l, closed, err := s.closeLot(ctx, a, t.ID, lotID, true)
	if err == nil && !closed {
		return l, errs.E(errs.Conflict, MsgLotClosed)
	}
	return l, err
}

// CloseDue closes a lot whose countdown has ended (the job and the timer);
// a lot already closed, or given more time by a late bid, is left alone.
func (s *Service) CloseDue(ctx context.Context, tournamentID, lotID int64) error {
	_, _, err := s.closeLot(ctx, core.System, tournamentID, lotID, false)
	return err
}

func (s *Service) closeLot(ctx context.Context, a core.Actor, tournamentID, lotID int64, force bool) (Lot, bool, error) {
	var (
		lot    Lot
		closed bool
	)
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		closed = false
		f, err := s.Store.LockFlow(ctx, tournamentID)
		if err != nil {
			return err
		}
		l, err := s.Store.LockLot(ctx, tournamentID, lotID)
		if err != nil {
			return err
		}
		lot = l
		// A paused lot's countdown is stopped: only an organiser closes it.
		if l.Status != LotOpen || (!force && (l.PausedLeftMs != nil || s.now().Before(l.EndsAt))) {
			return nil
		}
		status := LotUnsold
		if l.High != nil {
			status = LotSold
		}
		if err := s.Store.FinishLot(ctx, l, status); err != nil {
			return err
		}
		closed = true
		if lot, err = s.Store.FindLot(ctx, tournamentID, lotID); err != nil {
			return err
		}
		t, err := s.Tournaments.FindByID(ctx, tournamentID)
		if err != nil {
			return err
		}
		data := map[string]any{"lot": lot.ID, "status": status, "early": force}
		if l.High != nil {
			data["team"], data["price"] = l.High.Team, l.High.Amount
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionCloseLot, tournamentID, subjectOf(l.Player), data); err != nil {
			return err
		}
		if status == LotUnsold {
			if _, err = s.Events.Emit(ctx, core.TopicTeams, EventUnsold, map[string]any{"tournament": t.Name, "lot": lot}); err != nil {
				return err
			}
		} else {
			sale := Sale{LotID: lot.ID, Player: lot.Player, Team: l.High.Team, Price: l.High.Amount, At: s.now()}
			if _, err := s.Events.Emit(ctx, core.TopicTeams, EventSold, map[string]any{"tournament": t.Name, "lot": lot, "sale": sale}); err != nil {
				return err
			}
			if _, err = s.emitTeam(ctx, t, l.High.Team); err != nil {
				return err
			}
		}
		// The turn to nominate runs (again) once the lot is closed.
		return s.startTurn(ctx, t, f, f.Turn)
	})
	if err == nil && lot.Status != LotOpen {
		s.disarm(lotID)
	}
	return lot, closed, err
}

// Void undoes a sale (organisers, while the auction runs): the player
// leaves the team, the credits go back to its purse, and the player can be
// put up again.
func (s *Service) Void(ctx context.Context, a core.Actor, name string, lotID int64) (Lot, error) {
	if err := tournament.Admit(a, tournament.VoidSale); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		// Rosters are final once the auction is over: the fixtures and the
		// Points Table stand on them.
		t, err := s.inPhase(ctx, a, name, tournament.VoidSale)
		if err != nil {
			return err
		}
		lot, err = s.void(ctx, a, t, lotID, ActionVoid)
		return err
	})
	return lot, err
}

// void undoes the sale of lot lotID, recorded as action; the caller holds
// the tournament's phase.
func (s *Service) void(ctx context.Context, a core.Actor, t tournament.Tournament, lotID int64, action string) (Lot, error) {
	f, err := s.Store.LockFlow(ctx, t.ID)
	if err != nil {
		return Lot{}, err
	}
	l, err := s.Store.LockLot(ctx, t.ID, lotID)
	if err != nil {
		return Lot{}, err
	}
	if l.Status != LotSold || l.High == nil {
		return Lot{}, errs.E(errs.Conflict, "Only a sale can be voided: lot %d is %s.", l.ID, l.Status)
	}
	if err := s.Store.FinishLot(ctx, l, LotVoided); err != nil {
		return Lot{}, err
	}
	if err := s.Audit.RecordAbout(ctx, a, action, t.ID, subjectOf(l.Player),
		map[string]any{"lot": l.ID, "team": l.High.Team, "price": l.High.Amount}); err != nil {
		return Lot{}, err
	}
	lot, err := s.Store.FindLot(ctx, t.ID, l.ID)
	if err != nil {
		return Lot{}, err
	}
	if _, err := s.Events.Emit(ctx, core.TopicTeams, EventVoided, map[string]any{"tournament": t.Name, "lot": lot}); err != nil {
		return Lot{}, err
	}
	if _, err := s.emitTeam(ctx, t, l.High.Team); err != nil {
		return Lot{}, err
	}
	// A slot freed when every team was full: the turns start again.
	if f.Turns() && f.Turn == "" {
		open, err := s.Store.OpenLot(ctx, t.ID)
		if err != nil || open != nil {
			return lot, err
		}
		return lot, s.startTurn(ctx, t, f, "")
	}
	return lot, nil
}

// arm closes the lot at its deadline on this instance.
func (s *Service) arm(tournamentID, lotID int64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timers == nil {
		s.timers = map[int64]*time.Timer{}
	}
	if t := s.timers[lotID]; t != nil {
		t.Stop()
	}
	s.timers[lotID] = time.AfterFunc(time.Until(at)+20*time.Millisecond, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.CloseDue(ctx, tournamentID, lotID); err != nil && s.Log != nil {
			// The job closes it instead.
			s.Log.Warn("closing a lot on time failed", slog.Int64("lot", lotID), slog.Any("err", err))
		}
	})
}

func (s *Service) disarm(lotID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.timers[lotID]; t != nil {
		t.Stop()
		delete(s.timers, lotID)
	}
}

// Stop cancels this instance's timers (the jobs remain).
func (s *Service) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, t := range s.timers {
		t.Stop()
		delete(s.timers, id)
	}
}
