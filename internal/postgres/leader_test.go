package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// One instance leads at a time; when it stops, another takes over.
func TestLeaderOneAtATime(t *testing.T) {
	db := pgtest.DB(t)
	var leading, most atomic.Int32
	runs := make(chan int, 8)
	lead := func(n int) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			now := leading.Add(1)
			if now > most.Load() {
				most.Store(now)
			}
			runs <- n
			<-ctx.Done()
			leading.Add(-1)
			return nil
		}
	}
	ctx1, stop1 := context.WithCancel(context.Background())
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	done1 := make(chan struct{})
	l1 := &postgres.Leader{DB: db, Key: 9_000_001, Standby: 50 * time.Millisecond}
	l2 := &postgres.Leader{DB: db, Key: 9_000_001, Standby: 50 * time.Millisecond}
	go func() { l1.Run(ctx1, lead(1)); close(done1) }()
	first := <-runs
	go l2.Run(ctx2, lead(2))
	time.Sleep(300 * time.Millisecond) // the second stands by meanwhile
	if first != 1 || most.Load() != 1 || len(runs) != 0 {
		t.Fatalf("first %d, at most %d leading, %d more runs", first, most.Load(), len(runs))
	}
	stop1()
	<-done1
	select {
	case n := <-runs:
		if n != 2 {
			t.Fatalf("took over: %d", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nobody took over")
	}
	if most.Load() != 1 {
		t.Fatalf("%d led at once", most.Load())
	}
}

// The announcer's missed news: a topic's events after a seq, within the
// horizon, in seq order, with their data as committed.
func TestMissedNewsComesFromTheOutbox(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	topic := fmt.Sprintf("missed-%d", time.Now().UnixNano())
	for _, row := range []struct {
		seq int64
		age string
	}{{1, "0"}, {2, "0"}, {3, "2 hours"}, {4, "0"}, {5, "0"}} {
		if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (topic, seq, event, data, created_at)
			VALUES ($1, $2, 'player.registered', jsonb_build_object('seq', $2::bigint), now() - $3::interval)`, topic, row.seq, row.age); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (topic, seq, event, data) VALUES ($1, 9, 'x', '{}')`, topic+"-other"); err != nil {
		t.Fatal(err)
	}
	got, err := postgres.Bot{DB: db}.Missed(ctx, topic, 1, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, d := range got {
		if d.Topic != topic || d.Event != "player.registered" || string(d.Data) != fmt.Sprintf(`{"seq": %d}`, d.Seq) {
			t.Fatalf("delivery %+v (data %s)", d, d.Data)
		}
		seqs = append(seqs, d.Seq)
	}
	if !slices.Equal(seqs, []int64{2, 4, 5}) {
		t.Fatalf("missed seqs %v, want 2, 4, 5 (after 1, the two-hour-old 3 left out)", seqs)
	}
}
