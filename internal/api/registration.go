// The organisers' calls on registration: the cap, the check-in window, promotions from the waitlist.

package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

func (s *Server) setCap(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Cap int `json:"cap"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Tournaments.SetCap(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Cap)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"places": p})
}

func (s *Server) setCheckin(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Deadline *time.Time `json:"deadline"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Tournaments.OpenCheckin(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Deadline)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"places": p})
}

func (s *Server) promote(w http.ResponseWriter, r *http.Request) {
	userID, err := pathID(r, "userID", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	e, err := s.Tournaments.Promote(r.Context(), actorOf(r), chi.URLParam(r, "name"), userID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"entry": e})
}
