package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/metrics"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// metricsAdminRoutes are the organisers' dashboard (/api/admin/metrics).
func (s *Server) metricsAdminRoutes(r chi.Router) {
	r.Get("/metrics", s.metricsDashboard)
	r.Get("/metrics/live", s.metricsLive)
	r.With(requireUser, s.perUser(ratelimit.ReminderAdmin)).Post("/metrics/reminders", s.metricsRemind)
}

func (s *Server) metricsDashboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d, err := s.Metrics.Dashboard(r.Context(), actorOf(r), q.Get("tournament"), q.Get("since"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) metricsLive(w http.ResponseWriter, r *http.Request) {
	live, err := s.Metrics.LiveView(r.Context(), actorOf(r), r.URL.Query().Get("tournament"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, live)
}

func (s *Server) metricsRemind(w http.ResponseWriter, r *http.Request) {
	var in metrics.ReminderInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.Metrics.Remind(r.Context(), actorOf(r), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// metricsSummary is the deck's goals with their figures: counts and
// shares anyone may read, worked out once a minute per instance.
func (s *Server) metricsSummary(w http.ResponseWriter, r *http.Request) {
	sum, err := s.Metrics.Summary(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(sum)
}

// rum takes a browser's page timings (navigator.sendBeacon): no sign-in,
// a body of a few KB, a known page pattern and known metrics, a bounded
// number a minute per client address. It answers 204 with no body.
func (s *Server) rum(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.RUMIP, limitIP(r)) {
		return
	}
	// sendBeacon sends a Blob's type, or text/plain for a string.
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	if ct != "" && !strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "text/plain") {
		writeError(w, r, errs.E(errs.Unsupported, "Content-Type must be application/json"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, metrics.MaxBeacon))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, r, errs.E(errs.TooLarge, "A beacon must be at most %d bytes", metrics.MaxBeacon))
		return
	}
	if err != nil {
		writeError(w, r, errs.E(errs.Invalid, "Request body could not be read"))
		return
	}
	var b metrics.Beacon
	if err := decodeJSON(bytes.NewReader(body), &b); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Metrics.Record(r.Context(), limitIP(r), b); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
