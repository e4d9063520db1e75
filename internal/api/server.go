// Package api holds Pitlane's HTTP layer: chi routes per resource under /api,
// handlers that decode, call one service and encode, the one table from
// error kinds to statuses, and the middleware every request passes.
package api

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/audit"
	"github.com/pitlane/pitlane/internal/calendar"
	"github.com/pitlane/pitlane/internal/chat"
	"github.com/pitlane/pitlane/internal/cheers"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/deck"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/hub"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/metrics"
	"github.com/pitlane/pitlane/internal/moderation"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/payments"
	"github.com/pitlane/pitlane/internal/prizes"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/records"
	"github.com/pitlane/pitlane/internal/room"
	"github.com/pitlane/pitlane/internal/social"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/streams"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Images reads stored images.
type Images interface {
	FindImage(ctx context.Context, id string) (core.Image, error)
}

// Newsletter keeps subscribers of the footer form.
type Newsletter interface {
	Subscribe(ctx context.Context, email string) error
}

// Pinger tells whether the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Server holds what the handlers call.
type Server struct {
	Config      config.Config
	Accounts    *accounts.Service
	Stats       *stats.Service
	Tournaments *tournament.Service
	Audit       *audit.Service
	Auction     *auction.Service
	Room        *room.Service
	Moderation  *moderation.Service
	Chat        *chat.Service
	Matches     *matches.Service
	Records     *records.Service
	Calendar    *calendar.Service
	Deck        *deck.Service
	Cheers      *cheers.Service
	Social      *social.Service
	Notify      *notify.Service
	Metrics     *metrics.Service
	Streams     *streams.Service
	Prizes      *prizes.Service // a season's money; nil: none
	Payments    *payments.Service
	Webhooks    WebhookVerifier // Stripe's signed events; nil: payments off
	Images      Images
	Newsletter  Newsletter
	DB          Pinger
	Hub         http.Handler   // GET /api/ws
	Uploads     *stats.Uploads // POST /api/stats/extract
	Limits      *ratelimit.Limiters
	Registry    *prometheus.Registry
	Web         fs.FS // the built web app (web/dist), may be empty
	Log         *slog.Logger

	rosters rosterCache
	reads   readBatches // public pages read once for the requests that come together
	cards   pngCache    // link previews' pictures, drawn once
}

// MetricsHandler serves the Prometheus metrics at /metrics, and Go's
// profiles at /debug/pprof/ (where a bid's CPU goes, measured on the real
// server), for a listener of their own (METRICS_ADDR): neither is on the
// app's port.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return mux
}

// Handler builds the router.
func (s *Server) Handler() http.Handler {
	var trusted []netip.Prefix
	for _, p := range s.Config.TrustedProxies {
		if pfx, err := netip.ParsePrefix(p); err == nil {
			trusted = append(trusted, pfx)
		} else if a, err := netip.ParseAddr(p); err == nil {
			trusted = append(trusted, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	metrics := newHTTPMetrics(s.Registry)

	r := chi.NewRouter()
	r.Use(middleware.RequestID, clientIPs(trusted), logRequests(s.Log), middleware.Recoverer,
		securityHeaders, cors(s.Config.CORSOrigins), metrics.handler, refuseControls)

	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", s.ready)

	r.Route("/api", func(r chi.Router) {
		r.Use(noTrailingSlash, s.authenticate)
		r.NotFound(apiNotFound)
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed"})
		})
		if s.Hub != nil {
			// Hijacked: no compression around it. The hub bounds the
			// websockets per client address, the address as the rate
			// limits reckon it (TRUSTED_PROXIES, an IPv6 client's /64).
			r.Get("/ws", func(w http.ResponseWriter, r *http.Request) {
				s.Hub.ServeHTTP(w, r.WithContext(hub.WithClientIP(r.Context(), limitIP(r))))
			})
		}
		r.Group(func(r chi.Router) {
			r.Use(middleware.Compress(5, "application/json"))
			r.Get("/openapi.json", serveOpenAPI)
			r.Get("/config", s.publicConfig)
			r.Mount("/auth", s.authRoutes())
			r.Mount("/stats", s.statsRoutes())
			r.Mount("/tournament", s.tournamentRoutes())
			r.Mount("/tournaments", s.leagueRoutes())
			r.Mount("/matches", s.matchRoutes())
			r.Mount("/admin", s.adminRoutes())
			r.Mount("/me", s.meRoutes())
			r.With(requireUser, s.perUser(ratelimit.ReportUser)).Post("/reports", s.fileReport)
			r.Mount("/rooms", s.roomRoutes())
			r.Post("/notifications/off", s.notificationsOff)
			r.Mount("/calendar", s.calendarRoutes())
			r.Mount("/players", s.playerRoutes())
			r.With(publicRead).Get("/leaderboards/{kind}", s.leaderboard)
			r.Get("/images/{id}", s.image)
			r.Mount("/og", s.ogRoutes())
			r.Get("/deck", s.deckCurrent)
			r.Post("/deck", s.deckMove)
			r.Post("/cheers", s.cheer)
			s.socialRoutes(r)
			r.Post("/newsletter", s.subscribe)
			r.Post("/rum", s.rum)
			r.Post("/webhooks/stripe", s.stripeWebhook)
			r.Get("/metrics/summary", s.metricsSummary)
			r.With(publicRead).Get("/streams", s.streamList)
			r.Post("/webhooks/twitch", s.twitchWebhook)
		})
	})
	r.NotFound(s.webApp().ServeHTTP)
	return r
}

// apiNotFound answers a path the API does not have.
func apiNotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, errs.E(errs.NotFound, "No such API path"))
}

// noTrailingSlash answers an API path that ends in a slash as one the API
// does not have: the API's paths are the OpenAPI document's, none of which
// ends so (a mounted resource would otherwise answer /api/tournaments/ as
// /api/tournaments). Not a redirect: a client that sent a POST there would
// follow it with a GET.
func noTrailingSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			apiNotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.DB.Ping(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "database unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *Server) publicConfig(w http.ResponseWriter, r *http.Request) {
	extractor := "ocr"
	if s.Config.GeminiAPIKey != "" {
		extractor = "gemini"
	}
	current := s.Config.DefaultTournament
	if t, err := s.Tournaments.Current(r.Context()); err == nil {
		current = t.Name // DEFAULT_TOURNAMENT until it is completed, then the next season
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"google_client_id":   s.Config.GoogleClientID,
		"default_tournament": current,
		"extractor":          extractor,
		"discord_link":       s.Config.DiscordClientID != "",
		"rum_sample_rate":    s.Config.RUMSampleRate,
		"streams":            s.Streams.On(),
	})
}

// limited answers 429 when the request is over rule for key.
func (s *Server) limited(w http.ResponseWriter, r *http.Request, rule ratelimit.Rule, key string) bool {
	if s.Limits == nil || !s.Limits.Exceeded(w, r, rule, key) {
		return false
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]string{"message": "Too many requests. Please try again later."})
	return true
}
