// Reports and sanctions (internal/moderation).

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/moderation"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// moderationAdminRoutes are the staff's: the report queue and sanctions.
func (s *Server) moderationAdminRoutes(r chi.Router) {
	r.With(requireUser).Get("/reports", s.reportQueue)
	staff := r.With(requireUser, s.perUser(ratelimit.ModerationAdmin))
	staff.Post("/reports/{id}/close", s.closeReport)
	staff.Post("/sanctions", s.giveSanction)
	staff.Delete("/sanctions/{id}", s.liftSanction)
}

func (s *Server) fileReport(w http.ResponseWriter, r *http.Request) {
	var in moderation.ReportInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	rep, err := s.Moderation.File(r.Context(), actorOf(r), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"report": map[string]any{"id": rep.ID, "kind": rep.Kind, "status": rep.Status},
		"message": "Thank you: the staff will look at it."})
}

func (s *Server) reportQueue(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	limit, err := paging.Limit(v.Get("limit"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Moderation.Reports(r.Context(), actorOf(r), moderation.ReportQuery{
		Tournament: v.Get("tournament"), Status: v.Get("status"), Cursor: v.Get("cursor"), Limit: limit})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) closeReport(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Report")
	if err != nil {
		writeError(w, r, err)
		return
	}
	var in struct {
		Status string `json:"status"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	rep, err := s.Moderation.CloseReport(r.Context(), actorOf(r), id, in.Status)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"report": rep})
}

func (s *Server) giveSanction(w http.ResponseWriter, r *http.Request) {
	var in moderation.SanctionInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	sn, err := s.Moderation.Sanction(r.Context(), actorOf(r), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"sanction": sn})
}

// liftSanction ends a sanction early; the body, optional, gives the reason.
func (s *Server) liftSanction(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Sanction")
	if err != nil {
		writeError(w, r, err)
		return
	}
	var in struct {
		Reason string `json:"reason"`
	}
	if r.ContentLength > 0 {
		if err := decode(w, r, &in); err != nil {
			writeError(w, r, err)
			return
		}
	}
	sn, err := s.Moderation.LiftSanction(r.Context(), actorOf(r), id, in.Reason)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sanction": sn})
}

// mySanctions are the caller's own sanctions, with reasons and ends.
func (s *Server) mySanctions(w http.ResponseWriter, r *http.Request) {
	list, err := s.Moderation.Mine(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sanctions": list})
}
