package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// playerRoutes are the public players: the search and each profile, and
// the owner's choice to hide a profile.
func (s *Server) playerRoutes() chi.Router {
	r := chi.NewRouter()
	r.Group(func(r chi.Router) {
		r.Use(publicRead)
		r.Get("/", s.searchPlayers)
		r.Get("/{id}", s.playerProfile)
		r.Get("/{id}/versus/{other}", s.versus)
	})
	r.With(requireUser, s.perUser(ratelimit.RegisterUser)).Put("/me/visibility", s.setProfileVisibility)
	r.Get("/{id}/followers", s.followers)
	return r
}

func (s *Server) searchPlayers(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	req, err := paging.Parse(v.Get("limit"), v.Get("cursor"), v.Get("q"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.shared(w, r, func(ctx context.Context) (any, error) { return s.Records.Search(ctx, req) })
}

// shared answers a public read of the records with one read for the
// identical requests that come together (readBatches), keyed by the path
// and query: what they show is the same for every reader.
func (s *Server) shared(w http.ResponseWriter, r *http.Request, read func(context.Context) (any, error)) {
	body, err := s.reads.do(r.Context(), "records\x00"+r.URL.Path+"?"+r.URL.RawQuery, read)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSONBody(w, http.StatusOK, body)
}

func (s *Server) playerProfile(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	a := actorOf(r)
	if !a.SignedIn() {
		// Anyone's view of a profile is the same: shared.
		s.shared(w, r, func(ctx context.Context) (any, error) { return s.Records.Profile(ctx, a, id) })
		return
	}
	p, err := s.Records.Profile(r.Context(), a, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) setProfileVisibility(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Hidden bool `json:"hidden"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Records.SetHidden(r.Context(), actorOf(r), in.Hidden); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "hidden": in.Hidden})
}

func (s *Server) teamPage(w http.ResponseWriter, r *http.Request) {
	name, team := chi.URLParam(r, "name"), chi.URLParam(r, "team")
	s.shared(w, r, func(ctx context.Context) (any, error) { return s.Records.Team(ctx, name, team) })
}

func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	req, err := paging.Parse(v.Get("limit"), v.Get("cursor"), "")
	if err != nil {
		writeError(w, r, err)
		return
	}
	min := 0
	if raw := v.Get("min_matches"); raw != "" {
		if min, err = strconv.Atoi(raw); err != nil || min < 1 {
			writeError(w, r, errs.E(errs.Invalid, "min_matches is from 1 to 1000"))
			return
		}
	}
	kind := chi.URLParam(r, "kind")
	s.shared(w, r, func(ctx context.Context) (any, error) { return s.Records.Board(ctx, kind, min, req) })
}

func (s *Server) versus(w http.ResponseWriter, r *http.Request) {
	a, err := pathID(r, "id", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	b, err := pathID(r, "other", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.shared(w, r, func(ctx context.Context) (any, error) { return s.Records.Versus(ctx, a, b) })
}
