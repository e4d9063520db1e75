package app

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/hub"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/tournament"
)

// noJobs schedules nothing: here no river job may close the lot.
type noJobs struct{}

func (noJobs) Schedule(context.Context, core.Job, time.Time) error   { return nil }
func (noJobs) Unschedule(context.Context, string, string, any) error { return nil }

// A lot whose countdown was armed on another instance, which then died
// with its timer, is closed at its deadline by an instance that only heard
// of it on the hub, with no job to do it.
func TestAnotherInstanceClosesALotAtItsDeadline(t *testing.T) {
	db := pgtest.Fresh(t)
	ctx := context.Background()
	if _, err := demo.Load(ctx, db, demo.Options{Players: 40, Captains: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, db, "PPL7", tournament.StatusAuction); err != nil {
		t.Fatal(err)
	}
	h, err := hub.New(hub.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Shutdown(context.Background()) })
	relay := &postgres.Relay{DB: db, Sink: h}
	relay.Start(ctx)
	t.Cleanup(relay.Stop)
	outbox, audit := postgres.Outbox{DB: db}, postgres.Audit{DB: db}
	tour := &tournament.Service{Store: postgres.Tournaments{DB: db}, Tx: db, Events: outbox, Audit: audit, Default: "PPL7"}
	service := func() *auction.Service {
		return &auction.Service{Store: postgres.Auction{DB: db}, Tournaments: tour, Cards: tour, Tx: db, Events: outbox,
			Audit: audit, Jobs: noJobs{}, LotTime: time.Second, LateBid: time.Second}
	}
	// This instance hears of lots on the hub.
	listener := &countdowns{feed: h, tournaments: tour, auction: service(), log: slog.New(slog.DiscardHandler)}
	listener.start(ctx)
	t.Cleanup(listener.close)

	// The other instance opens the lot, then dies with its timer.
	gone := service()
	v, err := gone.State(ctx, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	lot, err := gone.OpenLot(ctx, core.System, "PPL7", v.Pool[0].UserID, 0)
	if err != nil {
		t.Fatal(err)
	}
	gone.Stop()

	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := gone.State(ctx, "PPL7")
		if err != nil {
			t.Fatal(err)
		}
		if v.Lot == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lot %d still open 30 s after its deadline %v", lot.ID, lot.EndsAt)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
