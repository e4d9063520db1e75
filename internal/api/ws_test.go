package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

// GET /api/ws bounds the websockets one client address holds
// (WS_CONNECTIONS_PER_IP, scaled by RATE_LIMIT_SCALE like the other
// limits), counting the address as the rate limits do: behind a trusted
// proxy the forwarded one, so the players behind it do not share the
// proxy's places, and an IPv6 client by its /64.
func TestWebsocketsPerClientAddress(t *testing.T) {
	s := newServer(t, testkit.Options{RateLimitScale: 1.5, Configure: func(c *config.Config) {
		behindProxy(c)
		c.WSConnsPerIP = 2 // × 1.5: 3 places per address
	}})
	url := "ws" + strings.TrimPrefix(s.URL, "http") + "/api/ws"
	dial := func(from string) int {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"X-Forwarded-For": {from}}})
		if err == nil {
			t.Cleanup(func() { conn.CloseNow() })
			return http.StatusSwitchingProtocols
		}
		if resp == nil {
			t.Fatalf("dial as %s: %v", from, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Errorf("429 without Retry-After")
		}
		return resp.StatusCode
	}
	for i, from := range []string{"203.0.113.7", "203.0.113.7", "203.0.113.7", "2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6::3"} {
		if st := dial(from); st != http.StatusSwitchingProtocols {
			t.Fatalf("connection %d, from %s: %d, want 101", i+1, from, st)
		}
	}
	for _, from := range []string{"203.0.113.7", "2001:db8:5:6::ffff"} {
		if st := dial(from); st != http.StatusTooManyRequests {
			t.Errorf("a 4th connection from %s: %d, want 429", from, st)
		}
	}
	for _, from := range []string{"203.0.113.8", "2001:db8:5:7::1"} {
		if st := dial(from); st != http.StatusSwitchingProtocols {
			t.Errorf("another client behind the proxy, %s: %d, want 101", from, st)
		}
	}
}
