package hub

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/core"
)

// Redis for tests: PITLANE_TEST_REDIS_URL if set, else 127.0.0.1:6379 if it
// answers, else a private redis-server started for this package.
var (
	sharedRedisOnce sync.Once
	sharedRedisURL  string
	sharedRedisStop func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedRedisStop != nil {
		sharedRedisStop()
	}
	os.Exit(code)
}

func testRedisURL(t *testing.T) string {
	t.Helper()
	sharedRedisOnce.Do(func() {
		if u := os.Getenv("PITLANE_TEST_REDIS_URL"); u != "" {
			sharedRedisURL = u
			return
		}
		if pingRedis("redis://127.0.0.1:6379/0") == nil {
			sharedRedisURL = "redis://127.0.0.1:6379/0"
			return
		}
		if _, err := exec.LookPath("redis-server"); err != nil {
			return
		}
		port := freePort(t)
		cmd, err := runRedis(port)
		if err != nil {
			t.Logf("starting redis-server: %v", err)
			return
		}
		sharedRedisURL = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		sharedRedisStop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	})
	if sharedRedisURL == "" {
		t.Skip("no Redis: set PITLANE_TEST_REDIS_URL, run one on 127.0.0.1:6379 or install redis-server")
	}
	return sharedRedisURL
}

func pingRedis(url string) error {
	o, err := redis.ParseURL(url)
	if err != nil {
		return err
	}
	o.DialTimeout = 200 * time.Millisecond
	o.MaxRetries = -1
	rdb := redis.NewClient(o)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return rdb.Ping(ctx).Err()
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// runRedis starts a throwaway redis-server on port, without persistence,
// and waits until it answers.
func runRedis(port int) (*exec.Cmd, error) {
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	deadline := time.Now().Add(5 * time.Second)
	for pingRedis(url) != nil {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("redis-server on port %d did not answer", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, nil
}

// testPrefix keeps concurrent and repeated runs apart in a shared Redis,
// and removes the test's keys afterwards.
func testPrefix(t *testing.T, url string) string {
	prefix := fmt.Sprintf("pitlane:test:%s:%d:", strings.ReplaceAll(t.Name(), "/", "."), time.Now().UnixNano())
	t.Cleanup(func() {
		rdb := redis.NewClient(mustParse(t, url))
		defer rdb.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		keys, _ := rdb.Keys(ctx, prefix+"*").Result()
		if len(keys) > 0 {
			rdb.Del(ctx, keys...)
		}
	})
	return prefix
}

func TestRedis(t *testing.T) {
	t.Parallel()
	url := testRedisURL(t)

	t.Run("SeqRisesByOneAcrossInstances", func(t *testing.T) {
		opts := Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)}
		a, srvA := startHub(t, opts)
		b, srvB := startHub(t, opts)
		onA, onB := dial(t, srvA), dial(t, srvB)
		onA.subscribe([]string{core.TopicDeck}, nil)
		onB.subscribe([]string{core.TopicDeck}, nil)
		for i := range 10 {
			via := a
			if i%2 == 1 {
				via = b
			}
			publish(t, via, core.TopicDeck, "slide.changed", map[string]int{"slide": i})
		}
		onB.expectEvents(core.TopicDeck, 1, 10)
		onA.expectEvents(core.TopicDeck, 1, 10)
		for _, h := range []*Hub{a, b} {
			if seq, err := h.Seq(context.Background(), core.TopicDeck); err != nil || seq != 10 {
				t.Fatalf("Seq = %d, %v; want 10", seq, err)
			}
		}
	})

	t.Run("ReconnectWithSinceReplaysFromStream", func(t *testing.T) {
		opts := Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)}
		a, _ := startHub(t, opts)
		_, srvB := startHub(t, opts)
		first := dial(t, srvB)
		first.subscribe([]string{core.TopicTeams}, nil)
		for range 3 {
			publish(t, a, core.TopicTeams, "team.updated", nil)
		}
		last := first.expectEvents(core.TopicTeams, 1, 3)[2].Seq
		_ = first.conn.CloseNow()
		for range 3 {
			publish(t, a, core.TopicTeams, "team.updated", nil)
		}
		again := dial(t, srvB)
		got := again.subscribe([]string{core.TopicTeams}, map[string]int64{core.TopicTeams: last})
		if len(got) != 3 || got[0].Seq != 4 || got[2].Seq != 6 || got[0].Topic != core.TopicTeams {
			t.Fatalf("replay = %+v, want seqs 4..6", got)
		}
		publish(t, a, core.TopicTeams, "team.updated", nil)
		again.expectEvents(core.TopicTeams, 7, 1)
	})

	t.Run("UserTopicAcrossInstances", func(t *testing.T) {
		opts := Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)}
		a, _ := startHub(t, opts)
		_, srvB := startHub(t, opts)
		c := dial(t, srvB)
		c.auth("user7")
		c.subscribe([]string{core.TopicUser}, nil)
		publish(t, a, core.UserTopic(8), "stats.progress", nil)
		publish(t, a, core.UserTopic(7), "stats.progress", map[string]string{"stage": "done"})
		if f := c.expectEvents(core.TopicUser, 1, 1)[0]; string(f.Data) != `{"stage":"done"}` {
			t.Fatalf("got %+v", f)
		}
	})

	t.Run("SinceOlderThanStreamResyncs", func(t *testing.T) {
		// MAXLEN ~ trims whole stream nodes (100 entries), so go well past it.
		opts := Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url), History: 10}
		a, srv := startHub(t, opts)
		for range 250 {
			publish(t, a, core.TopicBracket, "match.updated", nil)
		}
		c := dial(t, srv)
		got := c.subscribe([]string{core.TopicBracket}, map[string]int64{core.TopicBracket: 1})
		if len(got) != 1 || got[0].Type != "resync" {
			t.Fatalf("got %+v, want resync", got)
		}
		got = c.subscribe([]string{core.TopicBracket}, map[string]int64{core.TopicBracket: 245})
		if len(got) != 5 || got[0].Seq != 246 || got[4].Seq != 250 {
			t.Fatalf("got %+v, want seqs 246..250", got)
		}
	})

	t.Run("SubscriptionBlipCatchesUpWithoutResync", func(t *testing.T) {
		prefix := testPrefix(t, url)
		name := strings.NewReplacer(":", "-", ".", "-").Replace(prefix[:len(prefix)-1])
		a, _ := startHub(t, Options{Broker: RedisBroker{URL: url}, Prefix: prefix})
		b, srvB := startHub(t, Options{Broker: RedisBroker{URL: url + "?client_name=" + name}, Prefix: prefix})
		c := dial(t, srvB)
		c.subscribe([]string{core.TopicDeck}, nil)
		publish(t, a, core.TopicDeck, "slide.changed", nil)
		c.expectEvents(core.TopicDeck, 1, 1)

		// Cut B's subscriber connection and publish while it comes back.
		rdb := redis.NewClient(mustParse(t, url))
		defer rdb.Close()
		ctx := context.Background()
		list, err := rdb.ClientList(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		killed := 0
		for line := range strings.SplitSeq(list, "\n") {
			if strings.Contains(line, "name="+name+" ") && strings.Contains(line, "cmd=subscribe") {
				id := strings.TrimPrefix(strings.Fields(line)[0], "id=")
				if err := rdb.Do(ctx, "CLIENT", "KILL", "ID", id).Err(); err != nil {
					t.Fatal(err)
				}
				killed++
			}
		}
		if killed != 1 {
			t.Fatalf("found %d subscriber connections of hub B", killed)
		}
		for range 20 {
			publish(t, a, core.TopicDeck, "slide.changed", nil)
		}
		c.expectEvents(core.TopicDeck, 2, 20) // no resync, no gap, no duplicate
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("extra frames %+v", got)
		}
		eventually(t, 5*time.Second, "the reconnect to be counted", func() bool {
			return counterValue(b.metrics.redisReconnects) >= 1
		})
	})
}

func mustParse(t *testing.T, url string) *redis.Options {
	t.Helper()
	o, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestRedisRestart kills the Redis two hubs share and starts it again on the
// same port, empty: both hubs must come back by themselves.
func TestRedisRestart(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server binary not installed; cannot restart a private Redis")
	}
	port := freePort(t)
	cmd, err := runRedis(port)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	opts := Options{Broker: RedisBroker{URL: url}, Prefix: "pitlane:restart:", RedisTimeout: 500 * time.Millisecond}
	// A answers one page a second: its three subscriptions need 3 s.
	optsA := opts
	optsA.ResyncRate = 1
	a, srvA := startHub(t, optsA)
	b, srvB := startHub(t, opts)
	onA, onB := dial(t, srvA), dial(t, srvB)
	onA.subscribe([]string{core.TopicDeck}, nil)
	onB.subscribe([]string{core.TopicDeck}, nil)
	more := dial(t, srvA)
	more.subscribe([]string{core.TopicTeams, core.TopicBracket}, nil)
	publish(t, a, core.TopicDeck, "slide.changed", nil)
	publish(t, b, core.TopicDeck, "slide.changed", nil)
	onA.expectEvents(core.TopicDeck, 1, 2)
	onB.expectEvents(core.TopicDeck, 1, 2)

	t.Run("PublishFailsFastWhileRedisIsDown", func(t *testing.T) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		start := time.Now()
		if err := a.Publish(context.Background(), core.TopicDeck, "slide.changed", nil); err == nil {
			t.Fatal("Publish succeeded without Redis")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Publish took %v to fail", d)
		}
	})

	t.Run("HubsRecoverAndClientsResync", func(t *testing.T) {
		time.Sleep(300 * time.Millisecond) // let both subscribers notice
		cmd, err = runRedis(port)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range []*testClient{onA, onB} {
			f, err := c.read(10 * time.Second)
			if err != nil || f.Type != "resync" || f.Topic != core.TopicDeck {
				t.Fatalf("got %+v, %v; want resync of deck", f, err)
			}
			// A's three subscriptions at one a second: spread over 3 s.
			// B's one fits in the 2 s clients spread over unasked.
			if want := []int64{3000, 0}[i]; f.RetryAfterMs != want {
				t.Errorf("hub %d: resync says retry_after_ms %d, want %d", i, f.RetryAfterMs, want)
			}
		}
		for _, h := range []*Hub{a, b} {
			if n := counterValue(h.metrics.redisReconnects); n < 1 {
				t.Fatalf("reconnects = %v", n)
			}
		}
	})

	t.Run("EventsFlowAfterRecovery", func(t *testing.T) {
		// Redis came back empty, so seqs start over (clients were told to resync).
		publish(t, a, core.TopicDeck, "slide.changed", nil)
		publish(t, b, core.TopicDeck, "slide.changed", nil)
		onA.expectEvents(core.TopicDeck, 1, 2)
		onB.expectEvents(core.TopicDeck, 1, 2)
		late := dial(t, srvB)
		got := late.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 1})
		if len(got) != 1 || got[0].Seq != 2 {
			t.Fatalf("replay after recovery = %+v", got)
		}
	})
}
