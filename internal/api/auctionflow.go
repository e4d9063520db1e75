// The auction's flow: pause, resume, undo the last sale, nomination turns.

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func (s *Server) pauseAuction(w http.ResponseWriter, r *http.Request) {
	news, err := s.Auction.Pause(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, news)
}

func (s *Server) resumeAuction(w http.ResponseWriter, r *http.Request) {
	news, err := s.Auction.Resume(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, news)
}

func (s *Server) undoLastSale(w http.ResponseWriter, r *http.Request) {
	lot, err := s.Auction.UndoLastSale(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"lot": lot})
}

type turnsInput struct {
	Enabled bool `json:"enabled"`
	Seconds int  `json:"seconds"`
}

func (s *Server) setTurns(w http.ResponseWriter, r *http.Request) {
	var in turnsInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	f, err := s.Auction.SetTurns(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Enabled, in.Seconds)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"flow": f})
}

func (s *Server) nominate(w http.ResponseWriter, r *http.Request) {
	var in captainInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	lot, err := s.Auction.Nominate(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.UserID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"lot": lot})
}
