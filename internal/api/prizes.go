package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/prizes"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// prizeRoutes are a season's public prizes, under /api/tournaments.
func (s *Server) prizeRoutes(r chi.Router) {
	r.With(publicRead).Get("/{name}/prizes", s.prizesOf)
	s.paymentRoutes(r)
}

// prizeAdminRoutes are the organisers' money calls under /api/admin.
func (s *Server) prizeAdminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Put("/tournaments/{name}/prizes", s.setPrizes)
		r.Post("/tournaments/{name}/prizes/funding", s.fundPrizes)
		r.Get("/tournaments/{name}/payouts", s.listPayouts)
		r.Post("/payouts/{id}/paid", s.payoutPaid)
	})
}

// payoutMeRoutes are a winner's own payouts, under /api/me.
func (s *Server) payoutMeRoutes(r chi.Router) {
	r.With(s.perUser(ratelimit.LeagueAdmin)).Post("/payouts/{id}/received", s.payoutReceived)
}

func (s *Server) listPayouts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	after, _ := strconv.ParseInt(q.Get("cursor"), 10, 64)
	limit, _ := strconv.Atoi(q.Get("limit"))
	page, err := s.Prizes.ListPayouts(r.Context(), actorOf(r), chi.URLParam(r, "name"), after, limit)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

func (s *Server) payoutPaid(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Payout")
	if err != nil {
		writeError(w, r, err)
		return
	}
	var in prizes.PaidInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Prizes.MarkPaid(r.Context(), actorOf(r), id, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) payoutReceived(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Payout")
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Prizes.MarkReceived(r.Context(), actorOf(r), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) prizesOf(w http.ResponseWriter, r *http.Request) {
	if s.Prizes == nil {
		writeError(w, r, errs.E(errs.NotFound, "No prizes here"))
		return
	}
	v, err := s.Prizes.Get(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) setPrizes(w http.ResponseWriter, r *http.Request) {
	var in prizes.Input
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := s.Prizes.Set(r.Context(), actorOf(r), chi.URLParam(r, "name"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) fundPrizes(w http.ResponseWriter, r *http.Request) {
	var in prizes.FundInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := s.Prizes.Fund(r.Context(), actorOf(r), chi.URLParam(r, "name"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}
