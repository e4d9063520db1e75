package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/metrics"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

type ctxKey int

const (
	userKey ctxKey = iota
	ipKey
)

// principal is who a request's bearer token belongs to: the account, the
// session and who it acts as in it.
type principal struct{ accounts.Authenticated }

// currentUser is the signed-in user, if any.
func currentUser(ctx context.Context) (accounts.User, bool) {
	p, ok := ctx.Value(userKey).(principal)
	return p.User, ok
}

// currentAuth is the signed-in session, if any (the zero value without).
func currentAuth(r *http.Request) accounts.Authenticated {
	p, _ := r.Context().Value(userKey).(principal)
	return p.Authenticated
}

// actorOf is who the request acts as: the zero (anonymous) Actor without a
// valid token. Services decide what it may do.
func actorOf(r *http.Request) core.Actor {
	p, _ := r.Context().Value(userKey).(principal)
	return p.Actor
}

// limitIP is the per-IP rate-limit key: the client's address, or for IPv6
// its /64, which one subscriber commonly holds whole (rotating through it
// must not buy more tries).
func limitIP(r *http.Request) string {
	ip, err := netip.ParseAddr(clientIP(r))
	if err != nil || ip.Is4() || ip.Is4In6() {
		return clientIP(r)
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

// perUser limits a signed-in route per user under rule.
func (s *Server) perUser(rule ratelimit.Rule) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			me, _ := currentUser(r.Context())
			if s.limited(w, r, rule, "user:"+strconv.FormatInt(me.ID, 10)) {
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// clientIP is the request's client address as clientIPs decided it.
func clientIP(r *http.Request) string {
	ip, _ := r.Context().Value(ipKey).(string)
	return ip
}

// clientIPs believes X-Forwarded-For only from trusted proxies (TRUSTED_PROXIES),
// taking the right-most address that is not itself a proxy.
func clientIPs(trusted []netip.Prefix) func(http.Handler) http.Handler {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			ip := host
			if a, err := netip.ParseAddr(host); err == nil && isTrusted(a.Unmap()) {
				hops := strings.Split(r.Header.Get("X-Forwarded-For"), ",")
				for i := len(hops) - 1; i >= 0; i-- {
					h := strings.TrimSpace(hops[i])
					a, err := netip.ParseAddr(h)
					if err != nil {
						break
					}
					ip = a.Unmap().String()
					if !isTrusted(a.Unmap()) {
						break
					}
				}
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ipKey, ip)))
		})
	}
}

// securityHeaders sets the headers every answer carries. Websockets may
// connect to this host only (ws: and wss: alone would let injected script
// talk to any host); HSTS is sent on https. Twitch's preview pictures and
// its player (loaded on a click on /streams) are the only outside frames.
func securityHeaders(next http.Handler) http.Handler {
	const (
		cspHead = "default-src 'self'; script-src 'self' https://accounts.google.com/gsi/client; " +
			"style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style; img-src 'self' data: blob: https://*.googleusercontent.com https://static-cdn.jtvnw.net; " +
			"connect-src 'self'"
		cspTail = " https://accounts.google.com/gsi/; frame-src https://accounts.google.com/gsi/ https://player.twitch.tv; " +
			"font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		csp := cspHead + cspTail
		if hostRe.MatchString(r.Host) {
			csp = cspHead + " ws://" + r.Host + " wss://" + r.Host + cspTail
		}
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// hostRe is a Host header safe to write into a policy.
var hostRe = regexp.MustCompile(`^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$`)

// exposedHeaders are the answer's headers a cross-origin page may read.
const exposedHeaders = "ETag, Retry-After, X-Request-Id"

// cors allows the origins of CORS_ORIGINS (same-origin needs no header),
// with credentials. Any other origin may only read: its preflight for a
// GET is answered here, and the public read API's answers allow it
// (publicRead); every other answer stays closed to it.
func cors(origins []string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := r.Header.Get("Origin")
			preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
			h := w.Header()
			if origin != "" && (slices.Contains(origins, origin) || slices.Contains(origins, "*")) {
				h.Set("Access-Control-Allow-Origin", origin)
				h.Add("Vary", "Origin")
				h.Set("Access-Control-Allow-Credentials", "true")
				h.Set("Access-Control-Expose-Headers", exposedHeaders)
				if preflight {
					h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
					h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match")
					h.Set("Access-Control-Max-Age", "600")
					w.WriteHeader(http.StatusNoContent)
					return
				}
			} else if origin != "" && preflight && strings.HasPrefix(r.URL.Path, "/api/") {
				// A read asked for with If-None-Match needs a preflight.
				// Allowing it to every path is no more than an <img> may
				// do: the answer is readable only where publicRead says so.
				if m := r.Header.Get("Access-Control-Request-Method"); m == http.MethodGet || m == http.MethodHead {
					h.Set("Access-Control-Allow-Origin", "*")
					h.Add("Vary", "Origin")
					h.Set("Access-Control-Allow-Methods", "GET, HEAD")
					h.Set("Access-Control-Allow-Headers", "If-None-Match")
					h.Set("Access-Control-Max-Age", "600")
				}
				w.WriteHeader(http.StatusNoContent)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// logRequests writes one structured line per request: never a body, a token
// or a query string (which may carry an e-mail). A 5xx is an error, unless
// the client had gone away by then (writeError answers those 499).
func logRequests(log *slog.Logger) func(http.Handler) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			r = r.WithContext(context.WithValue(r.Context(), logKey{}, log))
			next.ServeHTTP(ww, r)
			if r.URL.Path == "/healthz" {
				return
			}
			level := slog.LevelInfo
			if ww.Status() >= 500 && !clientGone(r) {
				level = slog.LevelError
			}
			log.LogAttrs(r.Context(), level, "request",
				slog.String("request_id", middleware.GetReqID(r.Context())),
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", ww.Status()), slog.Int("bytes", ww.BytesWritten()),
				slog.Duration("took", time.Since(start)), slog.String("ip", clientIP(r)))
		})
	}
}

// httpMetrics records a request count and latency per route pattern.
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pitlane_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pitlane_http_request_seconds", Help: "HTTP request latency by route.",
			Buckets: metrics.APIBounds, // the dashboard's percentiles are read from these
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

func (m *httpMetrics) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		route := "other"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		method, status := methodLabel(r.Method), statusLabel(ww.Status())
		m.requests.WithLabelValues(method, route, status).Inc()
		m.latency.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
	})
}

// methodLabel is a request's method as a label: the standard methods, and
// "other" for any a client made up (each would be a series of its own).
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// statusLabel is an answer's status as a label; the server writes a few,
// and anything outside HTTP's range is one label.
func statusLabel(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code)
}

// authenticate puts the bearer token's user in the context when there is a
// valid one; requireUser then refuses anonymous callers. A sign-in the
// request makes names its session after the browser (User-Agent).
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(accounts.WithClient(r.Context(), r.UserAgent()))
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || tok == "" {
			next.ServeHTTP(w, r)
			return
		}
		au, err := s.Accounts.Authenticate(r.Context(), strings.TrimSpace(tok))
		if err != nil {
			if errs.KindOf(err) != errs.Unauthorized {
				writeError(w, r, err)
				return
			}
			// A bad token on a public path is treated as anonymous;
			// protected paths answer 401 in requireUser.
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey, badToken{})))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey, principal{au})))
	})
}

type badToken struct{}

// refuseBadToken answers 401 to a request whose bearer token was refused,
// on paths that otherwise take anonymous callers.
func refuseBadToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, bad := r.Context().Value(userKey).(badToken); bad {
			writeError(w, r, accounts.ErrUnauthenticated)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := currentUser(r.Context()); !ok {
			writeError(w, r, accounts.ErrUnauthenticated)
			return
		}
		next.ServeHTTP(w, r)
	})
}
