package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// undoRoutes are the organisers' ways out when a season goes wrong, under
// /api/admin: the fixtures reset (and the resets read back), a player or
// a team withdrawn.
func (s *Server) undoRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Delete("/tournaments/{name}/bracket", s.resetBracket)
		r.Get("/tournaments/{name}/resets", s.resets)
		r.Post("/tournaments/{name}/players/{userID}/withdraw", s.withdrawPlayer)
		r.Post("/tournaments/{name}/teams/{team}/withdraw", s.withdrawTeam)
	})
}

// resetBracket resets the fixtures; ?force=true when matches have results
// (archived with them).
func (s *Server) resetBracket(w http.ResponseWriter, r *http.Request) {
	force := false
	switch r.URL.Query().Get("force") {
	case "", "false":
	case "true":
		force = true
	default:
		writeError(w, r, errs.E(errs.Invalid, "force is true or false"))
		return
	}
	reset, err := s.Matches.ResetFixtures(r.Context(), actorOf(r), chi.URLParam(r, "name"), force)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"reset": reset})
}

func (s *Server) resets(w http.ResponseWriter, r *http.Request) {
	list, err := s.Matches.Resets(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"resets": list})
}

func (s *Server) withdrawPlayer(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "userID", "Player")
	var in tournament.WithdrawInput
	if err == nil {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.Tournaments.WithdrawPlayer(r.Context(), actorOf(r), chi.URLParam(r, "name"), id, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"withdrawal": out})
}

func (s *Server) withdrawTeam(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Reason string `json:"reason"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.Matches.WithdrawTeam(r.Context(), actorOf(r), chi.URLParam(r, "name"), chi.URLParam(r, "team"), in.Reason)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"withdrawal": out})
}
