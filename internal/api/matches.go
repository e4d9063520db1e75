package api

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// matchRoutes are /api/matches/{id}: a match, and what its captains do.
func (s *Server) matchRoutes() chi.Router {
	r := chi.NewRouter()
	r.With(publicRead).Get("/{id}", s.match)
	r.Get("/{id}/calendar.ics", s.matchCalendar)
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.MatchUser))
		r.Post("/{id}/room", s.matchRoom)
		r.Post("/{id}/time", s.matchTime)
		r.Post("/{id}/proposal", s.matchPropose)
		r.Post("/{id}/accept", s.matchAccept)
		r.Post("/{id}/checkin", s.matchCheckIn)
		r.Post("/{id}/lineup", s.matchLineup)
		r.With(s.perUser(ratelimit.ProofUser)).Post("/{id}/proof", s.matchProof)
		r.Post("/{id}/report", s.matchReport)
		r.Post("/{id}/confirm", s.matchConfirm)
		r.Post("/{id}/dispute", s.matchDispute)
		r.Post("/{id}/forfeit", s.matchForfeit)
	})
	return r
}

// matchAdminRoutes are the organisers' match calls under /api/admin.
func (s *Server) matchAdminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Post("/tournaments", s.createTournament)
		r.Post("/tournaments/{name}/bracket", s.generateBracket)
		r.Put("/tournaments/{name}/seeds", s.setSeeds)
		r.Post("/matches/{id}/resolve", s.matchResolve)
		r.Post("/matches/{id}/forfeit", s.matchForfeitFor)
	})
}

func (s *Server) tournamentsList(w http.ResponseWriter, r *http.Request) {
	list, err := s.Tournaments.Tournaments(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": list})
}

func (s *Server) createTournament(w http.ResponseWriter, r *http.Request) {
	var in tournament.NewTournament
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	t, err := s.Tournaments.Create(r.Context(), actorOf(r), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"tournament": t})
}

func (s *Server) generateBracket(w http.ResponseWriter, r *http.Request) {
	var in matches.FormatInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.Matches.GenerateWith(r.Context(), actorOf(r), chi.URLParam(r, "name"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, b)
}

func (s *Server) setSeeds(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Order []string `json:"order"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.Matches.SetSeeds(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Order)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// bracketOf: what a signed-in player sees depends on who they are (their own
// room codes); everyone else's requests that come together share one read.
func (s *Server) bracketOf(w http.ResponseWriter, r *http.Request) {
	a, name := actorOf(r), chi.URLParam(r, "name")
	if !a.SignedIn() {
		body, err := s.reads.do(r.Context(), "bracket\x00"+name, func(ctx context.Context) (any, error) {
			return s.Matches.Bracket(ctx, a, name)
		})
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSONBody(w, http.StatusOK, body)
		return
	}
	b, err := s.Matches.Bracket(r.Context(), a, name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// teamMatches lists a season's fixtures (a team's with team=), whole, or a
// page at a time with limit and cursor.
func (s *Server) teamMatches(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	var req paging.Request
	paged := v.Has("limit") || v.Has("cursor")
	if paged {
		var err error
		if req, err = paging.Parse(v.Get("limit"), v.Get("cursor"), ""); err != nil {
			writeError(w, r, err)
			return
		}
	}
	ms, err := s.Matches.Matches(r.Context(), actorOf(r), chi.URLParam(r, "name"), v.Get("team"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if !paged {
		writeJSON(w, http.StatusOK, map[string]any{"matches": ms})
		return
	}
	page, next, err := paging.Slice(ms, func(m matches.Match) int64 { return m.ID }, req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": page, "next_cursor": next})
}

func (s *Server) standings(w http.ResponseWriter, r *http.Request) {
	t, err := s.Matches.Standings(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (s *Server) redCap(w http.ResponseWriter, r *http.Request) {
	rc, err := s.Matches.RedCapOf(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rc)
}

// matchCall answers a call on /matches/{id}: the body, when in is not nil,
// decoded into it, then call with the id, then the match it returns.
func matchCall(w http.ResponseWriter, r *http.Request, in any, call func(id int64) (matches.Match, error)) {
	id, err := pathID(r, "id", "Match")
	if err == nil && in != nil {
		err = decode(w, r, in)
	}
	var m matches.Match
	if err == nil {
		m, err = call(id)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"match": m})
}

func (s *Server) match(w http.ResponseWriter, r *http.Request) {
	matchCall(w, r, nil, func(id int64) (matches.Match, error) { return s.Matches.Match(r.Context(), actorOf(r), id) })
}

func (s *Server) matchRoom(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Room string `json:"room"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.PostRoom(r.Context(), actorOf(r), id, in.Room)
	})
}

func (s *Server) matchTime(w http.ResponseWriter, r *http.Request) {
	var in struct {
		At *time.Time `json:"at"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.SetTime(r.Context(), actorOf(r), id, in.At)
	})
}

func (s *Server) matchPropose(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Times []time.Time `json:"times"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.Propose(r.Context(), actorOf(r), id, in.Times)
	})
}

func (s *Server) matchAccept(w http.ResponseWriter, r *http.Request) {
	var in struct {
		At time.Time `json:"at"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.Accept(r.Context(), actorOf(r), id, in.At)
	})
}

func (s *Server) matchCheckIn(w http.ResponseWriter, r *http.Request) {
	matchCall(w, r, nil, func(id int64) (matches.Match, error) { return s.Matches.CheckIn(r.Context(), actorOf(r), id) })
}

func (s *Server) matchLineup(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Players []int64 `json:"players"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.SetLineup(r.Context(), actorOf(r), id, in.Players)
	})
}

func (s *Server) matchProof(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Match")
	if err != nil {
		writeError(w, r, err)
		return
	}
	data, err := readScreenshot(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	imageID, err := s.Matches.UploadProof(r.Context(), actorOf(r), id, data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"screenshotId": imageID, "url": "/api/images/" + imageID})
}

// resultInput is a report or a ruling: {"winner","players":[{"userId","kills","deaths","placement"}]}.
type resultInput struct {
	Winner  string `json:"winner"`
	Players []struct {
		UserID    int64 `json:"userId"`
		Kills     int   `json:"kills"`
		Deaths    int   `json:"deaths"`
		Placement int   `json:"placement"`
	} `json:"players"`
	ScreenshotID string `json:"screenshotId,omitempty"`
}

func (in resultInput) report() matches.Report {
	rep := matches.Report{Winner: in.Winner, Players: []matches.PlayerLine{}}
	for _, p := range in.Players {
		rep.Players = append(rep.Players, matches.PlayerLine{UserID: p.UserID, Kills: p.Kills, Deaths: p.Deaths, Placement: p.Placement})
	}
	return rep
}

func (s *Server) matchReport(w http.ResponseWriter, r *http.Request) {
	var in resultInput
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.ReportResult(r.Context(), actorOf(r), id, matches.ReportInput{Report: in.report(), ScreenshotID: in.ScreenshotID})
	})
}

func (s *Server) matchConfirm(w http.ResponseWriter, r *http.Request) {
	matchCall(w, r, nil, func(id int64) (matches.Match, error) { return s.Matches.Confirm(r.Context(), actorOf(r), id) })
}

func (s *Server) matchDispute(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Reason string `json:"reason"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.Dispute(r.Context(), actorOf(r), id, in.Reason)
	})
}

func (s *Server) matchForfeit(w http.ResponseWriter, r *http.Request) {
	matchCall(w, r, nil, func(id int64) (matches.Match, error) { return s.Matches.Forfeit(r.Context(), actorOf(r), id) })
}

func (s *Server) matchForfeitFor(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Team string `json:"team"`
	}
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.ForfeitFor(r.Context(), actorOf(r), id, in.Team)
	})
}

func (s *Server) matchResolve(w http.ResponseWriter, r *http.Request) {
	var in resultInput
	matchCall(w, r, &in, func(id int64) (matches.Match, error) {
		return s.Matches.Resolve(r.Context(), actorOf(r), id, in.report())
	})
}
