package app

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/payments"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/prizes"
	"github.com/pitlane/pitlane/internal/stripepay"
	"github.com/pitlane/pitlane/internal/tournament"
)

// money is the money side of the seasons: prize pools and their ledger,
// and entry fees through Stripe when its keys are set.
type money struct {
	prizes   *prizes.Service
	payments *payments.Service
	stripe   *stripepay.Client // nil: payments off
}

func moneyOf(cfg config.Config, db *postgres.DB, tour *tournament.Service, mat *matches.Service, audit core.AuditLog, log *slog.Logger) money {
	var m money
	m.prizes = &prizes.Service{Store: postgres.Prizes{DB: db}, Tournaments: tour, Audit: audit, Tx: db, Log: log,
		PayoutStore: postgres.Prizes{DB: db}, Results: results{tour: tour, mat: mat}}
	m.payments = &payments.Service{Store: postgres.Payments{DB: db}, Tournaments: tour, Pools: postgres.Prizes{DB: db},
		Ledger: m.prizes, Audit: audit, Tx: db, Hold: cfg.EntryFeeHold, PublicURL: cfg.PublicURL, Log: log}
	if cfg.StripeSecretKey != "" && cfg.StripeWebhookSecret != "" {
		m.stripe = stripepay.New(cfg.StripeSecretKey, cfg.StripeWebhookSecret, cfg.StripeAPIURL, &http.Client{Timeout: 20 * time.Second})
		m.payments.Processor = m.stripe
		m.prizes.PaymentsOn = true
	}
	return m
}

// results reads a completed season's final places for its payouts: the
// champion first, then the Points Table's order; and its top killer.
type results struct {
	tour *tournament.Service
	mat  *matches.Service
}

func (r results) FinalOrder(ctx context.Context, name string) ([]prizes.Placed, int64, error) {
	b, err := r.mat.Bracket(ctx, core.System, name)
	if err != nil {
		return nil, 0, err
	}
	tab, err := r.mat.Standings(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	_, teams, err := r.tour.Teams(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	byLetter := map[string]prizes.Placed{}
	for _, t := range teams {
		p := prizes.Placed{Team: t.Name}
		if t.Captain != nil {
			p.Captain = t.Captain.ID
			p.Members = append(p.Members, t.Captain.ID)
		}
		for _, pl := range t.Players {
			if pl.ID != p.Captain {
				p.Members = append(p.Members, pl.ID)
			}
		}
		byLetter[t.Letter] = p
	}
	var order []prizes.Placed
	champion := ""
	if b.Champion != nil {
		champion = b.Champion.ID
		order = append(order, byLetter[champion])
	}
	for _, row := range tab.Rows {
		if row.TeamRef.ID != champion {
			order = append(order, byLetter[row.TeamRef.ID])
		}
	}
	rc, err := r.mat.RedCapOf(ctx, name)
	if err != nil || len(rc.Rows) == 0 {
		return order, 0, err
	}
	return order, rc.Rows[0].UserID, nil
}
