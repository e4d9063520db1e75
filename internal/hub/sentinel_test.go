package hub

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/redisconn"
)

// startProc starts a Redis process (server or sentinel) that the test
// kills at its end.
func startProc(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

func redisServer(t *testing.T, port int, extra ...string) *exec.Cmd {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--protected-mode", "no", "--loglevel", "warning"}, extra...)
	cmd := startProc(t, "redis-server", args...)
	eventually(t, 5*time.Second, "redis-server to answer", func() bool {
		return pingRedis(fmt.Sprintf("redis://127.0.0.1:%d/0", port)) == nil
	})
	return cmd
}

func info(t *testing.T, addr, section string) string {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s, _ := rdb.Info(ctx, section).Result()
	return s
}

// TestSentinelFailover runs a primary, a replica and three sentinels on
// loopback ports, kills the primary with clients live, and checks that the
// hub goes on through the primary the sentinels promote: publishing works
// again, the subscribed client gets the events after the failover with none
// missing, and a plain write through the same kind of client works too.
func TestSentinelFailover(t *testing.T) {
	t.Parallel()
	for _, bin := range []string{"redis-server", "redis-sentinel"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not installed (Debian: apt-get install redis-server redis-sentinel); cannot run a failover", bin)
		}
	}
	primaryPort, replicaPort := freePort(t), freePort(t)
	primary := redisServer(t, primaryPort)
	redisServer(t, replicaPort, "--replicaof", "127.0.0.1", strconv.Itoa(primaryPort))
	replicaAddr := fmt.Sprintf("127.0.0.1:%d", replicaPort)
	eventually(t, 10*time.Second, "the replica to follow the primary", func() bool {
		return strings.Contains(info(t, replicaAddr, "replication"), "master_link_status:up")
	})

	var sentinels []string
	for range 3 {
		port := freePort(t)
		conf := filepath.Join(t.TempDir(), "sentinel.conf")
		body := fmt.Sprintf("port %d\nbind 127.0.0.1\nprotected-mode no\ndir %s\n"+
			"sentinel monitor pl 127.0.0.1 %d 2\n"+
			"sentinel down-after-milliseconds pl 500\n"+
			"sentinel failover-timeout pl 5000\n"+
			"sentinel parallel-syncs pl 1\n", port, filepath.Dir(conf), primaryPort)
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		startProc(t, "redis-sentinel", conf, "--loglevel", "warning")
		sentinels = append(sentinels, fmt.Sprintf("127.0.0.1:%d", port))
	}
	// A failover needs the sentinels to know the replica and each other
	// (they announce themselves every 2 s).
	eventually(t, 15*time.Second, "the sentinels to know the replica and each other", func() bool {
		for _, s := range sentinels {
			sc := redis.NewSentinelClient(&redis.Options{Addr: s, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			replicas, err1 := sc.Replicas(ctx, "pl").Result()
			peers, err2 := sc.Sentinels(ctx, "pl").Result()
			cancel()
			sc.Close()
			if err1 != nil || err2 != nil || len(replicas) != 1 || len(peers) != 2 {
				return false
			}
		}
		return true
	})

	target := redisconn.Target{Sentinels: sentinels, MasterName: "pl"}
	h, srv := startHub(t, Options{Broker: RedisBroker{Target: target}, Prefix: "pitlane:failover:", RedisTimeout: 500 * time.Millisecond})
	c := dial(t, srv)
	c.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 0})
	publish(t, h, core.TopicDeck, "slide.changed", nil)
	publish(t, h, core.TopicDeck, "slide.changed", nil)
	c.expectEvents(core.TopicDeck, 1, 2)
	// Both events are on the replica before the primary goes.
	eventually(t, 5*time.Second, "the replica to hold both events", func() bool {
		rdb := redis.NewClient(&redis.Options{Addr: replicaAddr, MaxRetries: -1})
		defer rdb.Close()
		n, _ := rdb.XLen(context.Background(), "pitlane:failover:stream:"+core.TopicDeck).Result()
		return n == 2
	})

	killed := time.Now()
	_ = primary.Process.Kill()
	_ = primary.Wait()

	// Publishing works again once the sentinels promoted the replica.
	eventually(t, 20*time.Second, "a publish through the promoted primary", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return h.Publish(ctx, core.TopicDeck, "slide.changed", nil) == nil
	})
	t.Logf("publishing again %v after the primary was killed", time.Since(killed).Round(time.Millisecond))
	if !strings.Contains(info(t, replicaAddr, "replication"), "role:master") {
		t.Fatal("the replica was not promoted")
	}
	// The client missed nothing: seq 3 follows 2, with no resync (the
	// replica had the streams and the epoch).
	f := c.next()
	if f.Type != "event" || f.Seq != 3 {
		t.Fatalf("after the failover the client got %+v, want event seq 3", f)
	}
	publish(t, h, core.TopicDeck, "slide.changed", nil)
	c.expectEvents(core.TopicDeck, 4, 1)

	// A plain write and read through a failover client of the same target.
	rdb, err := target.Client(func(o *redis.Options) { o.DialTimeout = time.Second })
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Set(ctx, "pitlane:failover:written", "yes", time.Minute).Err(); err != nil {
		t.Fatalf("a write after the failover: %v", err)
	}
	if v, err := rdb.Get(ctx, "pitlane:failover:written").Result(); err != nil || v != "yes" {
		t.Fatalf("reading it back: %q, %v", v, err)
	}
}
