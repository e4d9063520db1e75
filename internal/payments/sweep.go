package payments

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Sweep is the scheduled job that keeps entry fees moving: holds that ran
// out give their places up (the next waiting player promoted), players
// promoted into a place are asked their fee with a hold of their own, and
// refunds that failed are tried again.
type Sweep struct{}

// Kind implements core.Job.
func (Sweep) Kind() string { return "payments.sweep" }

// SweepEvery is how often the sweep runs.
const SweepEvery = time.Minute

// sweepBatch bounds one run's work of each kind.
const sweepBatch = 100

// SweepDue runs the sweep.
func (s *Service) SweepDue(ctx context.Context, _ Sweep) error {
	if !s.On() {
		return nil
	}
	due, err := s.Store.HoldsDue(ctx, s.now(), sweepBatch)
	if err != nil {
		return err
	}
	for _, p := range due {
		if err := s.expire(ctx, p); err != nil {
			return err
		}
	}
	if err := s.askUnasked(ctx); err != nil {
		return err
	}
	refunds, err := s.Store.RefundsDue(ctx, sweepBatch)
	if err != nil {
		return err
	}
	for _, p := range refunds {
		if err := s.refund(ctx, core.System, p); err != nil && s.Log != nil {
			s.Log.Warn("refund deferred", "payment", p.ID, "err", err)
		}
	}
	return nil
}

// HoldEnd is the job that ends one payment's hold at its time.
type HoldEnd struct {
	Payment int64 `json:"payment"`
}

// Kind implements core.Job.
func (HoldEnd) Kind() string { return "payments.hold_end" }

// HoldEndDue ends a hold that ran out unpaid (a payment made meanwhile
// leaves it nothing to do), then asks the fee of whoever moved up into the
// place.
func (s *Service) HoldEndDue(ctx context.Context, job HoldEnd) error {
	if !s.On() {
		return nil
	}
	p, err := s.Store.LockPayment(ctx, job.Payment)
	if errs.KindOf(err) == errs.NotFound {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.expire(ctx, p); err != nil {
		return err
	}
	return s.askUnasked(ctx)
}

// askUnasked asks the fee, with a hold, of the confirmed players who owe
// it and were never asked (promoted from the waitlist into a place).
func (s *Service) askUnasked(ctx context.Context) error {
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		unasked, err := s.Store.Unasked(ctx, sweepBatch)
		if err != nil {
			return err
		}
		for _, p := range unasked {
			if err := s.ask(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// expire ends a hold that ran out: the payment is no longer asked, its
// checkout page is closed, and the place goes to the next waiting player.
func (s *Service) expire(ctx context.Context, p Payment) error {
	var session string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		session = ""
		p, err := s.Store.LockPayment(ctx, p.ID)
		if err != nil || !may(moveExpire, p.State) || s.now().Before(p.HoldUntil) {
			return err
		}
		if err := s.Store.SetState(ctx, p.ID, Expired); err != nil {
			return err
		}
		if _, err := s.Tournaments.ReleaseUnpaid(ctx, p.TournamentID, p.UserID); err != nil {
			return err
		}
		session = p.Session
		return s.Audit.RecordAbout(ctx, core.System, ActionExpired, p.TournamentID, core.AuditSubject{UserID: p.UserID},
			map[string]any{"user_id": p.UserID, "payment": p.ID, "hold_until": p.HoldUntil})
	})
	if err == nil && session != "" {
		s.expireSession(ctx, session)
	}
	return err
}
