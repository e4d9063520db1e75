package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func redisURL() string {
	if u := os.Getenv("PITLANE_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

func newRule(t *testing.T) Rule {
	b := make([]byte, 4)
	rand.Read(b)
	return Rule{Name: "test-" + hex.EncodeToString(b), Limit: 3, Window: time.Minute}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func exceeded(l *Limiters, rule Rule, key string) (bool, string) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/", nil)
	over := l.Exceeded(w, r, rule, key)
	return over, w.Header().Get("Retry-After")
}

// Two instances on one Redis share their counters: the limit holds across them.
func TestInstancesShareCountersInRedis(t *testing.T) {
	opt, _ := redis.ParseURL(redisURL())
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	if err := rdb.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("redis: %v", err)
	}
	rule := newRule(t)
	a, b := New(rdb, "pitlane-test:rl:", []byte("test-secret"), 1, quiet, rule), New(rdb, "pitlane-test:rl:", []byte("test-secret"), 1, quiet, rule)
	for i, l := range []*Limiters{a, b, a} {
		if over, _ := exceeded(l, rule, "1.2.3.4"); over {
			t.Fatalf("request %d refused", i+1)
		}
	}
	over, retry := exceeded(b, rule, "1.2.3.4")
	if !over || retry == "" {
		t.Fatalf("4th request across instances: over=%v retry-after=%q", over, retry)
	}
	if over, _ := exceeded(b, rule, "5.6.7.8"); over {
		t.Fatal("another key was limited")
	}
}

// With Redis unreachable the limiter still limits, per instance.
func TestRedisDownFallsBackToMemory(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 50 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	rule := newRule(t)
	l := New(rdb, "pitlane-test:rl:", []byte("test-secret"), 1, quiet, rule)
	for i := 0; i < 3; i++ {
		if over, _ := exceeded(l, rule, "k"); over {
			t.Fatalf("request %d refused", i+1)
		}
	}
	if over, _ := exceeded(l, rule, "k"); !over {
		t.Fatal("limit not applied while Redis is down")
	}
}

func TestScale(t *testing.T) {
	rule := newRule(t)
	l := New(nil, "", []byte("test-secret"), 2, quiet, rule)
	for i := 0; i < 6; i++ {
		if over, _ := exceeded(l, rule, "k"); over {
			t.Fatalf("request %d of 6 refused at scale 2", i+1)
		}
	}
	if over, _ := exceeded(l, rule, "k"); !over {
		t.Fatal("7th request allowed at scale 2")
	}
}

// What is limited (an e-mail address, an IP) is never written to Redis:
// counters are named by a hash of it.
func TestRedisKeysHoldNoAddresses(t *testing.T) {
	opt, _ := redis.ParseURL(redisURL())
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	rule := newRule(t)
	prefix := "pitlane-test:rl:" + rule.Name + ":"
	l := New(rdb, prefix, []byte("test-secret"), 1, quiet, rule)
	exceeded(l, rule, "someone@example.com")
	exceeded(l, rule, "203.0.113.9")
	keys, err := rdb.Keys(t.Context(), prefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Del(context.Background(), keys...)
	if len(keys) != 2 {
		t.Fatalf("keys %q, want one counter per limited key", keys)
	}
	for _, k := range keys {
		if strings.Contains(k, "someone") || strings.Contains(k, "example.com") || strings.Contains(k, "203.0.113") {
			t.Errorf("key %q names what it limits", k)
		}
	}
}

// A rule the limiters were not given is a mistake in the wiring, not "no
// limit": it fails loudly.
func TestAnUnknownRulePanics(t *testing.T) {
	l := New(nil, "test:", []byte("k"), 1, nil, BidUser)
	defer func() {
		if recover() == nil {
			t.Fatal("an unknown rule was let through")
		}
	}()
	l.Allow(context.Background(), RoomUser, "user:1")
}

func TestOnceTellsTheFirstTimeAKeyIsSeen(t *testing.T) {
	o := NewOnce(nil, "t:", []byte("x"), time.Hour, nil)
	ctx := context.Background()
	if !o.First(ctx, "a") || o.First(ctx, "a") || !o.First(ctx, "b") {
		t.Fatal("a key is first once, another key first too")
	}
	short := NewOnce(nil, "t:", []byte("x"), time.Millisecond, nil)
	short.First(ctx, "a")
	time.Sleep(3 * time.Millisecond)
	if !short.First(ctx, "a") {
		t.Fatal("after its window a key is first again")
	}
}

// Two instances on one Redis see a key once between them.
func TestOnceIsSharedInRedis(t *testing.T) {
	opt, _ := redis.ParseURL(redisURL())
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	if err := rdb.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("redis: %v", err)
	}
	prefix := "pitlane-test:once:" + newRule(t).Name + ":"
	a, b := NewOnce(rdb, prefix, []byte("s"), time.Minute, quiet), NewOnce(rdb, prefix, []byte("s"), time.Minute, quiet)
	if !a.First(t.Context(), "1.2.3.4") || b.First(t.Context(), "1.2.3.4") || a.First(t.Context(), "1.2.3.4") {
		t.Fatal("a key seen by one instance was first again on the other")
	}
	if !b.First(t.Context(), "5.6.7.8") {
		t.Fatal("another key was not first")
	}
}
