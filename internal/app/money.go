package app

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/core"
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

func moneyOf(cfg config.Config, db *postgres.DB, tour *tournament.Service, audit core.AuditLog, log *slog.Logger) money {
	var m money
	m.prizes = &prizes.Service{Store: postgres.Prizes{DB: db}, Tournaments: tour, Audit: audit, Tx: db, Log: log}
	m.payments = &payments.Service{Store: postgres.Payments{DB: db}, Tournaments: tour, Pools: postgres.Prizes{DB: db},
		Ledger: m.prizes, Audit: audit, Tx: db, Hold: cfg.EntryFeeHold, PublicURL: cfg.PublicURL, Log: log}
	if cfg.StripeSecretKey != "" && cfg.StripeWebhookSecret != "" {
		m.stripe = stripepay.New(cfg.StripeSecretKey, cfg.StripeWebhookSecret, cfg.StripeAPIURL, &http.Client{Timeout: 20 * time.Second})
		m.payments.Processor = m.stripe
		m.prizes.PaymentsOn = true
	}
	return m
}
