package hub

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// taps records the cheers the hub hands on, refusing kind "boo".
type taps struct {
	mu  sync.Mutex
	got []string // "userID topic kind ip"
}

func (t *taps) Cheer(_ context.Context, a core.Actor, ip, topic, kind string) error {
	if kind == "boo" {
		return errs.E(errs.Invalid, "no such cheer")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.got = append(t.got, strconv.FormatInt(a.UserID, 10)+" "+topic+" "+kind+" "+ip)
	return nil
}

func TestACheerFrameIsCountedAsItsSender(t *testing.T) {
	tp := &taps{}
	_, srv := startHub(t, Options{Cheers: tp})
	visitor, player := dial(t, srv), dial(t, srv)
	player.auth("user7")
	visitor.send(map[string]string{"type": "cheer", "topic": "teams", "kind": "fire"})
	player.send(map[string]string{"type": "cheer", "topic": "bracket", "kind": "gg"})
	if got := visitor.sync(); len(got) != 0 {
		t.Fatalf("an accepted cheer is answered by nothing, got %+v", got)
	}
	player.sync()
	visitor.send(map[string]string{"type": "cheer", "topic": "teams", "kind": "boo"})
	if got := visitor.sync(); len(got) != 1 || got[0].Type != "error" || got[0].Message != "no such cheer" {
		t.Fatalf("a refused cheer gets the refusal as an error frame, got %+v", got)
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	// Two sockets: which of their cheers is counted first is not a rule.
	got, want := slices.Sorted(slices.Values(tp.got)), []string{"0 teams fire 127.0.0.1", "7 bracket gg 127.0.0.1"}
	if !slices.Equal(got, want) {
		t.Fatalf("cheers counted as %q, want %q", tp.got, want)
	}
}

func TestCheersAreRefusedWhenOff(t *testing.T) {
	_, srv := startHub(t, Options{})
	c := dial(t, srv)
	c.send(map[string]string{"type": "cheer", "topic": "teams", "kind": "fire"})
	if got := c.sync(); len(got) != 1 || got[0].Type != "error" {
		t.Fatalf("want one error frame, got %+v", got)
	}
}

func TestSendLocalReachesTheTopicsSubscribersOnly(t *testing.T) {
	h, srv := startHub(t, Options{})
	auction, bracket := dial(t, srv), dial(t, srv)
	auction.subscribe([]string{"teams"}, nil)
	bracket.subscribe([]string{"bracket"}, nil)
	h.SendLocal("teams", []byte(`{"type":"cheers","topic":"teams","counts":{"fire":3},"window_ms":200}`))
	publish(t, h, "teams", "bid.placed", map[string]int{"amount": 5})
	f := auction.next()
	if f.Type != "cheers" || f.Topic != "teams" {
		t.Fatalf("the auction's spectator gets the cheers frame first, got %+v", f)
	}
	if f = auction.next(); f.Type != "event" || f.Seq != 1 {
		t.Fatalf("a cheers frame takes no seq: the next event is seq 1, got %+v", f)
	}
	publish(t, h, "bracket", "match.updated", map[string]int{"id": 1})
	if f = bracket.next(); f.Type != "event" || f.Topic != "bracket" {
		t.Fatalf("the bracket's spectator gets no auction cheers, got %+v", f)
	}
}

func TestSendLocalSkipsAFullQueueRatherThanClosingIt(t *testing.T) {
	h, srv := startHub(t, Options{QueueLen: 4})
	c := dial(t, srv)
	c.subscribe([]string{"teams"}, nil)
	var cl *client
	h.mu.Lock()
	for x := range h.clients {
		cl = x
	}
	h.mu.Unlock()
	cl.mu.Lock()
	cl.writing = true // a writer stuck on a slow socket: the queue only grows
	cl.mu.Unlock()
	for range 10 {
		h.SendLocal("teams", []byte(`{"type":"cheers","topic":"teams","counts":{"wow":1},"window_ms":200}`))
	}
	cl.mu.Lock()
	queued, closing := len(cl.queue)-cl.head, cl.closing
	cl.writing = false
	cl.mu.Unlock()
	if closing || queued != 2 {
		t.Fatalf("cheers fill at most half the queue and never close the client: queued %d, closing %v", queued, closing)
	}
}
