package hub

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// deliver hands the hub events seqs from..to of topic, as the outbox relay does.
func deliver(t *testing.T, h *Hub, topic string, from, to int64) {
	t.Helper()
	var evs []core.Event
	for q := from; q <= to; q++ {
		evs = append(evs, core.Event{Topic: topic, Seq: q, Name: "slide.changed",
			Data: json.RawMessage(`{"slide":` + string(rune('0'+q%10)) + `}`), At: time.Now()})
	}
	if n, err := h.Deliver(context.Background(), evs); err != nil || n != len(evs) {
		t.Fatalf("Deliver: %d of %d, %v", n, len(evs), err)
	}
}

// The outbox's seqs are the hub's, on both stores: an event delivered again
// (a relay retrying after a lost reply) reaches nobody twice, a store that
// restarted is primed with the outbox's seq so a client behind it resyncs at
// once, and a gap shows up as a resync.
func TestDeliverWithOutboxSeqs(t *testing.T) {
	for _, store := range []string{"memory", "redis"} {
		t.Run(store, func(t *testing.T) {
			opts := func() Options {
				if store == "memory" {
					return Options{}
				}
				url := testRedisURL(t)
				return Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)}
			}
			t.Run("RedeliveryIsSkipped", func(t *testing.T) {
				h, srv := startHub(t, opts())
				c := dial(t, srv)
				c.subscribe([]string{core.TopicDeck}, nil)
				deliver(t, h, core.TopicDeck, 1, 3)
				deliver(t, h, core.TopicDeck, 2, 4) // 2 and 3 again, then 4
				c.expectEvents(core.TopicDeck, 1, 4)
				if got := c.sync(); len(got) != 0 {
					t.Fatalf("extra frames %+v", got)
				}
				if seq, _ := h.Seq(context.Background(), core.TopicDeck); seq != 4 {
					t.Fatalf("seq %d, want 4", seq)
				}
			})
			t.Run("PrimedStoreResyncsAClientBehindIt", func(t *testing.T) {
				h, srv := startHub(t, opts())
				if err := h.Prime(context.Background(), core.TopicDeck, 58); err != nil {
					t.Fatal(err)
				}
				c := dial(t, srv)
				got := c.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 55})
				if len(got) != 1 || got[0].Type != "resync" {
					t.Fatalf("got %+v, want resync (56..58 are not in this store)", got)
				}
				deliver(t, h, core.TopicDeck, 59, 59)
				c.expectEvents(core.TopicDeck, 59, 1)
				up := dial(t, srv)
				if got := up.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 59}); len(got) != 0 {
					t.Fatalf("up to date: got %+v", got)
				}
			})
			t.Run("GapIsAResync", func(t *testing.T) {
				h, srv := startHub(t, opts())
				c := dial(t, srv)
				c.subscribe([]string{core.TopicDeck}, nil)
				deliver(t, h, core.TopicDeck, 1, 1)
				c.expectEvents(core.TopicDeck, 1, 1)
				deliver(t, h, core.TopicDeck, 3, 3)
				if f := c.next(); f.Type != "resync" {
					t.Fatalf("got %+v, want resync", f)
				}
				c.expectEvents(core.TopicDeck, 3, 1)
			})
		})
	}
}

// Code in the process (the Discord bot) follows topics without a
// websocket: events in order, once, and a resync when some were lost.
func TestFollow(t *testing.T) {
	h, _ := startHub(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ch := h.Follow(ctx, core.TopicDeck)
	deliver(t, h, core.TopicDeck, 1, 2)
	deliver(t, h, core.TopicDeck, 2, 2)
	deliver(t, h, core.TopicDeck, 4, 4)
	want := []core.Delivery{{Seq: 1}, {Seq: 2}, {Resync: true}, {Seq: 4}}
	for i, w := range want {
		select {
		case d := <-ch:
			if d.Topic != core.TopicDeck || d.Seq != w.Seq || d.Resync != w.Resync || (!d.Resync && d.Event != "slide.changed") {
				t.Fatalf("delivery %d: %+v, want %+v", i, d, w)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("delivery %d did not come", i)
		}
	}
	t.Run("FullBufferBecomesAResync", func(t *testing.T) {
		deliver(t, h, core.TopicDeck, 5, 5+followBuffer+10)
		n, resyncs := 0, 0
		for len(ch) > 0 {
			d := <-ch
			n++
			if d.Resync {
				resyncs++
			}
		}
		if n != followBuffer || resyncs != 0 {
			t.Fatalf("%d deliveries (%d resyncs) buffered, want %d events", n, resyncs, followBuffer)
		}
		deliver(t, h, core.TopicDeck, 6+followBuffer+10, 6+followBuffer+10)
		if d := <-ch; !d.Resync {
			t.Fatalf("after the overflow: %+v, want a resync", d)
		}
	})
	cancel()
	deadline := time.After(2 * time.Second)
	for {
		select {
		case _, open := <-ch:
			if !open {
				return
			}
		case <-deadline:
			t.Fatal("the channel stayed open after ctx ended")
		}
	}
}

// Forgetting a topic's history up to a seq (a hidden profile's cards were
// in it) keeps its seq and what came after: a client behind the cut is told
// to reload, one after it is replayed, a live one hears the next events.
func TestForget(t *testing.T) {
	for _, store := range []string{"memory", "redis"} {
		t.Run(store, func(t *testing.T) {
			opts := Options{History: 8}
			if store == "redis" {
				url := testRedisURL(t)
				opts = Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url), History: 8}
			}
			h, srv := startHub(t, opts)
			live := dial(t, srv)
			live.subscribe([]string{core.TopicRegistrations}, nil)
			deliver(t, h, core.TopicRegistrations, 1, 5)
			live.expectEvents(core.TopicRegistrations, 1, 5)
			if err := h.Forget(context.Background(), core.TopicRegistrations, 3); err != nil {
				t.Fatal(err)
			}
			if seq, _ := h.Seq(context.Background(), core.TopicRegistrations); seq != 5 {
				t.Fatalf("seq %d after forgetting, want 5", seq)
			}
			if got := dial(t, srv).subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 0}); len(got) != 1 || got[0].Type != "resync" {
				t.Fatalf("since 0: %+v, want a resync", got)
			}
			if got := dial(t, srv).subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 3}); len(got) != 2 || got[0].Seq != 4 || got[1].Seq != 5 {
				t.Fatalf("since 3: %+v, want 4 and 5", got)
			}
			// All of it, then more events: the seq goes on.
			if err := h.Forget(context.Background(), core.TopicRegistrations, 5); err != nil {
				t.Fatal(err)
			}
			if got := dial(t, srv).subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 4}); len(got) != 1 || got[0].Type != "resync" {
				t.Fatalf("since 4: %+v, want a resync", got)
			}
			deliver(t, h, core.TopicRegistrations, 6, 12)
			live.expectEvents(core.TopicRegistrations, 6, 7)
			if got := dial(t, srv).subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 5}); len(got) != 7 || got[0].Seq != 6 || got[6].Seq != 12 {
				t.Fatalf("since 5: %+v, want 6 to 12", got)
			}
		})
	}
}
