// Package league wires the league's services (tournaments, the auction,
// the matches) over PostgreSQL, one way for every program that runs them:
// `pitlane serve` (internal/app) and the demo league (internal/demo).
package league

import (
	"log/slog"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// League is the league's services, wired to one another.
type League struct {
	Tournaments *tournament.Service
	Auction     *auction.Service
	Matches     *matches.Service
	Outbox      postgres.Outbox
	Audit       postgres.Audit
}

// Options are what differ between the programs: the scheduler (river in
// serve), the default tournament, the auction's clock.
type Options struct {
	Default          string
	Jobs             core.Scheduler
	Log              *slog.Logger
	LotTime, LateBid time.Duration
}

// New wires the services over db: every change commits with its audit entry
// and its events in the outbox (with the notifications they may bring,
// internal/notify); completing a season gives its awards.
func New(db *postgres.DB, o Options) *League {
	l := &League{Outbox: postgres.Outbox{DB: db}, Audit: postgres.Audit{DB: db}}
	events := notify.Outbox{Outbox: l.Outbox, Jobs: o.Jobs}
	l.Tournaments = &tournament.Service{Store: postgres.Tournaments{DB: db}, Tx: db, Events: events, Audit: l.Audit,
		Jobs: o.Jobs, Default: o.Default, Images: postgres.Images{DB: db}, Staff: postgres.Tournaments{DB: db}}
	l.Auction = &auction.Service{Store: postgres.Auction{DB: db}, Tournaments: l.Tournaments, Cards: l.Tournaments, Tx: db,
		Events: events, Audit: l.Audit, Jobs: o.Jobs, Log: o.Log, LotTime: o.LotTime, LateBid: o.LateBid}
	l.Matches = &matches.Service{Store: postgres.Matches{DB: db}, Images: postgres.Matches{DB: db}, Tournaments: l.Tournaments,
		Tx: db, Events: events, Audit: l.Audit, Jobs: o.Jobs}
	l.Tournaments.OnComplete = l.Matches.Award
	l.Tournaments.OnAuction = l.Auction.StartTurns
	l.Tournaments.OnWithdraw = l.Auction.WithdrawFromTeam
	return l
}
