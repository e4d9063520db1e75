package api

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/audit"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/tournament"
)

func (s *Server) tournamentRoutes() chi.Router {
	r := chi.NewRouter()
	r.Group(func(r chi.Router) {
		r.Use(publicRead)
		r.Get("/registrations", s.registrations)
		r.Get("/participants", s.registrations) // the slide's alias
		r.Get("/teams", s.teams)
		r.Get("/info", s.tournamentInfo)
	})
	r.Group(func(r chi.Router) {
		r.Use(requireUser)
		r.With(s.perUser(ratelimit.RegisterUser)).Post("/register", s.register)
		r.With(s.perUser(ratelimit.RegisterUser)).Post("/unregister", s.unregister)
		r.With(s.perUser(ratelimit.RegisterUser)).Post("/checkin", s.checkIn)
		r.Get("/status", s.registrationStatus)
	})
	return r
}

type tournamentName struct {
	TournamentName string `json:"tournamentName"`
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var in tournamentName
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	e, payment, err := s.registerPaying(r, in.TournamentName)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, entryAnswer{Success: true, Entry: e, Payment: payment})
}

// entryAnswer is a player's registration as the seed's calls answer it,
// with its entry fee's state (none, pending, paid, refunded).
type entryAnswer struct {
	Success bool `json:"success"`
	tournament.Entry
	Payment string `json:"payment"`
}

func (s *Server) checkIn(w http.ResponseWriter, r *http.Request) {
	var in tournamentName
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	e, err := s.Tournaments.CheckIn(r.Context(), actorOf(r), in.TournamentName)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, entryAnswer{Success: true, Entry: e, Payment: s.paymentOf(r, actorOf(r), in.TournamentName)})
}

func (s *Server) unregister(w http.ResponseWriter, r *http.Request) {
	var in tournamentName
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.unregisterPaying(r, in.TournamentName); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "registered": false, "message": tournament.MsgUnregistered,
		"payment": s.paymentOf(r, actorOf(r), in.TournamentName)})
}

func (s *Server) registrationStatus(w http.ResponseWriter, r *http.Request) {
	e, err := s.Tournaments.EntryOf(r.Context(), actorOf(r), r.URL.Query().Get("tournamentName"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, entryAnswer{Success: true, Entry: e, Payment: s.paymentOf(r, actorOf(r), e.Tournament)})
}

// registrations serves the public list a page at a time (limit, cursor,
// q, and sort for the Reg Player tab's orders) from a cache that is keyed by the tournament's roster version, so it
// is rebuilt only after a change and is right on every instance. The first
// page of the default size is kept encoded.
func (s *Server) registrations(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	req, err := paging.Parse(v.Get("limit"), v.Get("cursor"), v.Get("q"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	by, err := tournament.ParseSort(v.Get("sort"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	name := v.Get("tournamentName")
	t, err := s.Tournaments.Find(r.Context(), name)
	var page *cachedPage
	if err == nil {
		page, err = s.rosters.page(t, func() (tournament.Roster, error) { return s.Tournaments.Registrations(r.Context(), t) })
	}
	if err != nil {
		// With the database down, the last list this instance built is
		// still worth showing: its seq lets clients catch up live.
		if name == "" {
			name = s.Config.DefaultTournament
		}
		if stale := s.rosters.last(name); stale != nil && errs.KindOf(err) == errs.Unavailable {
			w.Header().Set("Pitlane-Stale", "true")
			stale.serveFirst(w, r, req, by)
			return
		}
		writeError(w, r, err)
		return
	}
	page.serveFirst(w, r, req, by)
}

func (s *Server) teams(w http.ResponseWriter, r *http.Request) {
	t, teams, err := s.Tournaments.Teams(r.Context(), r.URL.Query().Get("tournamentName"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournament": t.Name, "teams": teams})
}

func (s *Server) tournamentInfo(w http.ResponseWriter, r *http.Request) {
	info, err := s.Tournaments.Info(r.Context(), r.URL.Query().Get("tournamentName"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// adminRoutes are the organisers' calls; the services refuse everyone else.
func (s *Server) adminRoutes() chi.Router {
	r := chi.NewRouter()
	r.Post("/tournaments/{name}/status", s.setTournamentStatus)
	r.Get("/tournaments/{name}/status", s.tournamentPhase)
	r.Get("/audit", s.auditLog)
	s.metricsAdminRoutes(r)
	s.leagueAdminRoutes(r)
	s.matchAdminRoutes(r)
	s.seasonAdminRoutes(r)
	s.staffRoutes(r)
	s.undoRoutes(r)
	s.streamAdminRoutes(r)
	s.moderationAdminRoutes(r)
	s.prizeAdminRoutes(r)
	return r
}

// statusInput is a phase move; Force makes a move that leaves things
// incomplete (the 409's problems) all the same.
type statusInput struct {
	Status string `json:"status"`
	Force  bool   `json:"force"`
}

func (s *Server) setTournamentStatus(w http.ResponseWriter, r *http.Request) {
	var in statusInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	t, err := s.Tournaments.SetStatus(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Status, in.Force)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": t.Name, "status": t.Status, "registration_open": t.RegistrationOpen()})
}

// tournamentPhase is the season's phase and the moves it could make now,
// each allowed, refused with its reasons, or allowed with warnings (force).
func (s *Server) tournamentPhase(w http.ResponseWriter, r *http.Request) {
	p, err := s.Tournaments.PhaseMoves(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) auditLog(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	q := audit.Query{Tournament: v.Get("tournament"), Action: v.Get("action")}
	for _, p := range []struct {
		name, msg string
		to        *int64
	}{
		{"before", "before must be the id of an entry", &q.Before},
		{"actor", "actor must be a user id", &q.ActorID},
	} {
		if raw := v.Get(p.name); raw != "" {
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || n < 1 {
				writeError(w, r, errs.E(errs.Invalid, "%s", p.msg))
				return
			}
			*p.to = n
		}
	}
	if raw := v.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 {
			writeError(w, r, errs.E(errs.Invalid, "limit must be a whole number from 1 to %d", audit.MaxLimit))
			return
		}
		q.Limit = n
	}
	page, err := s.Audit.List(r.Context(), actorOf(r), q)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}
