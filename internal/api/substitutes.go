// Substitutes: a captain asks to sign one, an organiser approves or refuses.

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func (s *Server) substitutes(w http.ResponseWriter, r *http.Request) {
	b, err := s.Auction.Substitutes(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

func (s *Server) askSubstitute(w http.ResponseWriter, r *http.Request) {
	var in captainInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	req, err := s.Auction.AskSubstitute(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.UserID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"request": req})
}

// decideSubstitute answers a request: approve, or refuse with a reason.
func (s *Server) decideSubstitute(w http.ResponseWriter, r *http.Request, approve bool) {
	var in struct {
		Reason string `json:"reason"`
	}
	id, err := pathID(r, "requestID", "Request")
	if err == nil && !approve {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	req, err := s.Auction.DecideSubstitute(r.Context(), actorOf(r), chi.URLParam(r, "name"), id, approve, in.Reason)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"request": req})
}

func (s *Server) approveSubstitute(w http.ResponseWriter, r *http.Request) {
	s.decideSubstitute(w, r, true)
}

func (s *Server) refuseSubstitute(w http.ResponseWriter, r *http.Request) {
	s.decideSubstitute(w, r, false)
}
