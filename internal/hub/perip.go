package hub

import (
	"context"
	"net"
	"net/http"
	"strconv"
)

// A client address may hold at most Options.MaxConnsPerIP websockets: each
// costs the server memory for as long as it is open, and one host opening
// thousands must not take them from everyone else. The bound is generous
// (many players behind one NAT at a LAN event share an address) and per
// instance; the rate limits elsewhere are the finer tool.

type clientIPKey struct{}

// WithClientIP tells ServeHTTP which client address the request counts
// against: the application's own reckoning of it, which believes
// X-Forwarded-For from its trusted proxies only and may group an IPv6
// client's network. Without it, the peer's address counts: behind a proxy,
// every client would share the proxy's.
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// clientIP is the address r counts against.
func clientIP(r *http.Request) string {
	if ip, _ := r.Context().Value(clientIPKey{}).(string); ip != "" {
		return ip
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// perIPRetryAfter is the Retry-After of a refusal, in seconds: a place
// frees when one of the address's connections closes, which nothing
// foretells, so it is a pause, not a promise.
const perIPRetryAfter = 30

// admit takes a place for a connection from ip, or reports that ip holds
// all it may. The caller gives the place back with release.
func (h *Hub) admit(ip string) bool {
	if h.opts.MaxConnsPerIP < 0 {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perIP[ip] >= h.opts.MaxConnsPerIP {
		return false
	}
	h.perIP[ip]++
	return true
}

// release gives back a place admit took.
func (h *Hub) release(ip string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.releaseLocked(ip)
}

func (h *Hub) releaseLocked(ip string) {
	if h.opts.MaxConnsPerIP < 0 {
		return
	}
	if h.perIP[ip] <= 1 {
		delete(h.perIP, ip) // the map holds only addresses with connections
		return
	}
	h.perIP[ip]--
}

// refusePerIP answers an upgrade past the bound: 429, as the application's
// other limits answer, with a JSON message and Retry-After.
func refusePerIP(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(perIPRetryAfter))
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte(`{"message":"Too many live connections from your address. Please close some or try again later."}` + "\n"))
}
