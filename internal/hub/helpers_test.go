package hub

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pitlane/pitlane/internal/core"
)

// fakeAuth accepts the tokens it maps.
type fakeAuth map[string]core.Actor

func (a fakeAuth) Authenticate(_ context.Context, token string) (core.Actor, error) {
	id, ok := a[token]
	if !ok {
		return core.Actor{}, errors.New("bad token")
	}
	return id, nil
}

var testAuth = fakeAuth{
	"user7":    {UserID: 7},
	"user8":    {UserID: 8},
	"captain9": {UserID: 9, Captains: []core.Captaincy{{TournamentID: 1, Tournament: "PPL7", Team: "C"}}},
	// captain of the next season's team C: not of PPL7's room
	"captain10": {UserID: 10, Captains: []core.Captaincy{{TournamentID: 2, Tournament: "PPL8", Team: "C"}}},
	"admin1":    {UserID: 1, Admin: true},
}

// startHub serves a new hub on a loopback httptest server.
func startHub(t *testing.T, opts Options) (*Hub, *httptest.Server) {
	t.Helper()
	return serveHub(t, opts, nil)
}

// serveHub serves a new hub on a loopback httptest server whose listener
// wrap may replace.
func serveHub(t *testing.T, opts Options, wrap func(net.Listener) net.Listener) (*Hub, *httptest.Server) {
	t.Helper()
	if opts.Auth == nil {
		opts.Auth = testAuth
	}
	h, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewUnstartedServer(h)
	if wrap != nil {
		srv.Listener = wrap(srv.Listener)
	}
	srv.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Shutdown(ctx)
		srv.Close()
	})
	return h, srv
}

func wsURL(srv *httptest.Server) string { return "ws" + strings.TrimPrefix(srv.URL, "http") }

// frame is any server → client frame.
type frame struct {
	Type    string          `json:"type"`
	Topic   string          `json:"topic"`
	Seq     int64           `json:"seq"`
	Event   string          `json:"event"`
	Data    json.RawMessage `json:"data"`
	TS      string          `json:"ts"`
	Message string          `json:"message"`
	// RetryAfterMs: a resync's window to spread the reads over.
	RetryAfterMs int64 `json:"retry_after_ms"`
	// Path and Page: a resync that brings the page the client named.
	Path string          `json:"path"`
	Page json.RawMessage `json:"page"`
}

type testClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func dial(t *testing.T, srv *httptest.Server) *testClient {
	t.Helper()
	return dialWith(t, srv, nil)
}

func dialWith(t *testing.T, srv *httptest.Server, opts *websocket.DialOptions) *testClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, wsURL(srv), opts)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { _ = conn.CloseNow() })
	return &testClient{t: t, conn: conn}
}

func (c *testClient) send(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// read returns the next frame or the read error.
func (c *testClient) read(timeout time.Duration) (frame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, b, err := c.conn.Read(ctx)
	if err != nil {
		return frame{}, err
	}
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		return frame{}, err
	}
	return f, nil
}

func (c *testClient) next() frame {
	c.t.Helper()
	f, err := c.read(5 * time.Second)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

// sync sends a ping and returns the frames that came before its pong. The
// server handles frames in order, so afterwards earlier subscribes are live.
func (c *testClient) sync() []frame {
	c.t.Helper()
	c.send(map[string]string{"type": "ping"})
	var got []frame
	for {
		f := c.next()
		if f.Type == "pong" {
			return got
		}
		got = append(got, f)
	}
}

func (c *testClient) subscribe(topics []string, since map[string]int64) []frame {
	c.t.Helper()
	m := map[string]any{"type": "subscribe", "topics": topics}
	if since != nil {
		m["since"] = since
	}
	c.send(m)
	return c.sync()
}

func (c *testClient) auth(token string) {
	c.t.Helper()
	c.send(map[string]string{"type": "auth", "token": token})
}

// expectEvents reads n frames and checks they are events of topic with
// seqs from, from+1, ...
func (c *testClient) expectEvents(topic string, from int64, n int) []frame {
	c.t.Helper()
	out := make([]frame, 0, n)
	for i := range n {
		f := c.next()
		if f.Type != "event" || f.Topic != topic || f.Seq != from+int64(i) {
			c.t.Fatalf("frame %d: got %+v, want event %s seq %d", i, f, topic, from+int64(i))
		}
		out = append(out, f)
	}
	return out
}

// expectClose reads until the connection ends and checks its close code.
func (c *testClient) expectClose(code websocket.StatusCode, timeout time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		_, err := c.read(time.Until(deadline))
		if err == nil {
			continue
		}
		if got := websocket.CloseStatus(err); got != code {
			c.t.Fatalf("connection ended with %v (%v), want close %d", got, err, code)
		}
		return
	}
}

func publish(t *testing.T, h *Hub, topic, ev string, data any) {
	t.Helper()
	if err := h.Publish(context.Background(), topic, ev, data); err != nil {
		t.Fatalf("Publish(%s, %s): %v", topic, ev, err)
	}
}

// eventually polls cond until it holds or the timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var _ http.Handler = (*Hub)(nil)

func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return -1
	}
	return m.GetCounter().GetValue()
}
