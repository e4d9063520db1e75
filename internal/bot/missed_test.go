package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
)

// feed hands the announcer deliveries one at a time.
type feed chan core.Delivery

func (f feed) Follow(context.Context, ...string) <-chan core.Delivery { return f }

// claims are the database's claims, in memory; down makes them fail.
type claims struct {
	mu    sync.Mutex
	keys  map[string]bool
	state map[string]string
	down  bool
}

func (c *claims) ClaimAnnouncement(_ context.Context, key string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return false, errors.New("the database is away")
	}
	first := !c.keys[key]
	c.keys[key] = true
	return first, nil
}

func (c *claims) SwapState(_ context.Context, key, value string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down {
		return false, errors.New("the database is away")
	}
	changed := c.state[key] != value
	c.state[key] = value
	return changed, nil
}

// outbox is the outbox's news per topic, in seq order.
type outbox struct {
	mu  sync.Mutex
	evs []core.Delivery
}

func (o *outbox) Missed(_ context.Context, topic string, after int64, since time.Time) ([]core.Delivery, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []core.Delivery
	for _, d := range o.evs {
		if d.Topic == topic && d.Seq > after && !d.At.Before(since) {
			out = append(out, d)
		}
	}
	return out, nil
}

func (o *outbox) add(d core.Delivery) core.Delivery {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.evs = append(o.evs, d)
	return d
}

func registered(seq int64, name string) core.Delivery {
	data, _ := json.Marshal(map[string]any{"tournament": "PPL8", "player": map[string]any{"name": name, "kd": 1.5}})
	return core.Delivery{Topic: core.TopicRegistrations, Seq: seq, Event: "player.registered", Data: data, At: time.Now()}
}

func redCap(seq int64, holder int64, name string) core.Delivery {
	data, _ := json.Marshal(map[string]any{"tournament": "PPL7", "red_cap": map[string]any{
		"rows": []map[string]any{{"user_id": holder, "name": name, "kills": 100 + seq}}}})
	return core.Delivery{Topic: core.TopicBracket, Seq: seq, Event: "standings.updated", Data: data, At: time.Now()}
}

// announcer runs an Announcer over a feed, claims and an outbox until the
// test ends.
func announcer(t *testing.T, c *claims, o *outbox) (feed, *channel) {
	t.Helper()
	f, ch := make(feed), &channel{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		(&bot.Announcer{Feed: f, Claims: c, Missed: o, Channel: ch}).Run(ctx)
	}()
	t.Cleanup(func() { cancel(); close(f); <-done })
	return f, ch
}

func (c *channel) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.posts)
}

func waitPosts(t *testing.T, ch *channel, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if got := ch.all(); len(got) >= len(want) {
			for i, w := range want {
				if i >= len(got) || !strings.Contains(got[i], w) {
					t.Fatalf("posts %q, want in order %q", got, want)
				}
			}
			if len(got) > len(want) {
				t.Fatalf("posts %q, want only %q", got, want)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("posts %q, want %q", ch.all(), want)
}

// What the hub could not hand over (a resync) is read from the outbox and
// announced in order; the hub's own copies of it are not announced again.
func TestNewsMissedInAResyncIsAnnouncedFromTheOutbox(t *testing.T) {
	c := &claims{keys: map[string]bool{}, state: map[string]string{}}
	o := &outbox{}
	f, ch := announcer(t, c, o)
	f <- o.add(registered(1, "Ace"))
	waitPosts(t, ch, "Ace")
	o.add(registered(2, "Blaze")) // lost in a Redis failover
	o.add(registered(3, "Comet"))
	f <- core.Delivery{Topic: core.TopicRegistrations, Resync: true}
	f <- o.add(registered(4, "Drift"))
	f <- registered(3, "Comet") // delivered late by the relay: already announced
	waitPosts(t, ch, "Ace", "Blaze", "Comet", "Drift")
}

// A claim that fails (the database away) is tried again from the outbox
// at the next delivery, before it.
func TestNewsThatCouldNotBeClaimedIsAnnouncedLater(t *testing.T) {
	c := &claims{keys: map[string]bool{}, state: map[string]string{}}
	o := &outbox{}
	f, ch := announcer(t, c, o)
	c.mu.Lock()
	c.down = true
	c.mu.Unlock()
	f <- o.add(registered(1, "Ace"))
	f <- o.add(registered(2, "Blaze"))
	c.mu.Lock()
	c.down = false
	c.mu.Unlock()
	f <- o.add(registered(3, "Comet"))
	waitPosts(t, ch, "Ace", "Blaze", "Comet")
}

// A bot that takes over announces what its predecessor left within the
// horizon, not what it announced (the claims), and of several Red Cap
// tables only the newest: the holder now, once.
func TestABotThatTakesOverAnnouncesWhatWasLeft(t *testing.T) {
	c := &claims{keys: map[string]bool{"registrations:1": true}, state: map[string]string{"redcap:PPL7": "7"}}
	o := &outbox{}
	old := registered(0, "Ancient")
	old.At = time.Now().Add(-time.Hour) // old news
	o.add(old)
	o.add(registered(1, "Ace")) // announced by the bot before
	o.add(registered(2, "Blaze"))
	o.add(redCap(5, 8, "Viper"))
	o.add(redCap(6, 9, "Wolf"))
	f, ch := announcer(t, c, o)
	f <- o.add(registered(3, "Comet"))
	posts := func() []string { return ch.all() }
	deadline := time.Now().Add(5 * time.Second)
	for len(posts()) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := posts()
	var names []string
	for _, p := range got {
		for _, n := range []string{"Ancient", "Ace", "Blaze", "Comet", "Viper", "Wolf"} {
			if strings.Contains(p, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"Blaze", "Comet", "Wolf"}) {
		t.Fatalf("posted %q; want Blaze, Comet and the Red Cap of Wolf, once each", got)
	}
}

// threadStore keeps matches' threads in memory, with claims.
type threadStore struct {
	*claims
	threads map[int64]string
}

func (s *threadStore) ClaimThread(ctx context.Context, matchID int64) (bool, error) {
	return s.ClaimAnnouncement(ctx, fmt.Sprint("open:", matchID))
}

func (s *threadStore) SaveThread(_ context.Context, matchID int64, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.threads[matchID] = id
	return nil
}

func (s *threadStore) ThreadOf(_ context.Context, matchID int64) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threads[matchID], nil
}

func (s *threadStore) DiscordIDs(context.Context, []int64) (map[int64]string, error) { return nil, nil }

func (s *threadStore) ResetThreads(context.Context, int64) (map[int64]string, error) { return nil, nil }

// threadChannel is the match channel: every thread opened and post made,
// as "thread: text" lines, in order.
type threadChannel struct{ channel }

func (c *threadChannel) Open(_ context.Context, name string, first bot.Reply) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts = append(c.posts, "open "+name)
	return name, nil
}

func (c *threadChannel) Post(_ context.Context, thread string, r bot.Reply) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts = append(c.posts, thread+": "+r.Text)
	return nil
}

func (c *threadChannel) Archive(context.Context, string) error { return nil }

func matchAt(seq, id int64, at time.Time) core.Delivery {
	data, _ := json.Marshal(map[string]any{"tournament": "PPL8", "match": matches.Match{ID: id, Tournament: "PPL8", Stage: "league",
		Round: 1, Team1: &matches.TeamRef{ID: "A", Name: "Alpha"}, Team2: &matches.TeamRef{ID: "B", Name: "Bravo"},
		Status: matches.StatusScheduled, ScheduledAt: &at}})
	return core.Delivery{Topic: core.TopicBracket, Seq: seq, Event: matches.EventMatch, Data: data, At: time.Now()}
}

// A match's news that a resync left out is read from the outbox: its
// thread opened and its new time posted, in order, none twice.
func TestAMatchsNewsMissedInAResyncIsPostedInItsThread(t *testing.T) {
	store := &threadStore{claims: &claims{keys: map[string]bool{}, state: map[string]string{}}, threads: map[int64]string{}}
	o, ch, f := &outbox{}, &threadChannel{}, make(feed)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		(&bot.MatchThreads{Feed: f, Store: store, Missed: o, Threads: ch}).Run(ctx)
	}()
	defer func() { cancel(); close(f); <-done }()
	first, later := time.Unix(1_900_000_000, 0), time.Unix(1_900_086_400, 0)
	o.add(matchAt(1, 7, first)) // lost when Redis came back empty
	o.add(matchAt(2, 7, later))
	f <- core.Delivery{Topic: core.TopicBracket, Resync: true}
	f <- o.add(matchAt(3, 8, first))
	f <- matchAt(2, 7, later) // delivered late by the relay: posted already
	waitPosts(t, &ch.channel, "open #7 Alpha v Bravo", "#7 Alpha v Bravo — Round 1: 🕒 Match time: <t:1900086400",
		"open #8 Alpha v Bravo")
}
