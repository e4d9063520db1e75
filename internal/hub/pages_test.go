package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// When Redis comes back without its data, a client that named the page it
// shows gets that page in its resync frame, read once for every client that
// named it, and then only the events the page does not hold.
func TestAMassResyncSendsEachNamedPageOnce(t *testing.T) {
	t.Parallel()
	url, restartEmpty := privateRedis(t)

	release := make(chan struct{})
	var mu sync.Mutex
	reads := map[string]int{}
	pages := func(ctx context.Context, path string) (Page, error) {
		mu.Lock()
		reads[path]++
		mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
			return Page{}, ctx.Err()
		}
		if path == "/api/broken" {
			return Page{}, errors.New("the database is away")
		}
		return Page{Seq: 7, Body: []byte(`{"matches":[1,2,3],"seq":7}`)}, nil
	}
	h, srv := startHub(t, Options{Broker: RedisBroker{URL: url}, Prefix: "pitlane:pages:",
		RedisTimeout: 500 * time.Millisecond, Pages: pages})

	const n = 20
	named := make([]*testClient, n)
	for i := range named {
		named[i] = dial(t, srv)
		named[i].send(map[string]any{"type": "subscribe", "topics": []string{core.TopicBracket},
			"pages": map[string]string{core.TopicBracket: "/api/tournaments/PPL7/bracket"}})
		named[i].sync()
	}
	plain := dial(t, srv)
	plain.subscribe([]string{core.TopicBracket}, nil)
	broken := dial(t, srv)
	broken.send(map[string]any{"type": "subscribe", "topics": []string{core.TopicBracket},
		"pages": map[string]string{core.TopicBracket: "/api/broken"}})
	broken.sync()

	restartEmpty()
	eventually(t, 10*time.Second, "the pages asked for", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(reads) == 2
	})
	if f := plain.next(); f.Type != "resync" || f.Page != nil {
		t.Fatalf("a client that named no page got %+v, want a plain resync", f)
	}
	// While the pages are read, the relay primes the topic and delivers
	// two events: the page holds the first (seq 7), not the second.
	if err := h.Prime(context.Background(), core.TopicBracket, 6); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if _, err := h.Deliver(context.Background(), []core.Event{
		{Topic: core.TopicBracket, Seq: 7, Name: "match.updated", Data: json.RawMessage(`{}`), At: at},
		{Topic: core.TopicBracket, Seq: 8, Name: "match.updated", Data: json.RawMessage(`{}`), At: at},
	}); err != nil {
		t.Fatal(err)
	}
	plain.expectEvents(core.TopicBracket, 7, 2)
	close(release)

	for i, c := range named {
		f := c.next()
		if f.Type != "resync" || f.Seq != 7 || f.Path != "/api/tournaments/PPL7/bracket" || string(f.Page) != `{"matches":[1,2,3],"seq":7}` {
			t.Fatalf("client %d: got %+v, want a resync bringing its page at seq 7", i, f)
		}
		c.expectEvents(core.TopicBracket, 8, 1)
	}
	if f := broken.next(); f.Type != "resync" || f.Page != nil {
		t.Fatalf("a client whose page could not be read got %+v, want a plain resync", f)
	}
	broken.expectEvents(core.TopicBracket, 7, 2)
	mu.Lock()
	defer mu.Unlock()
	if reads["/api/tournaments/PPL7/bracket"] != 1 || counterValue(h.metrics.pageReads) != 2 {
		t.Fatalf("page reads = %v (metric %v), want the bracket read once for its %d clients", reads, counterValue(h.metrics.pageReads), n)
	}
}

// Clients that each name a page of their own cannot turn a mass resync
// into a read each: the pages most clients named are read, the rest get a
// plain resync.
func TestAMassResyncReadsOnlyTheMostNamedPages(t *testing.T) {
	t.Parallel()
	url, restartEmpty := privateRedis(t)
	var mu sync.Mutex
	reads := map[string]int{}
	pages := func(_ context.Context, path string) (Page, error) {
		mu.Lock()
		reads[path]++
		mu.Unlock()
		return Page{Seq: 1, Body: []byte(`{"seq":1}`)}, nil
	}
	_, srv := startHub(t, Options{Broker: RedisBroker{URL: url}, Prefix: "pitlane:rare:", RedisTimeout: 500 * time.Millisecond, Pages: pages})
	subscribe := func(path string) *testClient {
		c := dial(t, srv)
		c.send(map[string]any{"type": "subscribe", "topics": []string{core.TopicTeams}, "pages": map[string]string{core.TopicTeams: path}})
		c.sync()
		return c
	}
	popular := []*testClient{subscribe("/api/tournaments/PPL7/auction"), subscribe("/api/tournaments/PPL7/auction")}
	var rare []*testClient
	for i := range maxPagesPerTopic + 4 {
		rare = append(rare, subscribe(fmt.Sprintf("/api/players?q=%d", i)))
	}
	restartEmpty()
	for _, c := range popular {
		if f := c.next(); f.Type != "resync" || f.Page == nil {
			t.Fatalf("a client of the most named page got %+v, want its page", f)
		}
	}
	plain := 0
	for _, c := range rare {
		if f := c.next(); f.Type != "resync" {
			t.Fatalf("got %+v, want a resync", f)
		} else if f.Page == nil {
			plain++
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reads) != maxPagesPerTopic || plain != 5 {
		t.Fatalf("%d pages read, %d clients sent a plain resync; want %d read (the most named first) and 5 plain", len(reads), plain, maxPagesPerTopic)
	}
}

// privateRedis runs a redis-server of the test's own; restartEmpty kills it
// and starts it again without its data, after the hubs noticed it gone.
// Without the redis-server binary the test is skipped.
func privateRedis(t *testing.T) (url string, restartEmpty func()) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server binary not installed; cannot restart a private Redis")
	}
	port := freePort(t)
	cmd, err := runRedis(port)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port), func() {
		t.Helper()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		time.Sleep(300 * time.Millisecond) // the hubs notice
		if cmd, err = runRedis(port); err != nil {
			t.Fatal(err)
		}
	}
}

// A page is a short path under /api/; anything else is refused with an
// error frame and the topic followed without a page.
func TestAPageMustBeAPathOfTheAPI(t *testing.T) {
	t.Parallel()
	h, srv := startHub(t, Options{Pages: func(context.Context, string) (Page, error) { return Page{}, nil }})
	for i, path := range []string{"https://evil.example/x", "/api/ws", "/admin", "/api/a b", "/api/" + string(make([]byte, 300))} {
		c := dial(t, srv)
		c.send(map[string]any{"type": "subscribe", "topics": []string{core.TopicDeck}, "pages": map[string]string{core.TopicDeck: path}})
		got := c.sync()
		if len(got) != 1 || got[0].Type != "error" {
			t.Fatalf("page %q: got %+v, want one error frame", path, got)
		}
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		c.expectEvents(core.TopicDeck, int64(i+1), 1)
	}
}

// A subscription told to resync during its first replay is done with that
// loss when the replay ends: the next mass resync brings it its page.
func TestALossDuringAReplayDoesNotSwallowTheNextPage(t *testing.T) {
	t.Parallel()
	pages := func(context.Context, string) (Page, error) { return Page{Seq: 3, Body: []byte(`{"seq":3}`)}, nil }
	h, srv := startHub(t, Options{Pages: pages})
	for i := range 2 {
		publish(t, h, core.TopicBracket, "match.updated", map[string]int{"i": i})
	}
	g := &gatedReads{read: h.history.read, release: make(chan struct{})}
	h.history.read = g.do
	c := dial(t, srv)
	c.send(map[string]any{"type": "subscribe", "topics": []string{core.TopicBracket}, "since": map[string]int64{core.TopicBracket: 0},
		"pages": map[string]string{core.TopicBracket: "/api/tournaments/PPL7/bracket"}})
	eventually(t, 5*time.Second, "the replay's read", func() bool { return g.n.Load() == 1 })
	h.resyncTopic(core.TopicBracket) // during the replay: a plain resync
	close(g.release)
	if f := c.next(); f.Type != "resync" || f.Page != nil {
		t.Fatalf("got %+v, want the plain resync of the loss during the replay", f)
	}
	c.sync() // the replay has ended
	h.resyncTopic(core.TopicBracket)
	if f := c.next(); f.Type != "resync" || f.Seq != 3 || string(f.Page) != `{"seq":3}` {
		t.Fatalf("got %+v, want the resync bringing the page", f)
	}
}
