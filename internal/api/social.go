// Follows and blocks (internal/social).

package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/social"
)

func (s *Server) socialRoutes(r chi.Router) {
	r.With(requireUser, s.perUser(ratelimit.FollowUser)).Put("/follows/{kind}/{id}", s.follow)
	r.With(requireUser, s.perUser(ratelimit.FollowUser)).Delete("/follows/{kind}/{id}", s.unfollow)
	r.With(requireUser, s.perUser(ratelimit.FollowUser)).Put("/blocks/{userID}", blocking(s.Social.Block))
	r.With(requireUser, s.perUser(ratelimit.FollowUser)).Delete("/blocks/{userID}", blocking(s.Social.Unblock))
}

func followTarget(r *http.Request) social.Target {
	return social.Target{Kind: chi.URLParam(r, "kind"), ID: chi.URLParam(r, "id")}
}

// done answers a write that has nothing to say: 204, or its error.
func done(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) follow(w http.ResponseWriter, r *http.Request) {
	done(w, r, s.Social.Follow(r.Context(), actorOf(r), followTarget(r)))
}

func (s *Server) unfollow(w http.ResponseWriter, r *http.Request) {
	done(w, r, s.Social.Unfollow(r.Context(), actorOf(r), followTarget(r)))
}

func (s *Server) myFollows(w http.ResponseWriter, r *http.Request) {
	fs, err := s.Social.Mine(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": fs})
}

type followsVisibleInput struct {
	Visible string `json:"visible"`
}

func (s *Server) setFollowsVisible(w http.ResponseWriter, r *http.Request) {
	var in followsVisibleInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	done(w, r, s.Social.SetVisible(r.Context(), actorOf(r), in.Visible))
}

func (s *Server) followers(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	req, err := paging.Parse(q.Get("limit"), q.Get("cursor"), "")
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := s.Social.Followers(r.Context(), actorOf(r), id, req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// blocking is PUT or DELETE /api/blocks/{userID}: act blocks or unblocks.
func blocking(act func(context.Context, core.Actor, int64) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r, "userID", "account")
		if err != nil {
			writeError(w, r, err)
			return
		}
		done(w, r, act(r.Context(), actorOf(r), id))
	}
}
