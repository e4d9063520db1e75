// Package payments takes a season's entry fees: a registration that owes
// one holds its place for Hold while the player pays through a checkout
// page (Stripe Checkout, behind the Processor the domain declares); paid,
// it is confirmed; unpaid at the hold's end, its place goes to the next on
// the waitlist; withdrawn before the season starts, it is refunded. The
// processor's events are verified by the adapter, handled once per id,
// and never trusted for an amount: the payment's own record is.
package payments

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/prizes"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Hold is how long an unpaid registration keeps its place, unless the
// service is given another (ENTRY_FEE_HOLD).
const Hold = 30 * time.Minute

// States of a payment.
const (
	Pending   = "pending"    // owed, the place held until HoldUntil
	Paid      = "paid"       // Checkout completed
	RefundDue = "refund_due" // to be refunded (withdrawn, or paid after the hold ran out)
	Refunded  = "refunded"
	Expired   = "expired" // the hold ran out unpaid, or the player left before paying
)

// What a registration answer says of its payment.
const (
	AnswerNone     = "none"
	AnswerPending  = "pending"
	AnswerPaid     = "paid"
	AnswerRefunded = "refunded"
)

// The moves of a payment and the states each is made from: written once.
type move string

const (
	movePay       move = "pay"        // Checkout completed
	moveExpire    move = "expire"     // the hold ran out
	moveCancel    move = "cancel"     // the player left before paying
	moveRefundDue move = "refund due" // the player left after paying
	moveRefunded  move = "refunded"   // the processor refunded it
	moveLatePay   move = "pay late"   // paid after the hold ran out: refunded at once
	moveCheckout  move = "checkout"   // open the checkout page
)

var allowed = map[move][]string{
	movePay:       {Pending},
	moveExpire:    {Pending},
	moveCancel:    {Pending},
	moveRefundDue: {Paid},
	moveRefunded:  {Paid, RefundDue},
	moveLatePay:   {Expired},
	moveCheckout:  {Pending},
}

func may(m move, state string) bool {
	for _, s := range allowed[m] {
		if s == state {
			return true
		}
	}
	return false
}

// Audited actions.
const (
	ActionPaid     = "payment.paid"
	ActionRefunded = "payment.refunded"
	ActionExpired  = "payment.expired"
)

// Payment is one registration's entry fee.
type Payment struct {
	ID            int64
	TournamentID  int64
	UserID        int64
	State         string
	Amount        int64
	Currency      prizes.Currency
	HoldUntil     time.Time
	Session       string
	URL           string
	PaymentIntent string
}

// CheckoutRequest is what the processor's checkout page is opened for.
type CheckoutRequest struct {
	PaymentID  int64
	Tournament string
	Amount     int64
	Currency   prizes.Currency
	SuccessURL string
	CancelURL  string
}

// Processor is the payment platform (internal/stripepay).
type Processor interface {
	// Checkout opens a checkout page for the request and returns its id and URL.
	Checkout(ctx context.Context, r CheckoutRequest) (id, url string, err error)
	// Expire closes a checkout page that must not be paid any more.
	Expire(ctx context.Context, id string) error
	// Refund gives back amount of the payment intent; key makes a retry
	// refund nothing twice. It returns the refund's id.
	Refund(ctx context.Context, paymentIntent string, amount int64, key string) (string, error)
}

// Event is a processor's verified event, as the domain needs it.
type Event struct {
	ID            string
	Type          string
	Session       string // checkout.session.*: the session's id
	PaymentIntent string
}

// The events handled.
const (
	EventCheckoutCompleted = "checkout.session.completed"
	EventChargeRefunded    = "charge.refunded"
)

// Store keeps payments and the events handled (postgres.Payments).
type Store interface {
	CreatePayment(ctx context.Context, p Payment) (int64, error)
	// LivePayment is the registration's pending, paid or refund_due
	// payment, locked; NotFound when none.
	LivePayment(ctx context.Context, tournamentID, userID int64) (Payment, error)
	// LatestPayment is the registration's newest payment; NotFound when none.
	LatestPayment(ctx context.Context, tournamentID, userID int64) (Payment, error)
	PaymentBySession(ctx context.Context, session string) (Payment, error)
	PaymentByIntent(ctx context.Context, intent string) (Payment, error)
	LockPayment(ctx context.Context, id int64) (Payment, error)
	SetState(ctx context.Context, id int64, state string) error
	SetCheckout(ctx context.Context, id int64, session, url string) error
	SetPaid(ctx context.Context, id int64, intent string) error
	SetRefunded(ctx context.Context, id int64, refund string) error
	// SeeEvent records an event id and says whether it is new.
	SeeEvent(ctx context.Context, id, typ string) (bool, error)
	// HoldsDue lists the pending payments whose hold ended before now.
	HoldsDue(ctx context.Context, now time.Time, limit int) ([]Payment, error)
	// RefundsDue lists the payments waiting for their refund.
	RefundsDue(ctx context.Context, limit int) ([]Payment, error)
	// Unasked lists confirmed registrations of registering seasons with an
	// entry fee that have no live payment (promoted from the waitlist).
	Unasked(ctx context.Context, limit int) ([]Payment, error)
}

// Tournaments is the registration side.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	FindByID(ctx context.Context, id int64) (tournament.Tournament, error)
	Register(ctx context.Context, a core.Actor, name string) (tournament.Entry, error)
	Unregister(ctx context.Context, a core.Actor, name string) error
	ReleaseUnpaid(ctx context.Context, tournamentID, userID int64) (bool, error)
}

// Pools reads a season's pool (its entry fee) and writes its ledger.
type Pools interface {
	FindPool(ctx context.Context, tournamentID int64) (prizes.Pool, error)
}

// Ledger writes entries to a season's ledger (prizes.Service.Record).
type Ledger interface {
	Record(ctx context.Context, by, tournamentID int64, e *prizes.Entry) error
}

// Service takes entry fees. With no Processor (no Stripe keys) it is off:
// registrations owe nothing and nothing asks for money.
type Service struct {
	Store       Store
	Tournaments Tournaments
	Pools       Pools
	Ledger      Ledger
	Processor   Processor
	Audit       core.AuditLog
	Tx          core.Transactor
	// Jobs ends each hold at its time (HoldEnd), written with the payment.
	Jobs      core.Scheduler
	Hold      time.Duration // 0: Hold
	PublicURL string
	Log       *slog.Logger
	Now       func() time.Time
}

func (s *Service) hold() time.Duration {
	if s.Hold > 0 {
		return s.Hold
	}
	return Hold
}

// ask writes a pending payment holding its place, and the job that ends
// the hold.
func (s *Service) ask(ctx context.Context, p Payment) error {
	p.State, p.HoldUntil = Pending, s.now().Add(s.hold())
	id, err := s.Store.CreatePayment(ctx, p)
	if err != nil {
		return err
	}
	return s.Jobs.Schedule(ctx, HoldEnd{Payment: id}, p.HoldUntil)
}

// On tells whether entry fees are taken.
func (s *Service) On() bool { return s != nil && s.Processor != nil }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// fee is the season's entry fee, 0 when it asks none (or payments are off).
func (s *Service) fee(ctx context.Context, tournamentID int64) (prizes.Pool, bool, error) {
	if !s.On() {
		return prizes.Pool{}, false, nil
	}
	p, err := s.Pools.FindPool(ctx, tournamentID)
	if errs.KindOf(err) == errs.NotFound {
		return p, false, nil
	}
	return p, err == nil && p.EntryFee > 0, err
}

// Register puts the signed-in player on the season's list; a confirmed
// place in a season with an entry fee is held for Hold, pending payment.
func (s *Service) Register(ctx context.Context, a core.Actor, name string) (tournament.Entry, string, error) {
	var e tournament.Entry
	answer := AnswerNone
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if e, err = s.Tournaments.Register(ctx, a, name); err != nil {
			return err
		}
		if e.Status != tournament.Confirmed {
			return nil
		}
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		pool, owes, err := s.fee(ctx, t.ID)
		if err != nil || !owes {
			return err
		}
		if err := s.ask(ctx, Payment{TournamentID: t.ID, UserID: a.UserID, Amount: pool.EntryFee, Currency: pool.Currency}); err != nil {
			return err
		}
		answer = AnswerPending
		e.Message = fmt.Sprintf(MsgPayToKeep, prizes.Money{Minor: pool.EntryFee, Currency: pool.Currency}, t.Name, holdText(s.hold()))
		return nil
	})
	return e, answer, err
}

// holdText is a hold as a message says it: "30 minutes", "45 seconds".
func holdText(d time.Duration) string {
	if d >= time.Minute {
		return fmt.Sprintf("%d minutes", int(d.Minutes()))
	}
	return fmt.Sprintf("%d seconds", int(d.Seconds()))
}

// MsgPayToKeep tells a player their place is held until they pay.
const MsgPayToKeep = "Your place is held: pay the %s entry fee for %s within %s to keep it."

// Answer is what the registration answers say of the player's payment.
func (s *Service) Answer(ctx context.Context, a core.Actor, name string) (string, error) {
	if !s.On() || a.UserID == 0 {
		return AnswerNone, nil
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return AnswerNone, err
	}
	p, err := s.Store.LatestPayment(ctx, t.ID, a.UserID)
	if errs.KindOf(err) == errs.NotFound {
		return AnswerNone, nil
	}
	if err != nil {
		return AnswerNone, err
	}
	switch p.State {
	case Pending:
		return AnswerPending, nil
	case Paid:
		return AnswerPaid, nil
	case RefundDue, Refunded:
		return AnswerRefunded, nil
	}
	return AnswerNone, nil
}

// MsgPaymentsOff refuses a checkout when the site takes no payments.
const MsgPaymentsOff = "This site takes no payments."

// Checkout opens (or reopens) the checkout page of the signed-in player's
// pending entry fee and returns its URL.
func (s *Service) Checkout(ctx context.Context, a core.Actor, name string) (string, error) {
	if err := a.MustBeUser(); err != nil {
		return "", err
	}
	if !s.On() {
		return "", errs.E(errs.NotFound, MsgPaymentsOff)
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return "", err
	}
	var p Payment
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		p, err = s.Store.LivePayment(ctx, t.ID, a.UserID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Conflict, "You owe no entry fee for %s.", t.Name)
		}
		if err != nil {
			return err
		}
		if !may(moveCheckout, p.State) {
			return errs.E(errs.Conflict, "Your entry fee for %s is %s.", t.Name, p.State)
		}
		if !s.now().Before(p.HoldUntil) {
			return errs.E(errs.Conflict, "Your hold on a place in %s has run out.", t.Name)
		}
		return nil
	})
	if err != nil || p.URL != "" {
		return p.URL, err
	}
	base := s.PublicURL + "/tournament?season=" + t.Name + "&tab=prizes"
	id, url, err := s.Processor.Checkout(ctx, CheckoutRequest{PaymentID: p.ID, Tournament: t.Name, Amount: p.Amount,
		Currency: p.Currency, SuccessURL: base + "&paid=1", CancelURL: base})
	if err != nil {
		return "", errs.Wrap(errs.E(errs.Upstream, "The payment page could not be opened. Please try again."), err)
	}
	return url, s.Store.SetCheckout(ctx, p.ID, id, url)
}
