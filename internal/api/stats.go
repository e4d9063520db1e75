package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/stats"
)

func (s *Server) statsRoutes() chi.Router {
	r := chi.NewRouter()
	// Anonymous callers may read a screenshot, but one whose token has
	// expired is told so: their stats would silently not be saved.
	r.With(refuseBadToken).Post("/extract", s.extractStats)
	r.With(requireUserSaying(stats.MsgLoginToSave), s.perUser(ratelimit.SaveUser)).Post("/save", s.saveStats)
	r.Group(func(r chi.Router) {
		r.Use(requireUser)
		r.Get("/get", s.getStats)
		r.Delete("/delete", s.deleteStats)
	})
	return r
}

// requireUserSaying refuses anonymous callers with the seed's own message.
func requireUserSaying(msg string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := currentUser(r.Context()); !ok {
				writeError(w, r, errs.E(errs.Unauthorized, "%s", msg))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func (s *Server) saveStats(w http.ResponseWriter, r *http.Request) {
	var in stats.SaveInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.Stats.Save(r.Context(), actorOf(r), in)
	if err != nil && errs.KindOf(err) == errs.Internal {
		err = errs.Wrap(errs.E(errs.Internal, stats.MsgSaveFailed), err) // the seed's words, the cause in the log
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Stats saved successfully!", "stats": st})
}

func (s *Server) getStats(w http.ResponseWriter, r *http.Request) {
	st, err := s.Stats.Get(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "stats": st})
}

func (s *Server) deleteStats(w http.ResponseWriter, r *http.Request) {
	if err := s.Stats.Delete(r.Context(), actorOf(r)); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Stats deleted."})
}
