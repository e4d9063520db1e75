// Package cheers counts spectators' reactions (fire, clap, wow, gg, sad) per
// public topic over short windows and fans out one "cheers" frame per topic
// per window, never one per tap: the cost of a frame stays flat whatever the
// audience. With Redis every instance adds its window's counts to one hash
// per topic and window, and the first instance to ask for the window once
// it has closed publishes the merged frames, once, to every instance.
package cheers

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// Window is how long taps are counted before one frame per topic goes out:
// a spectator gets at most 1s/Window cheer frames a second per topic (5),
// whatever the number of instances.
const Window = 200 * time.Millisecond

// MergeDelay is how long after a window closes its counts are merged across
// instances: each instance adds its window's counts at the close, and the
// merge waits this long for the slowest one. A count that comes later goes
// to the next window.
const MergeDelay = 40 * time.Millisecond

// Kinds are the reactions a spectator may send; no text, nothing to moderate.
var Kinds = []string{"fire", "clap", "wow", "gg", "sad"}

// Topics are the public topics one may cheer on: the auction (teams), the
// bracket and match pages (bracket), the presenter's deck.
var Topics = []string{core.TopicTeams, core.TopicBracket, core.TopicDeck, core.TopicRegistrations}

// Limits on taps. A tap costs only a counter in memory, and the frames a
// spectator receives do not grow with the taps, so the limits bound how far
// one client can sway the counts; they are counted on each instance (no
// Redis round trip per tap). A signed-out visitor is bounded by address,
// lower than an account; every tap also counts against its address's
// looser bound, which a LAN party behind one NAT stays inside.
var (
	UserRule    = ratelimit.Rule{Name: "cheer-user", Limit: 30, Window: 10 * time.Second}
	VisitorRule = ratelimit.Rule{Name: "cheer-visitor-ip", Limit: 15, Window: 10 * time.Second}
	AddressRule = ratelimit.Rule{Name: "cheer-ip", Limit: 600, Window: 10 * time.Second}
	// Rules is every rule of cheers, for ratelimit.New.
	Rules = []ratelimit.Rule{UserRule, VisitorRule, AddressRule}
)

// Limiter is ratelimit.Limiters' Allow.
type Limiter interface {
	Allow(ctx context.Context, rule ratelimit.Rule, key string) (bool, time.Duration)
}

// Frame is the "cheers" frame as clients receive it.
type Frame struct {
	Type     string           `json:"type"` // "cheers"
	Topic    string           `json:"topic"`
	Counts   map[string]int64 `json:"counts"`
	WindowMs int64            `json:"window_ms"`
	// Window is the window's number: it began at Window × WindowMs ms
	// after the Unix epoch, so a client can tell how late a frame came.
	Window int64 `json:"window"`
}

// Service counts taps and sends the windows' frames. Out queues a frame to
// this instance's subscribers of a topic (hub.Hub.SendLocal); it is set
// before Start.
type Service struct {
	Limits Limiter
	Merge  Merger // nil: one instance, frames go out from here
	Out    func(topic string, frame []byte)
	Log    *slog.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time

	mu     sync.Mutex
	counts map[string]map[string]int64 // this window's taps, per topic and kind
}

// Merger merges the instances' counts (redisMerger).
type Merger interface {
	// Add adds this instance's counts of window w (or the next one when w
	// was merged already).
	Add(ctx context.Context, w int64, counts map[string]map[string]int64) error
	// Merge publishes window w's merged frames to every instance, once
	// across instances; a later call for the same window does nothing.
	Merge(ctx context.Context, w int64) error
	// Listen calls deliver with every merged frame until ctx ends.
	Listen(ctx context.Context, deliver func(topic string, frame []byte))
}

// Cheer counts one tap of kind on topic by actor a from address ip.
func (s *Service) Cheer(ctx context.Context, a core.Actor, ip, topic, kind string) error {
	if !slices.Contains(Kinds, kind) {
		return errs.E(errs.Invalid, "A cheer is one of fire, clap, wow, gg or sad, not %q", errs.Echo(kind))
	}
	if !slices.Contains(Topics, topic) {
		return errs.E(errs.Invalid, "Cheers go to a public topic (teams, bracket, deck, registrations), not %q", errs.Echo(topic))
	}
	if err := s.limit(ctx, a, ip); err != nil {
		return err
	}
	s.mu.Lock()
	if s.counts == nil {
		s.counts = make(map[string]map[string]int64)
	}
	m := s.counts[topic]
	if m == nil {
		m = make(map[string]int64, len(Kinds))
		s.counts[topic] = m
	}
	m[kind]++
	s.mu.Unlock()
	return nil
}

func (s *Service) limit(ctx context.Context, a core.Actor, ip string) error {
	if s.Limits == nil {
		return nil
	}
	var rule ratelimit.Rule
	var key string
	if a.UserID != 0 {
		rule, key = UserRule, "user:"+strconv.FormatInt(a.UserID, 10)
	} else {
		rule, key = VisitorRule, ip
	}
	ok, wait := s.Limits.Allow(ctx, rule, key)
	if ok {
		ok, wait = s.Limits.Allow(ctx, AddressRule, ip)
	}
	if !ok {
		secs := max(1, int(wait.Seconds()))
		return errs.Limited(secs, "Too many cheers: try again in %d s", secs)
	}
	return nil
}

// take returns this window's counts and starts the next window.
func (s *Service) take() map[string]map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counts
	s.counts = nil
	return c
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// WindowOf is the number of the window t falls in.
func WindowOf(t time.Time) int64 { return t.UnixMilli() / Window.Milliseconds() }

// Start runs the windows until ctx ends: at each window's close this
// instance's counts go out (alone) or to the merge (with Redis), and with
// Redis, MergeDelay later, the window is merged and its frames published.
func (s *Service) Start(ctx context.Context) {
	if s.Merge != nil {
		go s.Merge.Listen(ctx, s.Out)
	}
	go s.run(ctx)
}

func (s *Service) run(ctx context.Context) {
	for {
		now := s.now()
		w := WindowOf(now)
		closeAt := time.UnixMilli((w + 1) * Window.Milliseconds())
		select {
		case <-ctx.Done():
			return
		case <-time.After(closeAt.Sub(now)):
		}
		s.flush(ctx, w)
	}
}

// flush ends window w on this instance.
func (s *Service) flush(ctx context.Context, w int64) {
	counts := s.take()
	if s.Merge == nil {
		for topic, m := range counts {
			s.Out(topic, Encode(topic, w, m))
		}
		return
	}
	if len(counts) > 0 {
		cctx, cancel := context.WithTimeout(ctx, Window)
		err := s.Merge.Add(cctx, w, counts)
		cancel()
		if err != nil {
			s.log().Warn("cheers: adding a window's counts failed; they are dropped", "err", err)
		}
	}
	// Every instance asks for the merge; the first one does it.
	go func() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(MergeDelay):
		}
		cctx, cancel := context.WithTimeout(ctx, Window)
		defer cancel()
		if err := s.Merge.Merge(cctx, w); err != nil && ctx.Err() == nil {
			s.log().Warn("cheers: merging a window failed", "err", err)
		}
	}()
}

func (s *Service) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// Encode is the frame of one topic's window w.
func Encode(topic string, w int64, counts map[string]int64) []byte {
	b, _ := json.Marshal(Frame{Type: "cheers", Topic: topic, Counts: counts, WindowMs: Window.Milliseconds(), Window: w})
	return b
}
