// Package prizes holds a season's money: its prize pool (a split by final
// placement plus named awards, in one ISO 4217 currency, in integer minor
// units), where the money comes from (the organiser, sponsors' pledges,
// entry fees, contributions) and what is still unfunded, and the one ledger
// every movement is written to, whose sums are checked whenever it is read
// or written.
package prizes

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Limits of a pool.
const (
	MaxPlaces   = 64
	MaxAwards   = 16
	MaxAwardLen = 40
	MaxNoteLen  = 200
)

// How a team's share is paid: to its players evenly, or all to the captain.
const (
	ShareEven    = "even"
	ShareCaptain = "captain"
)

// Audited actions.
const (
	ActionSet  = "prizes.set"
	ActionFund = "prizes.fund"
)

// Award is a named prize beside the placements (Red Cap, MVP).
type Award struct {
	Name   string `json:"name"`
	Amount int64  `json:"amount"`
}

// Pool is a season's prize pool as its organiser set it: Split[i] is the
// prize of place i+1. EntryFee (0: none) is what registering costs.
type Pool struct {
	TournamentID int64     `json:"-"`
	Currency     Currency  `json:"currency"`
	Split        []int64   `json:"split"`
	Awards       []Award   `json:"awards"`
	EntryFee     int64     `json:"entry_fee"`
	TeamShare    string    `json:"team_share"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// Total is the pool: the split plus the awards.
func (p Pool) Total() int64 {
	var t int64
	for _, v := range p.Split {
		t += v
	}
	for _, a := range p.Awards {
		t += a.Amount
	}
	return t
}

// Input is what an organiser sets.
type Input struct {
	Currency  string  `json:"currency"`
	Split     []int64 `json:"split"`
	Awards    []Award `json:"awards"`
	EntryFee  int64   `json:"entry_fee"`
	TeamShare string  `json:"team_share"`
}

// Validate checks in and returns the pool it sets.
func (in Input) Validate() (Pool, error) {
	c, err := ParseCurrency(in.Currency)
	if err != nil {
		return Pool{}, err
	}
	p := Pool{Currency: c, Split: in.Split, Awards: in.Awards, EntryFee: in.EntryFee, TeamShare: in.TeamShare}
	if p.TeamShare == "" {
		p.TeamShare = ShareEven
	}
	if p.TeamShare != ShareEven && p.TeamShare != ShareCaptain {
		return Pool{}, errs.E(errs.Invalid, "team_share is even (a team's prize split among its players) or captain (all to the captain).")
	}
	if len(p.Split) > MaxPlaces {
		return Pool{}, errs.E(errs.Invalid, "A split pays at most %d places.", MaxPlaces)
	}
	if len(p.Awards) > MaxAwards {
		return Pool{}, errs.E(errs.Invalid, "A pool has at most %d awards.", MaxAwards)
	}
	if p.Split == nil {
		p.Split = []int64{}
	}
	if p.Awards == nil {
		p.Awards = []Award{}
	}
	var total int64
	for i, v := range p.Split {
		if err := checkAmount(placeName(i+1)+" place's prize", v, false); err != nil {
			return Pool{}, err
		}
		if i > 0 && v > p.Split[i-1] {
			return Pool{}, errs.E(errs.Invalid, "A place never pays more than the one above it (%s pays more than %s).", placeName(i+1), placeName(i))
		}
		total += v
	}
	seen := map[string]bool{}
	for i := range p.Awards {
		a := &p.Awards[i]
		a.Name = strings.Join(strings.Fields(a.Name), " ")
		if a.Name == "" || utf8.RuneCountInString(a.Name) > MaxAwardLen {
			return Pool{}, errs.E(errs.Invalid, "An award has a name of 1 to %d characters.", MaxAwardLen)
		}
		if seen[strings.ToLower(a.Name)] {
			return Pool{}, errs.E(errs.Invalid, "Two awards are called %q.", errs.Echo(a.Name))
		}
		seen[strings.ToLower(a.Name)] = true
		if err := checkAmount("The "+errs.Echo(a.Name)+" award", a.Amount, false); err != nil {
			return Pool{}, err
		}
		total += a.Amount
	}
	if total > MaxAmount {
		return Pool{}, errs.E(errs.Invalid, "That pool is beyond what a pool may hold.")
	}
	if err := checkAmount("The entry fee", p.EntryFee, true); err != nil {
		return Pool{}, err
	}
	return p, nil
}

// placeName is "1st", "2nd", "3rd", "4th", … "11th", "21st".
func placeName(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// Store keeps pools and their ledgers (postgres.Prizes).
type Store interface {
	// FindPool returns the tournament's pool, NotFound when it has none.
	FindPool(ctx context.Context, tournamentID int64) (Pool, error)
	// LockPool is FindPool that holds the pool's row until the
	// transaction ends, so ledger writes follow one another.
	LockPool(ctx context.Context, tournamentID int64) (Pool, error)
	SavePool(ctx context.Context, p Pool) error
	// Entries returns the tournament's ledger in order.
	Entries(ctx context.Context, tournamentID int64) ([]Entry, error)
	// AddEntry writes e (its Balance set by the ledger) and returns its id.
	AddEntry(ctx context.Context, tournamentID, by int64, e Entry) (int64, error)
}

// Tournaments finds a tournament by name.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Service runs the money side of a season.
type Service struct {
	Store       Store
	Tournaments Tournaments
	Audit       core.AuditLog
	Tx          core.Transactor
	Log         *slog.Logger
	// PaymentsOn tells whether entry fees can be taken (Stripe's keys are set).
	PaymentsOn bool
	// PayoutStore and Results turn a completed season's pool into payouts.
	PayoutStore PayoutStore
	Results     Results
}

// MsgPoolSettled refuses a change of a pool whose payouts are made (its
// season completed and its organisers read them): they are paid as set.
const MsgPoolSettled = "%s's prizes have become payouts: they are paid as they were set."

// MsgNoPool is the answer for a season without prizes.
const MsgNoPool = "%s has no prize pool."

// Set sets the named season's pool: its organisers (and co-organisers)
// only, audited. The currency is fixed once money has moved.
func (s *Service) Set(ctx context.Context, a core.Actor, name string, in Input) (View, error) {
	if err := a.MustSignIn(); err != nil {
		return View{}, err
	}
	p, err := in.Validate()
	if err != nil {
		return View{}, err
	}
	var v View
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return err
		}
		if s.PayoutStore != nil {
			made, err := s.PayoutStore.Payouts(ctx, t.ID, 0, 1)
			if err != nil {
				return err
			}
			if len(made) > 0 {
				return errs.E(errs.Conflict, MsgPoolSettled, t.Name)
			}
		}
		p.TournamentID = t.ID
		if old, err := s.Store.LockPool(ctx, t.ID); err == nil && old.Currency != p.Currency {
			entries, err := s.Store.Entries(ctx, t.ID)
			if err != nil {
				return err
			}
			if len(entries) > 0 {
				return errs.E(errs.Conflict, "Money has already moved in %s: the pool stays in it.", old.Currency)
			}
		} else if err != nil && errs.KindOf(err) != errs.NotFound {
			return err
		}
		if err := s.Store.SavePool(ctx, p); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionSet, t.ID, t.Name, map[string]any{
			"currency": p.Currency, "split": p.Split, "awards": p.Awards, "entry_fee": p.EntryFee, "team_share": p.TeamShare, "pool": p.Total()}); err != nil {
			return err
		}
		v, err = s.view(ctx, t)
		return err
	})
	return v, err
}

// FundInput is money an organiser records as come in: their own, or a
// sponsor's pledge.
type FundInput struct {
	Source string `json:"source"`
	Amount int64  `json:"amount"`
	Note   string `json:"note"`
}

// Fund records funding of the named season's pool: organisers only,
// audited. Entry fees and contributions come in through payments, never by
// hand.
func (s *Service) Fund(ctx context.Context, a core.Actor, name string, in FundInput) (View, error) {
	if err := a.MustSignIn(); err != nil {
		return View{}, err
	}
	if in.Source != SourceOrganiser && in.Source != SourceSponsor {
		return View{}, errs.E(errs.Invalid, "Funding recorded by hand comes from the organiser or a sponsor; entry fees and contributions come through payments.")
	}
	in.Note = strings.TrimSpace(in.Note)
	if utf8.RuneCountInString(in.Note) > MaxNoteLen {
		return View{}, errs.E(errs.Invalid, "A note has at most %d characters.", MaxNoteLen)
	}
	var v View
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return err
		}
		e := Entry{Kind: KindFunding, Source: in.Source, Amount: in.Amount, Note: in.Note}
		if err := s.Record(ctx, a.UserID, t.ID, &e); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionFund, t.ID, t.Name, map[string]any{
			"source": e.Source, "amount": e.Amount, "currency": e.Currency, "entry": e.ID}); err != nil {
			return err
		}
		v, err = s.view(ctx, t)
		return err
	})
	return v, err
}

// Record writes e to the tournament's ledger under the ledger's rules,
// inside the caller's transaction (the pool's row locked, so concurrent
// writers take turns): payments, refunds and payouts all come through here.
func (s *Service) Record(ctx context.Context, by, tournamentID int64, e *Entry) error {
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		p, err := s.Store.LockPool(ctx, tournamentID)
		if err != nil {
			return err
		}
		l, err := s.ledger(ctx, p)
		if err != nil {
			return err
		}
		if err := l.Append(e); err != nil {
			return err
		}
		e.ID, err = s.Store.AddEntry(ctx, tournamentID, by, *e)
		return err
	})
}

// ledger reads and checks the pool's ledger: a stored ledger whose sums
// disagree is an internal error, logged, never shown as if it were right.
func (s *Service) ledger(ctx context.Context, p Pool) (*Ledger, error) {
	entries, err := s.Store.Entries(ctx, p.TournamentID)
	if err != nil {
		return nil, err
	}
	l, err := NewLedger(p.Currency, entries)
	if err != nil {
		if s.Log != nil {
			s.Log.Error("prize ledger disagrees with its sums", "tournament", p.TournamentID, "err", err)
		}
		return nil, err
	}
	return l, nil
}
