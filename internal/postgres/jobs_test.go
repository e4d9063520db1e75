package postgres_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/testkit"
)

// closeLot stands for the league's scheduled work (an auction lot closing
// when its countdown ends).
type closeLot struct {
	Lot int `json:"lot"`
}

func (closeLot) Kind() string { return "test.close_lot" }

// A job scheduled in a unit of work exists only if the unit commits.
func TestJobsAreScheduledWithTheirChange(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	ran := make(chan int, 4)
	j := &postgres.Jobs{DB: db}
	postgres.Work(j, func(_ context.Context, job closeLot) error { ran <- job.Lot; return nil })
	if err := j.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Stop(context.Background()) })

	_ = db.Transact(ctx, func(ctx context.Context) error {
		if err := j.Schedule(ctx, closeLot{Lot: 1}, time.Now()); err != nil {
			t.Fatal(err)
		}
		return context.Canceled // the change fails: its job goes with it
	})
	if err := db.Transact(ctx, func(ctx context.Context) error {
		return j.Schedule(ctx, closeLot{Lot: 2}, time.Now().Add(300*time.Millisecond))
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case lot := <-ran:
		if lot != 2 {
			t.Fatalf("lot %d ran; its change was rolled back", lot)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the committed job did not run")
	}
	select {
	case lot := <-ran:
		t.Fatalf("lot %d ran too", lot)
	case <-time.After(500 * time.Millisecond):
	}
}

// An instance that dies while running a job (here: cut off from the
// database mid-run, as a crashed or partitioned host is) does not lose it:
// another instance takes over and runs it, and its effect happens once.
func TestJobOfADeadInstanceRunsElsewhereOnce(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `CREATE TABLE lots_closed (lot int PRIMARY KEY, times int NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(db.Pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	proxy := testkit.NewProxy(t, u.Host)
	u.Host = proxy.Addr
	dbA, err := postgres.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}

	started := make(chan struct{}, 1)
	a := &postgres.Jobs{DB: dbA, RescueAfter: time.Second}
	postgres.Work(a, func(ctx context.Context, job closeLot) error {
		started <- struct{}{}
		<-ctx.Done() // dies before its work is done
		return ctx.Err()
	})
	b := &postgres.Jobs{DB: db, RescueAfter: time.Second}
	postgres.Work(b, func(ctx context.Context, job closeLot) error {
		_, err := db.Pool.Exec(ctx, `INSERT INTO lots_closed (lot, times) VALUES ($1, 1)
			ON CONFLICT (lot) DO UPDATE SET times = lots_closed.times + 1`, job.Lot)
		return err
	})
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Schedule(ctx, closeLot{Lot: 7}, time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(15 * time.Second):
		t.Fatal("instance A never ran the job")
	}
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Stop(context.Background()) })
	proxy.Cut() // A is gone: it cannot finish, report or keep its leadership

	deadline := time.Now().Add(90 * time.Second)
	for {
		var times int
		db.Pool.QueryRow(ctx, `SELECT coalesce((SELECT times FROM lots_closed WHERE lot = 7), 0)`).Scan(&times)
		if times == 1 {
			break
		}
		if times > 1 || time.Now().After(deadline) {
			t.Fatalf("lot 7 closed %d times, want once", times)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var state string
	var attempts int
	eventually(t, "the job recorded as completed", func() bool {
		db.Pool.QueryRow(ctx, `SELECT state, attempt FROM river_job WHERE kind = 'test.close_lot'`).Scan(&state, &attempts)
		return state == "completed"
	})
	if attempts != 2 {
		t.Fatalf("job completed after %d attempts, want 2 (A's, then B's)", attempts)
	}
	stop, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	a.Stop(stop)
	dbA.Close()
}
