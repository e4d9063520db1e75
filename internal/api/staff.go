package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// staffRoutes are a tournament's co-organisers (granted by the site's
// organisers) and the account search they are picked with.
func (s *Server) staffRoutes(r chi.Router) {
	r.Get("/tournaments/{name}/staff", s.listStaff)
	r.Put("/tournaments/{name}/staff/{userID}", s.grantStaff)
	r.Delete("/tournaments/{name}/staff/{userID}", s.revokeStaff)
	r.Get("/accounts", s.findAccounts)
}

func (s *Server) listStaff(w http.ResponseWriter, r *http.Request) {
	list, err := s.Tournaments.ListStaff(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"staff": list})
}

func (s *Server) grantStaff(w http.ResponseWriter, r *http.Request) {
	s.changeStaff(w, r, true)
}

func (s *Server) revokeStaff(w http.ResponseWriter, r *http.Request) {
	s.changeStaff(w, r, false)
}

func (s *Server) changeStaff(w http.ResponseWriter, r *http.Request, grant bool) {
	id, err := pathID(r, "userID", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	change := s.Tournaments.RevokeStaff
	if grant {
		change = s.Tournaments.GrantStaff
	}
	list, err := change(r.Context(), actorOf(r), chi.URLParam(r, "name"), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"staff": list})
}

func (s *Server) findAccounts(w http.ResponseWriter, r *http.Request) {
	list, err := s.Accounts.FindAccounts(r.Context(), actorOf(r), r.URL.Query().Get("q"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"accounts": list})
}
