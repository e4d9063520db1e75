package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

func TestProtocol(t *testing.T) {
	t.Parallel()

	t.Run("EventsCarrySeqRisingByOne", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		if got := c.subscribe([]string{core.TopicDeck}, nil); len(got) != 0 {
			t.Fatalf("subscribe without since replayed %+v", got)
		}
		for i := 1; i <= 3; i++ {
			publish(t, h, core.TopicDeck, "slide.changed", map[string]int{"slide": i})
		}
		evs := c.expectEvents(core.TopicDeck, 1, 3)
		if evs[2].Event != "slide.changed" || string(evs[2].Data) != `{"slide":3}` {
			t.Fatalf("event = %+v", evs[2])
		}
		if _, err := time.Parse(time.RFC3339, evs[0].TS); err != nil {
			t.Fatalf("ts %q is not RFC 3339: %v", evs[0].TS, err)
		}
		if seq, _ := h.Seq(context.Background(), core.TopicDeck); seq != 3 {
			t.Fatalf("Seq = %d, want 3", seq)
		}
	})

	t.Run("NilDataIsEmptyObject", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		c.subscribe([]string{core.TopicTeams}, nil)
		publish(t, h, core.TopicTeams, "team.updated", nil)
		if f := c.next(); string(f.Data) != `{}` {
			t.Fatalf("data = %s", f.Data)
		}
	})

	t.Run("SinceReplaysMissedEventsInOrder", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		for i := 1; i <= 5; i++ {
			publish(t, h, core.TopicBracket, "match.updated", map[string]int{"n": i})
		}
		c := dial(t, srv)
		got := c.subscribe([]string{core.TopicBracket}, map[string]int64{core.TopicBracket: 2})
		if len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 || string(got[0].Data) != `{"n":3}` {
			t.Fatalf("replay = %+v", got)
		}
		publish(t, h, core.TopicBracket, "match.updated", nil)
		c.expectEvents(core.TopicBracket, 6, 1)
	})

	t.Run("SinceEqualToSeqReplaysNothing", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		publish(t, h, core.TopicTeams, "team.updated", nil)
		publish(t, h, core.TopicTeams, "team.updated", nil)
		seq, err := h.Seq(context.Background(), core.TopicTeams)
		if err != nil || seq != 2 {
			t.Fatalf("Seq = %d, %v", seq, err)
		}
		c := dial(t, srv)
		if got := c.subscribe([]string{core.TopicTeams}, map[string]int64{core.TopicTeams: seq}); len(got) != 0 {
			t.Fatalf("replayed %+v", got)
		}
	})

	t.Run("SinceOlderThanHistoryResyncs", func(t *testing.T) {
		h, srv := startHub(t, Options{History: 3})
		for range 6 {
			publish(t, h, core.TopicRegistrations, "player.registered", nil)
		}
		c := dial(t, srv)
		got := c.subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 1})
		if len(got) != 1 || got[0].Type != "resync" || got[0].Topic != core.TopicRegistrations {
			t.Fatalf("got %+v, want one resync", got)
		}
		// The oldest seq history still holds can be replayed.
		c2 := dial(t, srv)
		got = c2.subscribe([]string{core.TopicRegistrations}, map[string]int64{core.TopicRegistrations: 3})
		if len(got) != 3 || got[0].Seq != 4 {
			t.Fatalf("got %+v, want seqs 4..6", got)
		}
		// Live events still follow the resync.
		publish(t, h, core.TopicRegistrations, "player.registered", nil)
		c.expectEvents(core.TopicRegistrations, 7, 1)
	})

	t.Run("SinceAheadOfSeqWaitsForTheOutbox", func(t *testing.T) {
		// The client read its state after a commit whose event is still on
		// its way: it is ahead, and gets the events after since, no resync.
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		if got := c.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 41}); len(got) != 0 {
			t.Fatalf("got %+v, want nothing yet", got)
		}
		deliver(t, h, core.TopicDeck, 41, 42)
		c.expectEvents(core.TopicDeck, 42, 1)
	})

	t.Run("UnknownTopicIsAnError", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		got := c.subscribe([]string{"secrets", core.TopicDeck}, nil)
		if len(got) != 1 || got[0].Type != "error" || !strings.Contains(got[0].Message, "unknown topic") {
			t.Fatalf("got %+v", got)
		}
		publish(t, h, core.TopicDeck, "slide.changed", nil) // the valid one is live
		c.expectEvents(core.TopicDeck, 1, 1)
	})

	t.Run("CaptainsRoomNeedsItsCaptainOrAdmin", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		room := core.CaptainsTopic("PPL7")
		anon, user, captain, otherSeason, admin := dial(t, srv), dial(t, srv), dial(t, srv), dial(t, srv), dial(t, srv)
		user.auth("user7")
		captain.auth("captain9")
		otherSeason.auth("captain10")
		admin.auth("admin1")
		for _, c := range []*testClient{anon, user, otherSeason} {
			got := c.subscribe([]string{room}, nil)
			if len(got) != 1 || got[0].Type != "error" {
				t.Fatalf("got %+v, want an error", got)
			}
		}
		if got := captain.subscribe([]string{"captains"}, nil); len(got) != 1 || got[0].Type != "error" {
			t.Fatalf("plain captains: got %+v, want an error", got)
		}
		captain.subscribe([]string{room}, nil)
		admin.subscribe([]string{room}, nil)
		otherSeason.subscribe([]string{core.CaptainsTopic("PPL8")}, nil)
		publish(t, h, room, "room.message", map[string]string{"text": "PPL7 only"})
		captain.expectEvents(room, 1, 1)
		admin.expectEvents(room, 1, 1)
		for _, c := range []*testClient{anon, user, otherSeason} {
			if got := c.sync(); len(got) != 0 {
				t.Fatalf("forbidden client got %+v", got)
			}
		}
	})

	t.Run("UserTopicNeedsAuth", func(t *testing.T) {
		_, srv := startHub(t, Options{})
		c := dial(t, srv)
		got := c.subscribe([]string{core.TopicUser}, nil)
		if len(got) != 1 || got[0].Type != "error" {
			t.Fatalf("got %+v, want an error", got)
		}
	})

	t.Run("UserTopicCarriesOnlyOwnEvents", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		seven, eight := dial(t, srv), dial(t, srv)
		seven.auth("user7")
		eight.auth("user8")
		seven.subscribe([]string{core.TopicUser}, nil)
		eight.subscribe([]string{core.TopicUser}, nil)
		publish(t, h, core.UserTopic(7), "stats.progress", map[string]string{"stage": "reading"})
		f := seven.expectEvents(core.TopicUser, 1, 1)[0]
		if string(f.Data) != `{"stage":"reading"}` {
			t.Fatalf("data = %s", f.Data)
		}
		if got := eight.sync(); len(got) != 0 {
			t.Fatalf("user 8 got %+v", got)
		}
		// since on "user" means the user's own topic.
		publish(t, h, core.UserTopic(7), "stats.progress", map[string]string{"stage": "done"})
		again := dial(t, srv)
		again.auth("user7")
		got := again.subscribe([]string{core.TopicUser}, map[string]int64{core.TopicUser: 1})
		if len(got) != 1 || got[0].Seq != 2 || got[0].Topic != core.TopicUser {
			t.Fatalf("replay = %+v", got)
		}
	})

	t.Run("BadTokenClosesWithPolicyViolation", func(t *testing.T) {
		_, srv := startHub(t, Options{})
		c := dial(t, srv)
		c.auth("forged")
		if f := c.next(); f.Type != "error" || f.Message == "" {
			t.Fatalf("got %+v, want an error frame", f)
		}
		c.expectClose(websocket.StatusPolicyViolation, 5*time.Second)
	})

	t.Run("UnsubscribeStopsEvents", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		c.subscribe([]string{core.TopicDeck, core.TopicTeams}, nil)
		c.send(map[string]any{"type": "unsubscribe", "topics": []string{core.TopicDeck}})
		c.sync()
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		publish(t, h, core.TopicTeams, "team.updated", nil)
		c.expectEvents(core.TopicTeams, 1, 1)
	})

	t.Run("MalformedFramesGetErrors", func(t *testing.T) {
		_, srv := startHub(t, Options{})
		c := dial(t, srv)
		ctx := context.Background()
		_ = c.conn.Write(ctx, websocket.MessageText, []byte("not json"))
		_ = c.conn.Write(ctx, websocket.MessageText, []byte(`{"type":"dance"}`))
		_ = c.conn.Write(ctx, websocket.MessageBinary, []byte(`{"type":"ping"}`))
		_ = c.conn.Write(ctx, websocket.MessageText, []byte(`{"type":"subscribe","topic":"registrations"}`))
		got := c.sync()
		if len(got) != 4 {
			t.Fatalf("got %+v, want 4 errors", got)
		}
		for _, f := range got {
			if f.Type != "error" {
				t.Fatalf("got %+v", f)
			}
		}
	})

	t.Run("TooManyAuthFramesCloseConnection", func(t *testing.T) {
		_, srv := startHub(t, Options{})
		c := dial(t, srv)
		for range maxAuths + 1 {
			c.auth("user7")
		}
		c.expectClose(websocket.StatusPolicyViolation, 3*time.Second)
	})

	t.Run("OversizedFrameClosesConnection", func(t *testing.T) {
		h, srv := startHub(t, Options{ReadLimit: 1024})
		c := dial(t, srv)
		big := `{"type":"subscribe","topics":["` + strings.Repeat("x", 2000) + `"]}`
		_ = c.conn.Write(context.Background(), websocket.MessageText, []byte(big))
		c.expectClose(websocket.StatusMessageTooBig, 5*time.Second)
		// The server is fine.
		c2 := dial(t, srv)
		c2.subscribe([]string{core.TopicDeck}, nil)
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		c2.expectEvents(core.TopicDeck, 1, 1)
	})

	t.Run("ForeignOriginRefused", func(t *testing.T) {
		_, srv := startHub(t, Options{OriginPatterns: []string{"app.example"}})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, resp, err := websocket.Dial(ctx, wsURL(srv), &websocket.DialOptions{
			HTTPHeader: http.Header{"Origin": {"https://evil.example"}},
		})
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("foreign origin: err %v, resp %v; want 403", err, resp)
		}
		dialWith(t, srv, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://app.example"}}})
	})

	t.Run("ConcurrentPublishersKeepSeqGapless", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		c.subscribe([]string{core.TopicTeams}, nil)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 25 {
					if err := h.Publish(context.Background(), core.TopicTeams, "auction.bid", nil); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		c.expectEvents(core.TopicTeams, 1, 100)
	})

	t.Run("PublishRejectsUnknownTopics", func(t *testing.T) {
		h, _ := startHub(t, Options{})
		for _, topic := range []string{"nope", core.TopicUser, "user:x", "user:0"} {
			if err := h.Publish(context.Background(), topic, "x", nil); err == nil {
				t.Fatalf("Publish(%q) succeeded", topic)
			}
		}
		if err := h.Publish(context.Background(), core.TopicDeck, "x", func() {}); err == nil {
			t.Fatal("Publish with unmarshalable data succeeded")
		}
	})

	t.Run("ShutdownClosesWithGoingAway", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		a, b := dial(t, srv), dial(t, srv)
		a.subscribe([]string{core.TopicDeck}, nil)
		b.sync()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		errc := make(chan error, 1)
		go func() { errc <- h.Shutdown(ctx) }()
		a.expectClose(websocket.StatusGoingAway, 5*time.Second)
		b.expectClose(websocket.StatusGoingAway, 5*time.Second)
		if err := <-errc; err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		if err := h.Publish(context.Background(), core.TopicDeck, "slide.changed", nil); err == nil {
			t.Fatal("Publish after Shutdown succeeded")
		}
		resp, err := http.Get(srv.URL)
		if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("after Shutdown: %v %v, want 503", resp, err)
		}
		resp.Body.Close()
	})

	t.Run("UnansweredPingDropsConnection", func(t *testing.T) {
		h, srv := startHub(t, Options{PingInterval: 50 * time.Millisecond, PongTimeout: 100 * time.Millisecond})
		c := dial(t, srv)
		c.sync()
		// The client stops reading, so it never answers pings.
		eventually(t, 5*time.Second, "the dead peer to be dropped", func() bool {
			h.mu.Lock()
			defer h.mu.Unlock()
			return len(h.clients) == 0
		})
	})

	t.Run("AnsweredPingsKeepConnection", func(t *testing.T) {
		h, srv := startHub(t, Options{PingInterval: 20 * time.Millisecond, PongTimeout: time.Second})
		c := dial(t, srv)
		c.subscribe([]string{core.TopicDeck}, nil)
		go func() { // reading answers pings
			time.Sleep(300 * time.Millisecond)
			publish(t, h, core.TopicDeck, "slide.changed", nil)
		}()
		c.expectEvents(core.TopicDeck, 1, 1)
	})

	t.Run("ResubscribeWithSinceReplaysAgain", func(t *testing.T) {
		h, srv := startHub(t, Options{})
		c := dial(t, srv)
		c.subscribe([]string{core.TopicDeck}, nil)
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		publish(t, h, core.TopicDeck, "slide.changed", nil)
		c.expectEvents(core.TopicDeck, 1, 2)
		// After a resync the client reloads and subscribes from its new seq.
		got := c.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 1})
		if len(got) != 1 || got[0].Seq != 2 {
			t.Fatalf("got %+v", got)
		}
	})
}

func TestEventFrameShape(t *testing.T) {
	prefix, suffix, err := eventParts(core.UserTopic(3), "stats.progress", map[string]string{"stage": "done"},
		time.Date(2025, 3, 1, 12, 0, 0, 5e6, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	got := string(buildFrame(prefix, 42, suffix))
	want := `{"type":"event","topic":"user","seq":42,"event":"stats.progress","data":{"stage":"done"},"ts":"2025-03-01T12:00:00.005Z"}`
	if got != want {
		t.Fatalf("frame\n got %s\nwant %s", got, want)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatal(err)
	}
}

// A client may send frames in the same packet as its handshake; they sit in
// net/http's buffer when the hub swaps in its own.
func TestFramesSentWithHandshakeAreKept(t *testing.T) {
	t.Parallel()
	_, srv := startHub(t, Options{})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "GET / HTTP/1.1\r\nHost: " + srv.Listener.Addr().String() + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	ping := []byte(`{"type":"ping"}`)
	key := [4]byte{1, 2, 3, 4}
	msg := append([]byte(req), 0x81, 0x80|byte(len(ping)))
	msg = append(msg, key[:]...)
	for i, b := range ping {
		msg = append(msg, b^key[i%4])
	}
	if _, err := conn.Write(msg); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %v %v", resp, err)
	}
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(br, hdr); err != nil {
		t.Fatal(err)
	}
	body := make([]byte, hdr[1])
	if _, err := io.ReadFull(br, body); err != nil {
		t.Fatal(err)
	}
	if hdr[0] != 0x81 || string(body) != `{"type":"pong"}` {
		t.Fatalf("got frame %x %q, want a pong", hdr, body)
	}
}
