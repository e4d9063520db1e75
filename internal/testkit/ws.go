package testkit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// WS is a live-events client of a test server.
type WS struct {
	t    testing.TB
	conn *websocket.Conn
}

// Frame is one server frame.
type Frame struct {
	Type    string         `json:"type"`
	Topic   string         `json:"topic"`
	Seq     int64          `json:"seq"`
	Event   string         `json:"event"`
	Data    map[string]any `json:"data"`
	Message string         `json:"message"`
	// Counts and WindowMs: a cheers frame's window.
	Counts   map[string]int64 `json:"counts"`
	WindowMs int64            `json:"window_ms"`
}

// DialWS opens /api/ws on base (an http:// URL), authenticating with token if given.
func DialWS(t testing.TB, base, token string) *WS {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/ws", nil)
	if err != nil {
		t.Fatalf("dial ws: %v", err)
	}
	c.SetReadLimit(1 << 20)
	w := &WS{t: t, conn: c}
	t.Cleanup(func() { c.CloseNow() })
	if token != "" {
		w.Send(map[string]string{"type": "auth", "token": token})
	}
	return w
}

// Send writes one JSON frame.
func (w *WS) Send(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.conn.Write(ctx, websocket.MessageText, b); err != nil {
		w.t.Fatalf("ws write: %v", err)
	}
}

// Subscribe asks for topics, replaying after since where given.
func (w *WS) Subscribe(since map[string]int64, topics ...string) {
	w.t.Helper()
	msg := map[string]any{"type": "subscribe", "topics": topics}
	if since != nil {
		msg["since"] = since
	}
	w.Send(msg)
}

// Next reads the next frame other than pong, failing after timeout.
func (w *WS) Next(timeout time.Duration) Frame {
	w.t.Helper()
	return w.next(timeout, true)
}

func (w *WS) next(timeout time.Duration, skipPong bool) Frame {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		_, b, err := w.conn.Read(ctx)
		if err != nil {
			w.t.Fatalf("ws read: %v", err)
		}
		var f Frame
		json.Unmarshal(b, &f)
		if f.Type != "pong" || !skipPong {
			return f
		}
	}
}

// WaitEvent reads frames until event arrives on topic.
func (w *WS) WaitEvent(topic, event string, timeout time.Duration) Frame {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		f := w.Next(time.Until(deadline))
		if f.Type == "event" && f.Topic == topic && f.Event == event {
			return f
		}
	}
}

// Ping round-trips a ping frame, proving earlier frames were handled.
func (w *WS) Ping() {
	w.t.Helper()
	w.Send(map[string]string{"type": "ping"})
	for f := w.next(5*time.Second, false); f.Type != "pong"; f = w.next(5*time.Second, false) {
		if f.Type == "error" {
			w.t.Fatalf("ws error: %s", f.Message)
		}
	}
}

// ExpectClose reads until the server closes the connection and checks the
// close code.
func (w *WS) ExpectClose(code websocket.StatusCode, timeout time.Duration) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		_, _, err := w.conn.Read(ctx)
		if err == nil {
			continue
		}
		if got := websocket.CloseStatus(err); got != code {
			w.t.Fatalf("connection ended with %v (%v), want close %d", got, err, code)
		}
		return
	}
}

// Sync round-trips a ping and returns the frames that came before its pong
// (errors included): what the server answered to the frames sent before.
func (w *WS) Sync() []Frame {
	w.t.Helper()
	w.Send(map[string]string{"type": "ping"})
	var got []Frame
	for f := w.next(5*time.Second, false); f.Type != "pong"; f = w.next(5*time.Second, false) {
		got = append(got, f)
	}
	return got
}
