package prizes

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// States of a payout.
const (
	PayoutPending  = "pending"  // owed
	PayoutPaid     = "paid"     // the organiser recorded paying it
	PayoutReceived = "received" // the winner confirmed it
)

// Audited payout actions.
const (
	ActionPayoutsMade    = "payouts.made"
	ActionPayoutPaid     = "payout.paid"
	ActionPayoutReceived = "payout.received"
)

// The moves of a payout and the states each is made from: written once.
var payoutFrom = map[string]string{PayoutPaid: PayoutPending, PayoutReceived: PayoutPaid}

// Placed is a team at its final place: its name and members, captain first.
type Placed struct {
	Team    string
	Captain int64
	Members []int64 // the captain and the players
}

// Payout is one winner's prize (or a prize nobody was placed for yet:
// UserID 0).
type Payout struct {
	ID        int64      `json:"id"`
	Label     string     `json:"label"`
	Place     int        `json:"place,omitempty"`
	Team      string     `json:"team,omitempty"`
	UserID    int64      `json:"user_id,omitempty"`
	Name      string     `json:"name,omitempty"`
	Amount    int64      `json:"amount"`
	Currency  Currency   `json:"currency"`
	State     string     `json:"state"`
	Method    string     `json:"method,omitempty"`
	Reference string     `json:"reference,omitempty"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	Received  *time.Time `json:"received_at,omitempty"`
}

// Allocate turns the pool into payouts: place i's prize to the team placed
// i (to its captain, or evenly to its members, the first members taking
// the odd cents so the shares add up exactly), the Red Cap award to the
// top killer, and any prize nobody is placed for to nobody yet. The
// payouts always add up to the pool.
func Allocate(p Pool, placed []Placed, redCap int64) []Payout {
	var out []Payout
	add := func(label string, place int, team string, user, amount int64) {
		if amount > 0 {
			out = append(out, Payout{Label: label, Place: place, Team: team, UserID: user, Amount: amount, Currency: p.Currency, State: PayoutPending})
		}
	}
	for i, amount := range p.Split {
		label := placeName(i + 1)
		if i >= len(placed) || len(placed[i].Members) == 0 {
			add(label, i+1, "", 0, amount)
			continue
		}
		t := placed[i]
		if p.TeamShare == ShareCaptain && t.Captain != 0 {
			add(label, i+1, t.Team, t.Captain, amount)
			continue
		}
		n := int64(len(t.Members))
		for j, u := range t.Members {
			share := amount / n
			if int64(j) < amount%n {
				share++
			}
			add(label, i+1, t.Team, u, share)
		}
	}
	for _, a := range p.Awards {
		user := int64(0)
		if strings.EqualFold(a.Name, "Red Cap") {
			user = redCap
		}
		add(a.Name, 0, "", user, a.Amount)
	}
	return out
}

// Results are a completed season's final places and its top killer.
type Results interface {
	FinalOrder(ctx context.Context, name string) ([]Placed, int64, error)
}

// PayoutStore keeps payouts (postgres.Prizes).
type PayoutStore interface {
	// CreatePayouts writes a season's payouts unless it has some, and
	// says whether it wrote them.
	CreatePayouts(ctx context.Context, tournamentID int64, list []Payout) (bool, error)
	// Payouts lists a season's payouts after the id after, up to limit.
	Payouts(ctx context.Context, tournamentID, after int64, limit int) ([]Payout, error)
	LockPayout(ctx context.Context, id int64) (Payout, int64, error) // the payout and its tournament
	SetPayoutPaid(ctx context.Context, id int64, method, reference string) error
	SetPayoutReceived(ctx context.Context, id int64) error
}

// Limits of the payouts' calls.
const (
	PayoutPage      = 100
	MaxPayoutPage   = 500
	MaxMethodLen    = 40
	MaxReferenceLen = 120
)

// PayoutsPage is one page of a season's payouts; Next is the cursor of the
// next (nil at the end).
type PayoutsPage struct {
	Payouts []Payout `json:"payouts"`
	Next    *int64   `json:"next"`
}

// ListPayouts is a completed season's payouts, for its organisers; the
// first read after the season completed makes them from its results.
func (s *Service) ListPayouts(ctx context.Context, a core.Actor, name string, after int64, limit int) (PayoutsPage, error) {
	if limit <= 0 {
		limit = PayoutPage
	}
	limit = min(limit, MaxPayoutPage)
	var page PayoutsPage
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return err
		}
		if t.Status != tournament.StatusCompleted {
			return errs.E(errs.Conflict, "%s is not completed: its prizes become payouts when it is.", t.Name)
		}
		if err := s.makePayouts(ctx, a, t); err != nil {
			return err
		}
		list, err := s.PayoutStore.Payouts(ctx, t.ID, after, limit+1)
		if err != nil {
			return err
		}
		if len(list) > limit {
			list = list[:limit]
			next := list[limit-1].ID
			page.Next = &next
		}
		page.Payouts = list
		return nil
	})
	if page.Payouts == nil {
		page.Payouts = []Payout{}
	}
	return page, err
}

func (s *Service) makePayouts(ctx context.Context, a core.Actor, t tournament.Tournament) error {
	p, err := s.Store.LockPool(ctx, t.ID)
	if errs.KindOf(err) == errs.NotFound {
		return errs.E(errs.NotFound, MsgNoPool, t.Name)
	}
	if err != nil {
		return err
	}
	placed, redCap, err := s.Results.FinalOrder(ctx, t.Name)
	if err != nil {
		return err
	}
	list := Allocate(p, placed, redCap)
	made, err := s.PayoutStore.CreatePayouts(ctx, t.ID, list)
	if err != nil || !made {
		return err
	}
	return s.Audit.Record(ctx, a, ActionPayoutsMade, t.ID, t.Name, map[string]any{"payouts": len(list), "pool": p.Total()})
}

// PaidInput is how an organiser paid a payout.
type PaidInput struct {
	Method    string `json:"method"`
	Reference string `json:"reference"`
}

// MarkPaid records that an organiser paid a payout: its amount leaves the
// pool as a ledger entry (refused when the pool does not hold it), audited.
func (s *Service) MarkPaid(ctx context.Context, a core.Actor, id int64, in PaidInput) (Payout, error) {
	in.Method, in.Reference = strings.TrimSpace(in.Method), strings.TrimSpace(in.Reference)
	if in.Method == "" || utf8.RuneCountInString(in.Method) > MaxMethodLen || utf8.RuneCountInString(in.Reference) > MaxReferenceLen {
		return Payout{}, errs.E(errs.Invalid, "Say how it was paid (a method of 1 to %d characters) and its reference (at most %d).", MaxMethodLen, MaxReferenceLen)
	}
	who := func(_ Payout, tournamentID int64) error { return a.MustOrganise(tournamentID) }
	return s.movePayout(ctx, a, id, PayoutPaid, who, func(ctx context.Context, p Payout, tournamentID int64) error {
		e := Entry{Kind: KindPayout, Amount: p.Amount, Currency: p.Currency, UserID: p.UserID, Ref: "payout:" + strconv.FormatInt(p.ID, 10)}
		if err := s.Record(ctx, a.UserID, tournamentID, &e); err != nil {
			return err
		}
		if err := s.PayoutStore.SetPayoutPaid(ctx, p.ID, in.Method, in.Reference); err != nil {
			return err
		}
		return s.Audit.RecordAbout(ctx, a, ActionPayoutPaid, tournamentID, core.AuditSubject{UserID: p.UserID},
			map[string]any{"payout": p.ID, "user_id": p.UserID, "amount": p.Amount, "currency": p.Currency, "method": in.Method, "entry": e.ID})
	})
}

// MarkReceived records that the winner got a paid payout: theirs only, audited.
func (s *Service) MarkReceived(ctx context.Context, a core.Actor, id int64) (Payout, error) {
	if err := a.MustBeUser(); err != nil {
		return Payout{}, err
	}
	who := func(p Payout, _ int64) error {
		if p.UserID != a.UserID {
			return errs.E(errs.NotFound, "No such payout")
		}
		return nil
	}
	return s.movePayout(ctx, a, id, PayoutReceived, who, func(ctx context.Context, p Payout, tournamentID int64) error {
		if err := s.PayoutStore.SetPayoutReceived(ctx, p.ID); err != nil {
			return err
		}
		return s.Audit.RecordAbout(ctx, a, ActionPayoutReceived, tournamentID, core.AuditSubject{UserID: p.UserID},
			map[string]any{"payout": p.ID, "user_id": p.UserID, "amount": p.Amount, "currency": p.Currency})
	})
}

// movePayout moves payout id to state to: who says whether the actor may,
// then the move is made from the one state it is allowed from.
func (s *Service) movePayout(ctx context.Context, a core.Actor, id int64, to string,
	who func(p Payout, tournamentID int64) error, fn func(ctx context.Context, p Payout, tournamentID int64) error) (Payout, error) {
	if err := a.MustSignIn(); err != nil {
		return Payout{}, err
	}
	var out Payout
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		p, tid, err := s.PayoutStore.LockPayout(ctx, id)
		if err != nil {
			return err
		}
		if err := who(p, tid); err != nil {
			return err
		}
		if p.State != payoutFrom[to] {
			return errs.E(errs.Conflict, "That payout is %s.", p.State)
		}
		if err := fn(ctx, p, tid); err != nil {
			return err
		}
		out, _, err = s.PayoutStore.LockPayout(ctx, id)
		return err
	})
	return out, err
}
