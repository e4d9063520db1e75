package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/core"
)

// calendarRoutes are /api/calendar: the feeds at their secret addresses,
// which calendar apps poll with no sign-in.
func (s *Server) calendarRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/{kind}/{id}/{file}", s.calendarFeed)
	return r
}

func (s *Server) calendarFeed(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Calendar")
	if err != nil {
		writeError(w, r, err)
		return
	}
	token := strings.TrimSuffix(chi.URLParam(r, "file"), ".ics")
	body, err := s.Calendar.Render(r.Context(), chi.URLParam(r, "kind"), id, token)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.Write(body)
}

// matchCalendar is one match as a calendar file (GET /api/matches/{id}/calendar.ics).
func (s *Server) matchCalendar(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Match")
	if err != nil {
		writeError(w, r, err)
		return
	}
	body, err := s.Calendar.MatchFile(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="pitlane-match-%d.ics"`, id))
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.Write(body)
}

// calendarLink is the address of a feed for its owner: a player's own
// (/api/auth/calendar) or a team's (its members' and organisers').
func (s *Server) calendarLink(w http.ResponseWriter, r *http.Request) {
	calendarAnswer(w, r, s.Calendar.Link)
}

// calendarReset gives the feed a new address, the old one dead.
func (s *Server) calendarReset(w http.ResponseWriter, r *http.Request) {
	calendarAnswer(w, r, s.Calendar.ResetLink)
}

func calendarAnswer(w http.ResponseWriter, r *http.Request, call func(context.Context, core.Actor, string, string) (string, error)) {
	url, err := call(r.Context(), actorOf(r), chi.URLParam(r, "name"), chi.URLParam(r, "team"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}
