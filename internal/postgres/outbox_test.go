package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// freshDB is a migrated database of the test's own (relays share nothing).
func freshDB(t *testing.T) *postgres.DB { return pgtest.Fresh(t) }

// sink is a core.Broadcaster that records what it is given, and fails on
// demand like a Redis that is down.
type sink struct {
	mu      sync.Mutex
	got     []core.Event
	primed  map[string]int64
	failing int // deliveries still to fail
	calls   int
}

func (s *sink) Deliver(_ context.Context, evs []core.Event) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.failing > 0 {
		s.failing--
		return 0, errors.New("redis: connection refused")
	}
	s.got = append(s.got, evs...)
	return len(evs), nil
}

func (s *sink) Prime(_ context.Context, topic string, seq int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.primed == nil {
		s.primed = map[string]int64{}
	}
	s.primed[topic] = seq
	return nil
}

func (s *sink) events() []core.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]core.Event(nil), s.got...)
}

// waitFor waits until the sink holds n events.
func (s *sink) waitFor(t *testing.T, n int) []core.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := s.events()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink holds %d events, want %d", len(got), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func startRelay(t *testing.T, db *postgres.DB, s core.Broadcaster) *postgres.Relay {
	t.Helper()
	r := &postgres.Relay{DB: db, Sink: s, Poll: 200 * time.Millisecond, Standby: 50 * time.Millisecond}
	r.Start(context.Background())
	t.Cleanup(r.Stop)
	return r
}

func emit(t *testing.T, db *postgres.DB, topic, event string, data any) int64 {
	t.Helper()
	var seq int64
	err := db.Transact(context.Background(), func(ctx context.Context) error {
		var err error
		seq, err = postgres.Outbox{DB: db}.Emit(ctx, topic, event, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

func TestOutbox(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	out := postgres.Outbox{DB: db}

	t.Run("ErrEmitOutsideATransaction", func(t *testing.T) {
		if _, err := out.Emit(ctx, core.TopicDeck, "slide.changed", nil); !errors.Is(err, postgres.ErrNoTransaction) {
			t.Fatalf("got %v, want ErrNoTransaction", err)
		}
	})
	t.Run("RolledBackEventsNeverExist", func(t *testing.T) {
		boom := errors.New("the change failed")
		err := db.Transact(ctx, func(ctx context.Context) error {
			if _, err := out.Emit(ctx, core.TopicDeck, "slide.changed", map[string]int{"slide": 9}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if seq, _ := out.Seq(ctx, core.TopicDeck); seq != 0 {
			t.Fatalf("seq %d after a rollback, want 0 (no gap either)", seq)
		}
	})
	t.Run("SeqsRiseByOnePerTopic", func(t *testing.T) {
		if a, b, c := emit(t, db, core.TopicDeck, "slide.changed", nil), emit(t, db, core.TopicTeams, "team.updated", nil),
			emit(t, db, core.TopicDeck, "slide.changed", nil); a != 1 || b != 1 || c != 2 {
			t.Fatalf("seqs %d %d %d, want 1 1 2", a, b, c)
		}
	})
	t.Run("ErrUnknownTopic", func(t *testing.T) {
		err := db.Transact(ctx, func(ctx context.Context) error {
			_, err := out.Emit(ctx, "everyone", "x", nil)
			return err
		})
		if err == nil {
			t.Fatal("emitted on an unknown topic")
		}
	})
}

// The relay delivers committed events in commit order, each topic's seqs
// without gap, and marks them published.
func TestRelayDeliversInCommitOrder(t *testing.T) {
	db := freshDB(t)
	s := &sink{}
	startRelay(t, db, s)

	// Writers race on one topic; each takes the next seq as it commits.
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			emit(t, db, core.TopicRegistrations, "player.registered", map[string]int{"n": i})
		}()
	}
	wg.Wait()
	got := s.waitFor(t, 40)
	for i, ev := range got {
		if ev.Topic != core.TopicRegistrations || ev.Seq != int64(i)+1 || ev.Name != "player.registered" || len(ev.Data) == 0 {
			t.Fatalf("event %d: %+v, want seq %d", i, ev, i+1)
		}
	}
	eventually(t, "every event marked published", func() bool {
		var n int
		db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE published_at IS NULL`).Scan(&n)
		return n == 0
	})
}

// A live layer that is down (Redis) holds events back, never loses them:
// once it answers, everything committed meanwhile arrives, in order.
func TestRelayRetriesThroughAnOutage(t *testing.T) {
	db := freshDB(t)
	s := &sink{}
	startRelay(t, db, s)
	emit(t, db, core.TopicDeck, "slide.changed", map[string]int{"slide": 1})
	emit(t, db, core.TopicDeck, "slide.changed", map[string]int{"slide": 2})
	s.waitFor(t, 2)

	s.mu.Lock()
	s.failing, s.calls = 4, 0
	s.mu.Unlock()
	for i := range 3 {
		emit(t, db, core.TopicDeck, "slide.changed", map[string]int{"slide": i + 3})
	}
	got := s.waitFor(t, 5)
	for i, ev := range got {
		if ev.Seq != int64(i)+1 {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
	if s.calls < 5 {
		t.Fatalf("%d delivery calls; the failures were not retried", s.calls)
	}
	// What the live layer held may be gone with the outage (a Redis that
	// restarted): it is told where each topic stands before new events.
	if s.primed[core.TopicDeck] < 2 {
		t.Fatalf("after the outage the deck topic was primed with %d, want at least 2", s.primed[core.TopicDeck])
	}
}

// One relay works at a time across instances; when it stops, another takes
// over and delivers what was committed meanwhile.
func TestOneRelayAtATime(t *testing.T) {
	db := freshDB(t)
	first, second := &sink{}, &sink{}
	r1 := startRelay(t, db, first)
	eventually(t, "the first relay leads", func() bool {
		emit(t, db, core.TopicDeck, "slide.changed", nil)
		return len(first.events()) > 0
	})
	startRelay(t, db, second)
	time.Sleep(200 * time.Millisecond)
	n := len(first.events())
	emit(t, db, core.TopicDeck, "slide.changed", nil)
	first.waitFor(t, n+1)
	if len(second.events()) != 0 {
		t.Fatalf("the standby relay delivered %d events", len(second.events()))
	}
	r1.Stop()
	emit(t, db, core.TopicDeck, "slide.changed", nil)
	got := second.waitFor(t, 1)
	if got[0].Seq != int64(n+2) {
		t.Fatalf("the new leader delivered seq %d first, want %d", got[0].Seq, n+2)
	}
}

// An event the live layer can never take (here, written around Emit's
// checks) is passed over, not retried for ever ahead of every later one.
func TestRelayPassesOverAnUndeliverableEvent(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO outbox (topic, seq, event, data) VALUES ('nowhere', 1, 'x', '{}')`); err != nil {
		t.Fatal(err)
	}
	emit(t, db, core.TopicDeck, "slide.changed", nil)
	s := &strictSink{}
	startRelay(t, db, s)
	eventually(t, "the later event delivered", func() bool { return s.delivered() == 1 })
}

// strictSink refuses unknown topics as the hub does.
type strictSink struct {
	sink
}

func (s *strictSink) Deliver(ctx context.Context, evs []core.Event) (int, error) {
	for i, ev := range evs {
		if _, ok := core.PublicTopic(ev.Topic); !ok {
			n, _ := s.sink.Deliver(ctx, evs[:i])
			return n, fmt.Errorf("%w: unknown topic %s", core.ErrBadEvent, ev.Topic)
		}
	}
	return s.sink.Deliver(ctx, evs)
}

func (s *strictSink) delivered() int { return len(s.events()) }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
