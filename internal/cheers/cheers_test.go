package cheers

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// outbox records the frames a Service queues to its instance's spectators.
type outbox struct {
	mu     sync.Mutex
	frames []Frame
}

func (o *outbox) out(topic string, b []byte) {
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil || f.Topic != topic {
		panic("bad frame " + string(b))
	}
	o.mu.Lock()
	o.frames = append(o.frames, f)
	o.mu.Unlock()
}

func (o *outbox) wait(t *testing.T, n int) []Frame {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		o.mu.Lock()
		got := append([]Frame(nil), o.frames...)
		o.mu.Unlock()
		if len(got) >= n {
			time.Sleep(100 * time.Millisecond) // nothing more may come
			o.mu.Lock()
			defer o.mu.Unlock()
			return append([]Frame(nil), o.frames...)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("waited for %d frames, got %d", n, len(o.frames))
	return nil
}

func testRedis(t *testing.T) *redis.Client {
	t.Helper()
	u := os.Getenv("PITLANE_TEST_REDIS_URL")
	if u == "" {
		t.Skip("no Redis: set PITLANE_TEST_REDIS_URL")
	}
	opts, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// instance is one server's Service on the shared Redis.
func instance(t *testing.T, ctx context.Context, rdb *redis.Client, prefix string) (*Service, *outbox) {
	o := &outbox{}
	s := &Service{Merge: RedisMerger{Rdb: rdb, Prefix: prefix}, Out: o.out}
	go s.Merge.Listen(ctx, s.Out)
	return s, o
}

func tap(t *testing.T, s *Service, a core.Actor, topic, kind string, n int) {
	t.Helper()
	for range n {
		if err := s.Cheer(context.Background(), a, "192.0.2.1", topic, kind); err != nil {
			t.Fatalf("cheer: %v", err)
		}
	}
}

func TestTwoInstancesSendOneMergedFramePerTopicAndWindow(t *testing.T) {
	rdb := testRedis(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prefix := "pitlane-test:cheers:" + strconv.FormatInt(time.Now().UnixNano(), 10) + ":"
	a, outA := instance(t, ctx, rdb, prefix)
	b, outB := instance(t, ctx, rdb, prefix)
	time.Sleep(100 * time.Millisecond) // both listening

	tap(t, a, core.Actor{}, "teams", "fire", 50)
	tap(t, b, core.Actor{UserID: 3}, "teams", "fire", 30)
	tap(t, b, core.Actor{UserID: 3}, "teams", "clap", 1)
	tap(t, a, core.Actor{}, "bracket", "gg", 2)
	w := WindowOf(time.Now())
	a.flush(ctx, w)
	b.flush(ctx, w)

	for name, o := range map[string]*outbox{"A": outA, "B": outB} {
		got := o.wait(t, 2)
		if len(got) != 2 {
			t.Fatalf("instance %s: want one frame per topic (2), got %d: %+v", name, len(got), got)
		}
		for _, f := range got {
			switch f.Topic {
			case "teams":
				if f.Counts["fire"] != 80 || f.Counts["clap"] != 1 || len(f.Counts) != 2 {
					t.Errorf("instance %s: teams counts %v, want both instances' 80 fire and 1 clap", name, f.Counts)
				}
			case "bracket":
				if f.Counts["gg"] != 2 || len(f.Counts) != 1 {
					t.Errorf("instance %s: bracket counts %v, want 2 gg", name, f.Counts)
				}
			}
			if f.Type != "cheers" || f.WindowMs != Window.Milliseconds() || f.Window != w {
				t.Errorf("instance %s: frame %+v", name, f)
			}
		}
	}
}

func TestCountsAddedAfterTheMergeGoToTheNextWindow(t *testing.T) {
	rdb := testRedis(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prefix := "pitlane-test:cheers:" + strconv.FormatInt(time.Now().UnixNano(), 10) + ":"
	a, out := instance(t, ctx, rdb, prefix)
	time.Sleep(100 * time.Millisecond)
	m := a.Merge
	w := WindowOf(time.Now())
	if err := m.Add(ctx, w, map[string]map[string]int64{"deck": {"wow": 4}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Merge(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := m.Merge(ctx, w); err != nil { // another instance, later: nothing twice
		t.Fatal(err)
	}
	if err := m.Add(ctx, w, map[string]map[string]int64{"deck": {"wow": 2}}); err != nil { // a late instance
		t.Fatal(err)
	}
	if err := m.Merge(ctx, w+1); err != nil {
		t.Fatal(err)
	}
	got := out.wait(t, 2)
	if len(got) != 2 || got[0].Counts["wow"] != 4 || got[1].Counts["wow"] != 2 {
		t.Fatalf("want window w once (4 wow), then the late 2 in w+1, got %+v", got)
	}
}

func TestOneInstanceSendsItsWindowItself(t *testing.T) {
	o := &outbox{}
	s := &Service{Out: o.out}
	tap(t, s, core.Actor{}, "deck", "sad", 3)
	s.flush(context.Background(), 1)
	s.flush(context.Background(), 2) // a window without taps sends nothing
	got := o.wait(t, 1)
	if len(got) != 1 || got[0].Counts["sad"] != 3 {
		t.Fatalf("want one frame of 3 sad, got %+v", got)
	}
}

func TestOnlyTheFixedKindsOnPublicTopics(t *testing.T) {
	s := &Service{}
	for _, c := range []struct{ topic, kind string }{
		{"teams", "boo"}, {"teams", ""}, {"captains:PPL7", "fire"}, {"user", "fire"}, {"nope", "clap"},
	} {
		err := s.Cheer(context.Background(), core.Actor{UserID: 1}, "192.0.2.1", c.topic, c.kind)
		if errs.KindOf(err) != errs.Invalid {
			t.Errorf("cheer %q on %q: want invalid, got %v", c.kind, c.topic, err)
		}
	}
}

func TestSignedOutVisitorsHaveALowerLimitThanAccounts(t *testing.T) {
	s := &Service{Limits: ratelimit.New(nil, "", nil, 1, nil, Rules...)}
	count := func(a core.Actor, ip string) int {
		n := 0
		for range 100 {
			err := s.Cheer(context.Background(), a, ip, "teams", "fire")
			if err != nil {
				var e *errs.Error
				if !errors.As(err, &e) || e.Kind != errs.RateLimited || e.RetryAfter < 1 {
					t.Fatalf("want a rate-limited error with a retry, got %v", err)
				}
				break
			}
			n++
		}
		return n
	}
	if n := count(core.Actor{}, "198.51.100.1"); n != VisitorRule.Limit {
		t.Errorf("a visitor cheered %d times before the limit, want %d", n, VisitorRule.Limit)
	}
	if n := count(core.Actor{UserID: 5}, "198.51.100.1"); n != UserRule.Limit {
		t.Errorf("an account on the same address cheered %d times, want its own %d", n, UserRule.Limit)
	}
	// The address's own bound holds across its accounts.
	total := 0
	for id := range int64(40) {
		total += count(core.Actor{UserID: 100 + id}, "198.51.100.2")
	}
	if total != AddressRule.Limit {
		t.Errorf("one address's accounts cheered %d times, want the address's bound %d", total, AddressRule.Limit)
	}
}
