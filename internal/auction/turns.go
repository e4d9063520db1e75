// Nomination turns: captains put players up in turn, and the league
// nominates the strongest player left for a captain out of time.

package auction

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// NominateTurn is the scheduled job that ends a captain's turn to
// nominate: written with the turn (and again on resume), it nominates for
// the team if its turn is still running out then.
type NominateTurn struct {
	Tournament int64  `json:"tournament"`
	Team       string `json:"team"`
}

// Kind implements core.Job.
func (NominateTurn) Kind() string { return "auction.nominate_turn" }

// SetTurns turns the nomination turns on (seconds a turn, 0 for
// TurnTime) or off (organisers, before the matches). Turned on during the
// auction with no lot open, the first turn starts at team A.
func (s *Service) SetTurns(ctx context.Context, a core.Actor, name string, on bool, seconds int) (Flow, error) {
	if err := tournament.Admit(a, tournament.SetTurns); err != nil {
		return Flow{}, err
	}
	turn := time.Duration(seconds) * time.Second
	switch {
	case !on:
		turn = 0
	case seconds == 0:
		turn = TurnTime
	case turn < MinTurnTime || turn > MaxTurnTime:
		return Flow{}, errs.E(errs.Unprocessable, "A turn to nominate lasts from %d to %d seconds.",
			int(MinTurnTime.Seconds()), int(MaxTurnTime.Seconds()))
	}
	var f Flow
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.SetTurns)
		if err != nil {
			return err
		}
		if f, err = s.Store.LockFlow(ctx, t.ID); err != nil {
			return err
		}
		was := f.Turns()
		f.TurnSeconds = int(turn.Seconds())
		if err := s.Audit.Record(ctx, a, ActionTurns, t.ID, t.Name, map[string]any{"turn_seconds": f.TurnSeconds}); err != nil {
			return err
		}
		if !f.Turns() {
			f.Turn, f.TurnEndsAt, f.TurnLeftMs = "", nil, nil
			return s.saveTurn(ctx, t, f)
		}
		open, err := s.Store.OpenLot(ctx, t.ID)
		if err != nil {
			return err
		}
		if was || open != nil || t.Status != tournament.StatusAuction {
			return s.saveTurn(ctx, t, f)
		}
		f, err = s.turnFrom(ctx, t, f, "")
		return err
	})
	return f, err
}

// StartTurns starts the nomination turns of a tournament entering its
// auction phase (tournament.Service.OnAuction), in its transaction.
func (s *Service) StartTurns(ctx context.Context, t tournament.Tournament) error {
	f, err := s.Store.LockFlow(ctx, t.ID)
	if err != nil || !f.Turns() {
		return err
	}
	_, err = s.turnFrom(ctx, t, f, f.Turn)
	return err
}

// Nominate puts a player up on the captain's team's turn, at their tier's
// base price; the turn passes to the next team.
func (s *Service) Nominate(ctx context.Context, a core.Actor, name string, userID int64) (Lot, error) {
	if err := a.MustSignIn(); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, letter, err := s.captainIn(ctx, a, name, tournament.Nominate, MsgCaptainsNom)
		if err != nil {
			return err
		}
		f, err := s.Store.LockFlow(ctx, t.ID)
		if err != nil {
			return err
		}
		switch {
		case !f.Turns():
			return errs.E(errs.Conflict, "Captains of %s do not nominate: an organiser opens every lot.", t.Name)
		case f.Paused:
			return errs.E(errs.Conflict, MsgPaused)
		case f.Turn != letter || f.TurnEndsAt == nil:
			return errs.E(errs.Conflict, "%s", notYourTurn(f, letter))
		}
		lot, err = s.nominate(ctx, a, t, f, userID)
		return err
	})
	if err == nil {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return lot, err
}

func notYourTurn(f Flow, letter string) string {
	switch {
	case f.Turn == letter:
		return "Your turn comes once the open lot closes."
	case f.Turn == "":
		return "No team's turn to nominate: every team is full."
	}
	return "It is Team " + f.Turn + "'s turn to nominate."
}

// NominateDue ends a turn run out (the job and the countdowns): the
// strongest player left goes under the hammer for the team. A turn taken,
// given more time by a pause, or of a season out of its auction is left
// alone.
func (s *Service) NominateDue(ctx context.Context, job NominateTurn) error {
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.FindByID(ctx, job.Tournament)
		if err != nil {
			return err
		}
		if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
			return err
		}
		if t.Allows(tournament.NominateDue) != nil {
			return nil
		}
		f, err := s.Store.LockFlow(ctx, t.ID)
		if err != nil {
			return err
		}
		if !f.Turns() || f.Paused || f.Turn != job.Team || f.TurnEndsAt == nil || s.now().Before(*f.TurnEndsAt) {
			return nil
		}
		pool, err := s.Store.Pool(ctx, t.ID)
		if err != nil {
			return err
		}
		p, ok := Strongest(pool)
		if !ok {
			// Nobody left to put up: the turns stop.
			f.Turn, f.TurnEndsAt = "", nil
			return s.saveTurn(ctx, t, f)
		}
		lot, err = s.nominate(ctx, core.System, t, f, p.UserID)
		return err
	})
	if err == nil && lot.ID != 0 {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return err
}

// nominate opens the lot of f's turn and passes the turn to the next team
// (its countdown starts once the lot closes).
func (s *Service) nominate(ctx context.Context, a core.Actor, t tournament.Tournament, f Flow, userID int64) (Lot, error) {
	lot, err := s.putUp(ctx, a, t, userID, 0, f.Turn)
	if err != nil {
		return Lot{}, err
	}
	teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
	if err != nil {
		return Lot{}, err
	}
	f.Turn, f.TurnEndsAt, f.TurnLeftMs = TurnFrom(teams, After(f.Turn)), nil, nil
	return lot, s.saveTurn(ctx, t, f)
}

// startTurn starts f's turns again once no lot is open, from team start
// (or A), when captains nominate.
func (s *Service) startTurn(ctx context.Context, t tournament.Tournament, f Flow, start string) error {
	if !f.Turns() {
		return nil
	}
	_, err := s.turnFrom(ctx, t, f, start)
	return err
}

// turnFrom gives the turn to the first team from start that can nominate,
// with its full time (kept aside while paused), and schedules its end.
func (s *Service) turnFrom(ctx context.Context, t tournament.Tournament, f Flow, start string) (Flow, error) {
	teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
	if err != nil {
		return f, err
	}
	f.Turn, f.TurnEndsAt, f.TurnLeftMs = TurnFrom(teams, start), nil, nil
	turn := time.Duration(f.TurnSeconds) * time.Second
	switch {
	case f.Turn == "":
	case f.Paused:
		f.TurnLeftMs = ms(turn)
	default:
		ends := s.now().Add(turn)
		f.TurnEndsAt = &ends
		if err := s.Jobs.Schedule(ctx, NominateTurn{Tournament: t.ID, Team: f.Turn}, ends); err != nil {
			return f, err
		}
	}
	return f, s.saveTurn(ctx, t, f)
}

// saveTurn saves f and tells every client of the turn.
func (s *Service) saveTurn(ctx context.Context, t tournament.Tournament, f Flow) error {
	if err := s.Store.SaveFlow(ctx, t.ID, f); err != nil {
		return err
	}
	_, err := s.Events.Emit(ctx, core.TopicTeams, EventTurn, FlowNews{Tournament: t.Name, Flow: f})
	return err
}
