package hub

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedReads counts the reads of a store and holds the first one until
// released, so that others arrive while it runs.
type gatedReads struct {
	read    func(context.Context, string, int64) (int64, []event, error)
	release chan struct{}
	n       atomic.Int64
}

func (g *gatedReads) do(ctx context.Context, topic string, since int64) (int64, []event, error) {
	if g.n.Add(1) == 1 {
		<-g.release
	}
	return g.read(ctx, topic, since)
}

// tenEvents is a store's history of a topic that holds seqs 4..10.
func tenEvents(_ context.Context, _ string, since int64) (int64, []event, error) {
	if since < 0 || since >= 10 {
		return 10, nil, nil
	}
	var evs []event
	for q := max(since+1, 4); q <= 10; q++ {
		evs = append(evs, newEvent(q, fmt.Sprintf(`{"seq":%d}`, q)))
	}
	return 10, evs, nil
}

func TestClientsWaitingOnATopicShareOneReadFromTheOldestSince(t *testing.T) {
	t.Parallel()
	g := &gatedReads{read: tenEvents, release: make(chan struct{})}
	var sinces []int64
	g2 := func(ctx context.Context, topic string, since int64) (int64, []event, error) {
		sinces = append(sinces, since) // reads never overlap: run does them in turn
		return g.do(ctx, topic, since)
	}
	r := newHistoryReads(g2, time.Second, func() {})

	const n = 50
	type answer struct {
		evs     []event
		covered bool
		err     error
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	get := func(i int, since int64) {
		defer wg.Done()
		_, evs, covered, err := r.get(context.Background(), "bracket", since)
		answers[i] = answer{evs, covered, err}
	}
	wg.Add(1)
	go get(0, 9) // the first read: held until the others wait
	for g.n.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	wg.Add(n - 1)
	for i := 1; i < n; i++ {
		go get(i, int64(i%12)-1) // since -1 (no replay) .. 10
	}
	eventually(t, 5*time.Second, "the others waiting", func() bool { return r.waiters("bracket") == n-1 })
	close(g.release)
	wg.Wait()

	if got := g.n.Load(); got != 2 {
		t.Fatalf("%d concurrent clients cost %d reads, want 2", n, got)
	}
	if sinces[1] != 0 {
		t.Errorf("the shared read was from since %d, want the oldest asked for, 0", sinces[1])
	}
	for i, a := range answers {
		since := int64(9)
		if i > 0 {
			since = int64(i%12) - 1
		}
		if a.err != nil {
			t.Fatalf("client %d: %v", i, a.err)
		}
		// History holds 4..10: a client after 3 or later is covered.
		if want := since < 0 || since >= 3; a.covered != want {
			t.Errorf("client %d (since %d): covered %v, want %v", i, since, a.covered, want)
		}
		if !a.covered || since < 0 {
			continue
		}
		if len(a.evs) != int(10-since) {
			t.Errorf("client %d (since %d): %d events, want %d", i, since, len(a.evs), 10-since)
			continue
		}
		for k, ev := range a.evs {
			if ev.seq != since+1+int64(k) {
				t.Errorf("client %d (since %d): event %d has seq %d", i, since, k, ev.seq)
			}
		}
	}
}

func TestAReadAfterTheBurstIsItsOwn(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	r := newHistoryReads(func(ctx context.Context, topic string, since int64) (int64, []event, error) {
		n.Add(1)
		return tenEvents(ctx, topic, since)
	}, time.Second, func() {})
	for i := range 3 {
		if _, _, _, err := r.get(context.Background(), "teams", 5); err != nil {
			t.Fatal(err)
		}
		if got := n.Load(); got != int64(i+1) {
			t.Fatalf("after %d reads one at a time: %d reads; a read must never be reused later", i+1, got)
		}
	}
}

// N clients of an instance coming back at once with since on one topic
// (after a Redis restart, say) cost at most two history reads, and each
// gets exactly the events it missed.
func TestResubscribingClientsCostTwoHistoryReads(t *testing.T) {
	t.Parallel()
	brokers := map[string]func(t *testing.T) Options{
		"memory": func(*testing.T) Options { return Options{} },
		"redis": func(t *testing.T) Options {
			url := testRedisURL(t)
			return Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)}
		},
	}
	for name, opts := range brokers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, srv := startHub(t, opts(t))
			for i := range 6 {
				publish(t, h, "bracket", "match.updated", map[string]int{"i": i})
			}
			g := &gatedReads{read: h.history.read, release: make(chan struct{})}
			h.history.read = g.do
			before := counterValue(h.metrics.historyReads)

			const n = 40
			clients := make([]*testClient, n)
			for i := range clients {
				clients[i] = dial(t, srv)
			}
			clients[0].send(map[string]any{"type": "subscribe", "topics": []string{"bracket"}, "since": map[string]int64{"bracket": 5}})
			eventually(t, 5*time.Second, "the first read", func() bool { return g.n.Load() == 1 })
			for i, c := range clients[1:] {
				c.send(map[string]any{"type": "subscribe", "topics": []string{"bracket"}, "since": map[string]int64{"bracket": int64(i % 6)}})
			}
			eventually(t, 5*time.Second, "every client waiting", func() bool { return h.history.waiters("bracket") == n-1 })
			close(g.release)
			for i, c := range clients {
				since := int64(5)
				if i > 0 {
					since = int64((i - 1) % 6)
				}
				c.expectEvents("bracket", since+1, int(6-since))
				if extra := c.sync(); len(extra) > 0 {
					t.Fatalf("client %d: unexpected frames %+v", i, extra)
				}
			}
			if got := counterValue(h.metrics.historyReads) - before; got != 2 {
				t.Fatalf("%d clients resubscribing at once cost %v history reads, want 2", n, got)
			}
		})
	}
}

func TestResyncsAskForASpreadOnlyWhenTwoSecondsWouldNotDo(t *testing.T) {
	t.Parallel()
	now := time.Now()
	p := pressure{rate: 1000}
	p.resyncing(1500, now)
	if got := p.retryAfter(now); got != 0 {
		t.Fatalf("1,500 resyncs at 1,000 reads a second: retry after %d ms, want none", got)
	}
	p.resyncing(10_000, now)
	if got := p.retryAfter(now); got != 10_000 {
		t.Fatalf("10,000 resyncs at 1,000 reads a second: retry after %d ms, want 10,000", got)
	}
	if got := p.retryAfter(now.Add(10 * time.Second)); got != 0 {
		t.Fatalf("after the window: retry after %d ms, want none", got)
	}
	p.resyncing(1_000_000, now)
	if got := p.retryAfter(now); got != maxSpreadMs {
		t.Fatalf("a million: retry after %d ms, want the cap %d", got, maxSpreadMs)
	}
}
