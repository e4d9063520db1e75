package payments

import (
	"context"
	"strconv"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/prizes"
)

// Handle applies a verified event once: its id is recorded in the
// transaction of its effect, so a redelivery changes nothing. An event
// about a payment we do not know, or that arrives after a later one (a
// completed checkout after its refund), changes nothing either: each move
// is made only from the states it is allowed from. A checkout completed
// after its hold ran out is refunded at once.
func (s *Service) Handle(ctx context.Context, ev Event) error {
	var refund *Payment
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		refund = nil
		fresh, err := s.Store.SeeEvent(ctx, ev.ID, ev.Type)
		if err != nil || !fresh {
			return err
		}
		var p Payment
		switch ev.Type {
		case EventCheckoutCompleted:
			p, err = s.Store.PaymentBySession(ctx, ev.Session)
		case EventChargeRefunded:
			p, err = s.Store.PaymentByIntent(ctx, ev.PaymentIntent)
		default:
			return nil
		}
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		if err != nil {
			return err
		}
		if p, err = s.Store.LockPayment(ctx, p.ID); err != nil {
			return err
		}
		switch {
		case ev.Type == EventCheckoutCompleted && may(movePay, p.State):
			return s.paid(ctx, p, ev.PaymentIntent)
		case ev.Type == EventCheckoutCompleted && may(moveLatePay, p.State):
			if err := s.Store.SetPaid(ctx, p.ID, ev.PaymentIntent); err != nil {
				return err
			}
			if err := s.Store.SetState(ctx, p.ID, RefundDue); err != nil {
				return err
			}
			if err := s.fund(ctx, p); err != nil {
				return err
			}
			p.PaymentIntent = ev.PaymentIntent
			refund = &p
		case ev.Type == EventChargeRefunded && p.State == Paid:
			// Refunded from Stripe's dashboard: the ledger follows.
			return s.refunded(ctx, core.System, p, "")
		}
		return nil
	})
	if err == nil && refund != nil {
		err = s.refund(ctx, core.System, *refund)
	}
	return err
}

// paid confirms a pending payment: the fee, as we recorded it when it was
// asked, goes into the season's ledger.
func (s *Service) paid(ctx context.Context, p Payment, intent string) error {
	if err := s.Store.SetPaid(ctx, p.ID, intent); err != nil {
		return err
	}
	if err := s.fund(ctx, p); err != nil {
		return err
	}
	t, err := s.Tournaments.FindByID(ctx, p.TournamentID)
	if err != nil {
		return err
	}
	return s.Audit.RecordAbout(ctx, core.System, ActionPaid, t.ID, core.AuditSubject{UserID: p.UserID},
		map[string]any{"user_id": p.UserID, "payment": p.ID, "amount": p.Amount, "currency": p.Currency})
}

func (s *Service) fund(ctx context.Context, p Payment) error {
	return s.Ledger.Record(ctx, 0, p.TournamentID, &prizes.Entry{Kind: prizes.KindFunding, Source: prizes.SourceEntryFee,
		Amount: p.Amount, Currency: p.Currency, UserID: p.UserID, Ref: p.PaymentIntent})
}

// refunded writes a refund made: its state, its ledger entry, its audit.
func (s *Service) refunded(ctx context.Context, a core.Actor, p Payment, refundID string) error {
	if err := s.Store.SetRefunded(ctx, p.ID, refundID); err != nil {
		return err
	}
	if err := s.Ledger.Record(ctx, a.UserID, p.TournamentID, &prizes.Entry{Kind: prizes.KindRefund, Source: prizes.SourceEntryFee,
		Amount: p.Amount, Currency: p.Currency, UserID: p.UserID, Ref: refundID}); err != nil {
		return err
	}
	return s.Audit.RecordAbout(ctx, a, ActionRefunded, p.TournamentID, core.AuditSubject{UserID: p.UserID},
		map[string]any{"user_id": p.UserID, "payment": p.ID, "amount": p.Amount, "currency": p.Currency, "refund": refundID})
}

// refund asks the processor to refund a payment due one (the idempotency
// key makes a retry safe) and records it. A failure leaves it due: the
// scheduled sweep tries again.
func (s *Service) refund(ctx context.Context, a core.Actor, p Payment) error {
	id, err := s.Processor.Refund(ctx, p.PaymentIntent, p.Amount, "pitlane-refund-"+strconv.FormatInt(p.ID, 10))
	if err != nil {
		return errs.Wrap(errs.E(errs.Upstream, "The refund could not be made now; it will be tried again."), err)
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		p, err := s.Store.LockPayment(ctx, p.ID)
		if err != nil || p.State != RefundDue {
			return err
		}
		return s.refunded(ctx, a, p, id)
	})
}

// Unregister takes the signed-in player off the season's list (while it
// registers: before its deadline); a paid entry fee is refunded, an unpaid
// one is no longer asked.
func (s *Service) Unregister(ctx context.Context, a core.Actor, name string) error {
	var due *Payment
	var session string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		due, session = nil, ""
		if err := s.Tournaments.Unregister(ctx, a, name); err != nil {
			return err
		}
		if !s.On() {
			return nil
		}
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		p, err := s.Store.LivePayment(ctx, t.ID, a.UserID)
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case may(moveCancel, p.State):
			session = p.Session
			return s.Store.SetState(ctx, p.ID, Expired)
		case may(moveRefundDue, p.State):
			due = &p
			return s.Store.SetState(ctx, p.ID, RefundDue)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if session != "" {
		s.expireSession(ctx, session)
	}
	if due != nil {
		p := *due
		p.State = RefundDue
		if err := s.refund(ctx, a, p); err != nil && s.Log != nil {
			// The withdrawal stands; the sweep refunds it.
			s.Log.Warn("refund deferred", "payment", p.ID, "err", err)
		}
	}
	return nil
}

func (s *Service) expireSession(ctx context.Context, id string) {
	if err := s.Processor.Expire(ctx, id); err != nil && s.Log != nil {
		s.Log.Warn("closing a checkout page", "session", id, "err", err)
	}
}
