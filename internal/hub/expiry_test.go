package hub

import (
	"testing"
	"time"
)

// A user's own topic is forgotten once idle for UserTopicTTL, so a league of
// many players does not keep every player's history for ever; it starts over
// at seq 1, and a subscriber still holding a later seq is told to resync
// before the new event. Shared topics never expire.
func TestIdleUserTopicsExpire(t *testing.T) {
	const ttl = 200 * time.Millisecond
	check := func(t *testing.T, opts Options) {
		opts.UserTopicTTL = ttl
		h, srv := startHub(t, opts)
		c := dial(t, srv)
		c.auth("user7")
		c.subscribe([]string{TopicUser, TopicRegistrations}, nil)
		publish(t, h, UserTopic(7), "stats.progress", map[string]string{"stage": "received"})
		publish(t, h, UserTopic(7), "stats.progress", map[string]string{"stage": "done"})
		c.expectEvents(TopicUser, 1, 2)
		publish(t, h, TopicRegistrations, "player.registered", nil)
		c.expectEvents(TopicRegistrations, 1, 1)

		time.Sleep(3 * ttl)
		publish(t, h, UserTopic(7), "stats.progress", map[string]string{"stage": "received"})
		if f := c.next(); f.Type != "resync" || f.Topic != TopicUser {
			t.Fatalf("got %+v, want a resync of %s", f, TopicUser)
		}
		c.expectEvents(TopicUser, 1, 1)
		publish(t, h, TopicRegistrations, "player.registered", nil)
		c.expectEvents(TopicRegistrations, 2, 1)

		// A client that comes back with the old seq is told to resync too.
		again := dial(t, srv)
		again.auth("user7")
		got := again.subscribe([]string{TopicUser}, map[string]int64{TopicUser: 2})
		if len(got) != 1 || got[0].Type != "resync" {
			t.Fatalf("subscribe since 2 after expiry: got %+v, want a resync", got)
		}
	}
	t.Run("InMemory", func(t *testing.T) { check(t, Options{}) })
	t.Run("Redis", func(t *testing.T) {
		url := testRedisURL(t)
		check(t, Options{RedisURL: url, Prefix: testPrefix(t, url)})
	})
}
