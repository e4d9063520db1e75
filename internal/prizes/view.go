package prizes

import (
	"context"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Line is one prize of the split or an award, with its payout's state once
// the season is completed.
type Line struct {
	Place  int    `json:"place,omitempty"` // split: 1 for the winner
	Label  string `json:"label"`           // "1st", or the award's name
	Amount int64  `json:"amount"`
}

// PublicPayout is one payout as anyone may see it: what it is for, the team
// or side it went to, how much and how far it has gone; never who the
// player is nor how they were paid.
type PublicPayout struct {
	Label  string `json:"label"`
	Team   string `json:"team,omitempty"`
	Amount int64  `json:"amount"`
	State  string `json:"state"`
}

// Funding is the pool's money against it: by source (net of refunds), in
// total, and what is still unfunded.
type Funding struct {
	Sources  map[string]int64 `json:"sources"`
	Total    int64            `json:"total"`
	Unfunded int64            `json:"unfunded"`
}

// View is a season's prizes as the public Prizes tab shows them.
type View struct {
	Tournament string         `json:"tournament"`
	Currency   Currency       `json:"currency"`
	Exponent   int            `json:"exponent"` // digits of the minor unit: amounts / 10^exponent
	Pool       int64          `json:"pool"`
	Split      []Line         `json:"split"`
	Awards     []Line         `json:"awards"`
	TeamShare  string         `json:"team_share"`
	EntryFee   int64          `json:"entry_fee"`
	Payments   bool           `json:"payments"` // entry fees are taken (Stripe is configured and the season asks one)
	Funding    Funding        `json:"funding"`
	Ledger     Totals         `json:"ledger"`
	Payouts    []PublicPayout `json:"payouts"`
}

// Get is the named season's public prizes; NotFound when it has no pool.
func (s *Service) Get(ctx context.Context, name string) (View, error) {
	var v View
	err := s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		v, err = s.view(ctx, t)
		return err
	})
	return v, err
}

func (s *Service) view(ctx context.Context, t tournament.Tournament) (View, error) {
	p, err := s.Store.FindPool(ctx, t.ID)
	if errs.KindOf(err) == errs.NotFound {
		return View{}, errs.E(errs.NotFound, MsgNoPool, t.Name)
	}
	if err != nil {
		return View{}, err
	}
	l, err := s.ledger(ctx, p)
	if err != nil {
		return View{}, err
	}
	tot := l.Totals()
	v := View{Tournament: t.Name, Currency: p.Currency, Exponent: p.Currency.Exponent(), Pool: p.Total(),
		Split: []Line{}, Awards: []Line{}, TeamShare: p.TeamShare, EntryFee: p.EntryFee,
		Payments: s.PaymentsOn && p.EntryFee > 0, Ledger: tot, Payouts: []PublicPayout{}}
	for i, a := range p.Split {
		v.Split = append(v.Split, Line{Place: i + 1, Label: placeName(i + 1), Amount: a})
	}
	for _, a := range p.Awards {
		v.Awards = append(v.Awards, Line{Label: a.Name, Amount: a.Amount})
	}
	v.Funding = Funding{Sources: map[string]int64{}, Total: tot.NetFunding()}
	for _, src := range Sources {
		v.Funding.Sources[src] = tot.Funded[src] - tot.Refunded[src]
	}
	v.Funding.Unfunded = max(0, v.Pool-v.Funding.Total)
	if s.PayoutStore != nil {
		list, err := s.PayoutStore.Payouts(ctx, t.ID, 0, MaxPayoutPage)
		if err != nil {
			return View{}, err
		}
		for _, p := range list {
			v.Payouts = append(v.Payouts, PublicPayout{Label: p.Label, Team: p.Team, Amount: p.Amount, State: p.State})
		}
	}
	return v, nil
}
