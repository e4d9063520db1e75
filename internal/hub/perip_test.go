package hub

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// fromAddr dials from a loopback address of its own (Linux answers on all
// of 127.0.0.0/8), so the hub sees another client address.
func fromAddr(ip string) *websocket.DialOptions {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}}
}

// dialRefused dials and expects the upgrade to be refused with 429, a JSON
// message and Retry-After.
func dialRefused(t *testing.T, url string, opts *websocket.DialOptions) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, url, opts)
	if err == nil {
		conn.CloseNow()
		t.Fatal("the upgrade was accepted; want 429")
	}
	if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("dial: %v (response %+v); want 429", err, resp)
	}
	if resp.Header.Get("Retry-After") == "" || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("429 headers: %v; want Retry-After and a JSON body", resp.Header)
	}
	body, _ := io.ReadAll(resp.Body)
	var m struct{ Message string }
	if err := json.Unmarshal(body, &m); err != nil || m.Message == "" {
		t.Errorf("429 body %q: want {\"message\":…}", body)
	}
}

// placesHeld is how many connections ip holds in h's count.
func placesHeld(h *Hub, ip string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.perIP[ip]
}

// One client address holds at most MaxConnsPerIP websockets: the next
// upgrade is refused with 429; a connection that closes frees its place,
// an upgrade that fails takes none, and other addresses are not affected.
func TestConnectionsPerIP(t *testing.T) {
	t.Parallel()
	h, srv := startHub(t, Options{MaxConnsPerIP: 3})
	var held []*testClient
	for range 3 {
		c := dial(t, srv)
		c.sync()
		held = append(held, c)
	}
	dialRefused(t, wsURL(srv), nil)

	t.Run("AnotherAddressIsNotCounted", func(t *testing.T) {
		c := dialWith(t, srv, fromAddr("127.0.0.2"))
		c.sync()
	})

	t.Run("AClosedConnectionFreesItsPlace", func(t *testing.T) {
		if err := held[0].conn.Close(websocket.StatusNormalClosure, ""); err != nil {
			t.Fatal(err)
		}
		eventually(t, 5*time.Second, "the closed connection to be gone", func() bool { return placesHeld(h, "127.0.0.1") == 2 })
		c := dial(t, srv)
		c.sync()
		dialRefused(t, wsURL(srv), nil)
		held[0] = c
	})

	t.Run("AFailedUpgradeTakesNoPlace", func(t *testing.T) {
		held[0].conn.CloseNow()
		eventually(t, 5*time.Second, "the closed connection to be gone", func() bool { return placesHeld(h, "127.0.0.1") == 2 })
		for range 5 { // plain GETs: not websockets, refused by the upgrade
			resp, err := http.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusSwitchingProtocols || resp.StatusCode == http.StatusTooManyRequests {
				t.Fatalf("plain GET: %s", resp.Status)
			}
		}
		dial(t, srv).sync()
	})
}

// The address a request counts against is the one WithClientIP gives it
// (the application's, which knows its proxies), not the peer's.
func TestConnectionsPerIPCountTheGivenAddress(t *testing.T) {
	t.Parallel()
	h, err := New(Options{Auth: testAuth, MaxConnsPerIP: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithClientIP(r.Context(), r.Header.Get("X-Client"))))
	}))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Shutdown(ctx)
		srv.Close()
	})
	as := func(ip string) *websocket.DialOptions {
		return &websocket.DialOptions{HTTPHeader: http.Header{"X-Client": {ip}}}
	}
	dialWith(t, srv, as("198.51.100.1")).sync()
	dialWith(t, srv, as("198.51.100.2")).sync()
	dialRefused(t, wsURL(srv), as("198.51.100.1"))
}
