package prizes

import (
	"fmt"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

// The kinds of ledger entry: money in (funding) and money out (a refund of
// a fee or contribution, a payout to a winner, a processor's fee).
const (
	KindFunding = "funding"
	KindRefund  = "refund"
	KindPayout  = "payout"
	KindFee     = "fee"
)

// Where funding comes from.
const (
	SourceOrganiser    = "organiser"
	SourceSponsor      = "sponsor"
	SourceEntryFee     = "entry_fee"
	SourceContribution = "contribution"
)

// Sources lists the funding sources in the order the Prizes tab shows them.
var Sources = []string{SourceOrganiser, SourceSponsor, SourceEntryFee, SourceContribution}

// refundable are the sources whose money goes back to whoever paid it.
var refundable = map[string]bool{SourceEntryFee: true, SourceContribution: true}

// Entry is one movement of a season's money. Amount is always positive; its
// Kind says which way it goes. Balance is what the pool holds after it,
// written with the entry so the stored ledger can be checked against its
// own sums. UserID (the payer or payee) is never shown publicly.
type Entry struct {
	ID       int64     `json:"id"`
	Kind     string    `json:"kind"`
	Source   string    `json:"source,omitempty"` // funding and refunds: where the money came from
	Amount   int64     `json:"amount"`
	Balance  int64     `json:"balance"`
	Currency Currency  `json:"currency"`
	UserID   int64     `json:"-"`
	Ref      string    `json:"-"` // Stripe's payment intent or refund id, a payout's id
	Note     string    `json:"note,omitempty"`
	At       time.Time `json:"at"`
}

// signed is the entry's effect on the balance.
func (e Entry) signed() int64 {
	if e.Kind == KindFunding {
		return e.Amount
	}
	return -e.Amount
}

// Totals are the ledger's sums: what each source put in and had refunded,
// what was paid out and lost to fees, and the balance, which always equals
// funded − refunded − paid out − fees.
type Totals struct {
	Funded   map[string]int64 `json:"funded"`
	Refunded map[string]int64 `json:"refunded"`
	PaidOut  int64            `json:"paid_out"`
	Fees     int64            `json:"fees"`
	Balance  int64            `json:"balance"`
}

// NetFunding is what the sources put in less what went back to them.
func (t Totals) NetFunding() int64 {
	var n int64
	for _, s := range Sources {
		n += t.Funded[s] - t.Refunded[s]
	}
	return n
}

// Ledger is a season's entries in order, in one currency.
type Ledger struct {
	Currency Currency
	Entries  []Entry
	totals   Totals
}

// NewLedger checks entries read from the store (Check) and returns their
// ledger, ready to take more.
func NewLedger(c Currency, entries []Entry) (*Ledger, error) {
	l := &Ledger{Currency: c, totals: emptyTotals()}
	for _, e := range entries {
		want := e.Balance
		if err := l.Append(&e); err != nil {
			return nil, fmt.Errorf("prizes: ledger entry %d breaks the ledger: %w", e.ID, err)
		}
		if e.Balance != want {
			return nil, fmt.Errorf("prizes: ledger entry %d says the balance is %d, its sums say %d", e.ID, want, e.Balance)
		}
	}
	return l, nil
}

func emptyTotals() Totals {
	return Totals{Funded: map[string]int64{}, Refunded: map[string]int64{}}
}

// Totals returns the ledger's sums (a copy).
func (l *Ledger) Totals() Totals {
	t := l.totals
	t.Funded, t.Refunded = map[string]int64{}, map[string]int64{}
	for _, s := range Sources {
		t.Funded[s], t.Refunded[s] = l.totals.Funded[s], l.totals.Refunded[s]
	}
	return t
}

// Messages of the ledger's rules.
const (
	MsgOverdrawn     = "The pool holds %s: it cannot pay out %s."
	MsgOverRefunded  = "Only %s came from %s: %s cannot be refunded."
	MsgWrongCurrency = "This pool is in %s, not %s."
	MsgUnknownKind   = "%q is not a kind of ledger entry."
	MsgUnknownSource = "%q is not a source of funding (organiser, sponsor, entry_fee or contribution)."
	MsgNotRefundable = "Only entry fees and contributions are refunded."
	MsgSourceless    = "Payouts and fees come from the pool, not from a source."
)

// Append checks e against the ledger's rules, sets its Balance and
// Currency, and adds it: nothing goes out that the pool does not hold, and
// no source gets back more than it put in.
func (l *Ledger) Append(e *Entry) error {
	if e.Currency == "" {
		e.Currency = l.Currency
	}
	if e.Currency != l.Currency {
		return errs.E(errs.Conflict, MsgWrongCurrency, l.Currency, e.Currency)
	}
	if err := checkAmount("An amount", e.Amount, false); err != nil {
		return err
	}
	t := &l.totals
	m := func(v int64) string { return Money{v, l.Currency}.String() }
	switch e.Kind {
	case KindFunding:
		if !validSource(e.Source) {
			return errs.E(errs.Invalid, MsgUnknownSource, errs.Echo(e.Source))
		}
		if t.Balance+e.Amount > MaxAmount || t.Funded[e.Source]+e.Amount > MaxAmount {
			return errs.E(errs.Invalid, "That sum is beyond what a pool may hold.")
		}
	case KindRefund:
		if !refundable[e.Source] {
			return errs.E(errs.Invalid, MsgNotRefundable)
		}
		if left := t.Funded[e.Source] - t.Refunded[e.Source]; e.Amount > left {
			return errs.E(errs.Conflict, MsgOverRefunded, m(left), e.Source, m(e.Amount))
		}
	case KindPayout, KindFee:
		if e.Source != "" {
			return errs.E(errs.Invalid, MsgSourceless)
		}
	default:
		return errs.E(errs.Invalid, MsgUnknownKind, errs.Echo(e.Kind))
	}
	if e.Kind != KindFunding && e.Amount > t.Balance {
		return errs.E(errs.Conflict, MsgOverdrawn, m(t.Balance), m(e.Amount))
	}
	switch e.Kind {
	case KindFunding:
		t.Funded[e.Source] += e.Amount
	case KindRefund:
		t.Refunded[e.Source] += e.Amount
	case KindPayout:
		t.PaidOut += e.Amount
	case KindFee:
		t.Fees += e.Amount
	}
	t.Balance += e.signed()
	e.Balance = t.Balance
	l.Entries = append(l.Entries, *e)
	return nil
}

func validSource(s string) bool {
	for _, v := range Sources {
		if v == s {
			return true
		}
	}
	return false
}
