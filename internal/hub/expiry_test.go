package hub

import (
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// A user's own topic's history is forgotten once it has had no event for
// UserTopicTTL, so a league of many players does not keep every player's
// history for ever; its seq goes on rising, so nobody mistakes a new event
// for an old one. Shared topics never expire.
func TestIdleUserTopicsExpire(t *testing.T) {
	const ttl = 200 * time.Millisecond
	check := func(t *testing.T, opts Options) {
		opts.UserTopicTTL = ttl
		h, srv := startHub(t, opts)
		c := dial(t, srv)
		c.auth("user7")
		c.subscribe([]string{core.TopicUser, core.TopicRegistrations}, nil)
		publish(t, h, core.UserTopic(7), "stats.progress", map[string]string{"stage": "received"})
		publish(t, h, core.UserTopic(7), "stats.progress", map[string]string{"stage": "done"})
		c.expectEvents(core.TopicUser, 1, 2)
		publish(t, h, core.TopicRegistrations, "player.registered", nil)
		c.expectEvents(core.TopicRegistrations, 1, 1)

		time.Sleep(3 * ttl)
		// The history is gone, the seq is not: it goes on from 2, so a live
		// subscriber misses nothing and needs no resync.
		publish(t, h, core.UserTopic(7), "stats.progress", map[string]string{"stage": "received"})
		c.expectEvents(core.TopicUser, 3, 1)
		publish(t, h, core.TopicRegistrations, "player.registered", nil)
		c.expectEvents(core.TopicRegistrations, 2, 1)

		// Coming back at seq 2 replays 3; from 1, what expired cannot be
		// replayed: resync.
		again := dial(t, srv)
		again.auth("user7")
		if got := again.subscribe([]string{core.TopicUser}, map[string]int64{core.TopicUser: 2}); len(got) != 1 || got[0].Seq != 3 {
			t.Fatalf("subscribe since 2 after expiry: got %+v, want seq 3 replayed", got)
		}
		late := dial(t, srv)
		late.auth("user7")
		if got := late.subscribe([]string{core.TopicUser}, map[string]int64{core.TopicUser: 1}); len(got) != 1 || got[0].Type != "resync" {
			t.Fatalf("subscribe since 1 after expiry: got %+v, want a resync", got)
		}
	}
	t.Run("InMemory", func(t *testing.T) { check(t, Options{}) })
	t.Run("Redis", func(t *testing.T) {
		url := testRedisURL(t)
		check(t, Options{Broker: RedisBroker{URL: url}, Prefix: testPrefix(t, url)})
	})
}
