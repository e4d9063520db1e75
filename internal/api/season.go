package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// seasonAdminRoutes are the organisers' calls on a season's own identity
// under /api/admin/tournaments/{name}: its name, hero line, description,
// dates and banner.
func (s *Server) seasonAdminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Put("/tournaments/{name}", s.setSeasonIdentity)
		r.Put("/tournaments/{name}/banner", s.setSeasonBanner)
		r.Delete("/tournaments/{name}/banner", s.removeSeasonBanner)
	})
}

func (s *Server) setSeasonIdentity(w http.ResponseWriter, r *http.Request) {
	var in tournament.IdentityInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	info, err := s.Tournaments.SetIdentity(r.Context(), actorOf(r), chi.URLParam(r, "name"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) setSeasonBanner(w http.ResponseWriter, r *http.Request) {
	data, err := readImagePart(w, r, "banner", "an image")
	if err != nil {
		writeError(w, r, err)
		return
	}
	info, err := s.Tournaments.SetBanner(r.Context(), actorOf(r), chi.URLParam(r, "name"), data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) removeSeasonBanner(w http.ResponseWriter, r *http.Request) {
	info, err := s.Tournaments.RemoveBanner(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}
