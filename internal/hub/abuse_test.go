package hub

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// A subscribe frame must not multiply the work of a replay: one 4 KB frame
// naming a topic 250 times once made the server replay its history 250
// times. Topics are deduplicated and capped per frame, and subscribe and
// unsubscribe frames are limited per connection per second.
func TestSubscribeAbuse(t *testing.T) {
	t.Parallel()

	t.Run("RepeatedTopicReplaysOnce", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		for range 20 {
			publish(t, h, core.TopicRegistrations, "player.registered", nil)
		}
		c := dial(t, srv)
		topics := make([]string, 250)
		for i := range topics {
			topics[i] = core.TopicRegistrations
		}
		got := c.subscribe(topics, map[string]int64{core.TopicRegistrations: 0})
		if len(got) != 20 {
			t.Fatalf("got %d frames, want the 20 events once", len(got))
		}
		for i, f := range got {
			if f.Type != "event" || f.Seq != int64(i+1) {
				t.Fatalf("frame %d: %+v", i, f)
			}
		}
	})

	t.Run("TooManyTopicsInOneFrameIsOneError", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		topics := []string{core.TopicDeck}
		for i := range maxTopicsPerFrame {
			topics = append(topics, "no-such-topic-"+strconv.Itoa(i))
		}
		got := c.subscribe(topics, nil)
		if len(got) != 1 || got[0].Type != "error" || !strings.Contains(got[0].Message, "at most") {
			t.Fatalf("got %+v, want one error", got)
		}
		publish(t, h, core.TopicDeck, "slide.changed", nil) // nothing of the frame was subscribed
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("refused frame subscribed: %+v", got)
		}
	})

	t.Run("FloodGetsErrorsThenClose1008", func(t *testing.T) {
		_, srv := startHub(t, Options{})
		c := dial(t, srv)
		for i := range 200 {
			typ := "subscribe"
			if i%2 == 1 {
				typ = "unsubscribe"
			}
			if err := c.conn.Write(t.Context(), websocket.MessageText,
				[]byte(`{"type":"`+typ+`","topics":["deck"]}`)); err != nil {
				break // closed by the server meanwhile
			}
		}
		sawLimit := false
		for {
			f, err := c.read(5 * time.Second)
			if err != nil {
				if s := websocket.CloseStatus(err); s != websocket.StatusPolicyViolation {
					t.Fatalf("connection ended with %v (%v), want 1008", s, err)
				}
				break
			}
			if f.Type == "error" && strings.Contains(f.Message, "too many") {
				sawLimit = true
			}
		}
		if !sawLimit {
			t.Fatal("no error frame said the client sent too many frames")
		}
	})

	t.Run("HonestClientStaysWithinTheLimits", func(t *testing.T) {
		// The web app on reconnect: auth, then every topic it follows in one
		// frame with its seqs; then pages mounting and unmounting topics.
		h, srv := startHub(t, Options{})
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		c := dial(t, srv)
		c.auth("captain9")
		all := []string{core.TopicRegistrations, core.TopicTeams, core.TopicBracket, core.TopicDeck, core.CaptainsTopic("PPL7"), core.TopicUser}
		since := map[string]int64{core.TopicDeck: 0, core.TopicTeams: 0}
		if got := c.subscribe(all, since); len(got) != 1 || got[0].Seq != 1 {
			t.Fatalf("reconnect: %+v", got)
		}
		for range 6 {
			c.send(map[string]any{"type": "unsubscribe", "topics": []string{core.TopicBracket}})
			c.send(map[string]any{"type": "subscribe", "topics": []string{core.TopicBracket}})
		}
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("mount churn got %+v", got)
		}
		publish(t, h, core.TopicBracket, "match.updated", nil)
		c.expectEvents(core.TopicBracket, 1, 1)
	})
}
