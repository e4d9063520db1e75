// The captains room's calls.

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func (s *Server) roomHistory(w http.ResponseWriter, r *http.Request) {
	v, err := s.Room.History(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

type messageInput struct {
	Text string `json:"text"`
}

func (s *Server) roomPost(w http.ResponseWriter, r *http.Request) {
	var in messageInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	m, err := s.Room.Post(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Text)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"message": m})
}
