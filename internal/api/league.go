package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/ratelimit"
)

// leagueRoutes are the league's calls under /api/tournaments/{name}
// (docs/league.md); who may make them is the services' to decide.
func (s *Server) leagueRoutes() chi.Router {
	r := chi.NewRouter()
	r.Group(func(r chi.Router) {
		r.Use(publicRead)
		r.Get("/", s.tournamentsList)
		r.Get("/{name}", s.tournamentByName)
		r.Get("/{name}/bracket", s.bracketOf)
		r.Get("/{name}/matches", s.teamMatches)
		r.Get("/{name}/standings", s.standings)
		r.Get("/{name}/red-cap", s.redCap)
		r.Get("/{name}/teams", s.leagueTeams)
		r.Get("/{name}/auction", s.auctionState)
		r.Get("/{name}/auction/lot", s.currentLot)
		r.Get("/{name}/substitutes", s.substitutes)
		r.Get("/{name}/teams/{team}", s.teamPage)
	})
	s.prizeRoutes(r)
	r.With(requireUser).Get("/{name}/teams/{team}/calendar", s.calendarLink)
	r.With(requireUser, s.perUser(ratelimit.MatchUser)).Post("/{name}/teams/{team}/calendar/reset", s.calendarReset)
	r.With(requireUser, s.perUser(ratelimit.BidUser)).Post("/{name}/auction/bids", s.bid)
	r.With(requireUser, s.perUser(ratelimit.BidUser)).Post("/{name}/auction/nominations", s.nominate)
	r.With(requireUser, s.perUser(ratelimit.BidUser)).Post("/{name}/substitutes", s.askSubstitute)
	r.With(requireUser).Get("/{name}/captains/messages", s.roomHistory)
	r.With(requireUser).Post("/{name}/captains/messages", s.roomPost) // the room paces its members itself
	return r
}

// leagueAdminRoutes are the organisers' league calls under /api/admin/tournaments/{name}.
func (s *Server) leagueAdminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Put("/tournaments/{name}/teams/{team}/captain", s.setCaptain)
		r.Put("/tournaments/{name}/players/{userID}/tier", s.setTier)
		r.Post("/tournaments/{name}/auction/lots", s.openLot)
		r.Post("/tournaments/{name}/auction/lots/{lotID}/close", s.closeLot)
		r.Post("/tournaments/{name}/auction/lots/{lotID}/void", s.voidLot)
		r.Post("/tournaments/{name}/auction/pause", s.pauseAuction)
		r.Post("/tournaments/{name}/auction/resume", s.resumeAuction)
		r.Post("/tournaments/{name}/auction/undo", s.undoLastSale)
		r.Put("/tournaments/{name}/auction/turns", s.setTurns)
		r.Put("/tournaments/{name}/cap", s.setCap)
		r.Put("/tournaments/{name}/checkin", s.setCheckin)
		r.Post("/tournaments/{name}/waitlist/{userID}/promote", s.promote)
		r.Post("/tournaments/{name}/substitutes/{requestID}/approve", s.approveSubstitute)
		r.Post("/tournaments/{name}/substitutes/{requestID}/refuse", s.refuseSubstitute)
	})
}

func (s *Server) tournamentByName(w http.ResponseWriter, r *http.Request) {
	info, err := s.Tournaments.Info(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) leagueTeams(w http.ResponseWriter, r *http.Request) {
	v, err := s.Auction.Teams(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
