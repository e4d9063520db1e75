// The presenter's deck: its current slide, moved by the presenter.

package api

import (
	"net/http"
)

func (s *Server) deckCurrent(w http.ResponseWriter, r *http.Request) {
	st, err := s.Deck.Current(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

type slideInput struct {
	Slide int `json:"slide"`
}

func (s *Server) deckMove(w http.ResponseWriter, r *http.Request) {
	var in slideInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.Deck.Move(r.Context(), actorOf(r), in.Slide)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}
