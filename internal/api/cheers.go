// Live cheers: a spectator's tap, counted per topic and window (internal/cheers).

package api

import (
	"net/http"

	"github.com/pitlane/pitlane/internal/errs"
)

type cheerInput struct {
	Topic string `json:"topic"`
	Kind  string `json:"kind"`
}

func (s *Server) cheer(w http.ResponseWriter, r *http.Request) {
	if s.Cheers == nil {
		writeError(w, r, errs.E(errs.Unavailable, "Cheers are off"))
		return
	}
	var in cheerInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Cheers.Cheer(r.Context(), actorOf(r), limitIP(r), in.Topic, in.Kind); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
