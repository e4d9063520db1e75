package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// leagueRoutes are the league's calls under /api/tournaments/{name}
// (docs/league.md); who may make them is the services' to decide.
func (s *Server) leagueRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/", s.tournamentsList)
	r.Get("/{name}", s.tournamentByName)
	r.Get("/{name}/bracket", s.bracketOf)
	r.Get("/{name}/matches", s.teamMatches)
	r.Get("/{name}/standings", s.standings)
	r.Get("/{name}/red-cap", s.redCap)
	r.Get("/{name}/teams", s.leagueTeams)
	r.Get("/{name}/auction", s.auctionState)
	r.With(requireUser, s.perUser(ratelimit.BidUser)).Post("/{name}/auction/bids", s.bid)
	r.Get("/{name}/substitutes", s.substitutes)
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
		r.Put("/tournaments/{name}/cap", s.setCap)
		r.Put("/tournaments/{name}/checkin", s.setCheckin)
		r.Post("/tournaments/{name}/waitlist/{userID}/promote", s.promote)
		r.Post("/tournaments/{name}/substitutes/{requestID}/approve", s.approveSubstitute)
		r.Post("/tournaments/{name}/substitutes/{requestID}/refuse", s.refuseSubstitute)
	})
}

func (s *Server) setCap(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Cap int `json:"cap"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Tournaments.SetCap(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Cap)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"places": p})
}

func (s *Server) setCheckin(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Deadline *time.Time `json:"deadline"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Tournaments.OpenCheckin(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Deadline)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"places": p})
}

func (s *Server) promote(w http.ResponseWriter, r *http.Request) {
	userID, err := pathID(r, "userID", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	e, err := s.Tournaments.Promote(r.Context(), actorOf(r), chi.URLParam(r, "name"), userID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"entry": e})
}

func (s *Server) substitutes(w http.ResponseWriter, r *http.Request) {
	b, err := s.Auction.Substitutes(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

func (s *Server) askSubstitute(w http.ResponseWriter, r *http.Request) {
	var in captainInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	req, err := s.Auction.AskSubstitute(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.UserID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"request": req})
}

// decideSubstitute answers a request: approve, or refuse with a reason.
func (s *Server) decideSubstitute(w http.ResponseWriter, r *http.Request, approve bool) {
	var in struct {
		Reason string `json:"reason"`
	}
	id, err := pathID(r, "requestID", "Request")
	if err == nil && !approve {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	req, err := s.Auction.DecideSubstitute(r.Context(), actorOf(r), chi.URLParam(r, "name"), id, approve, in.Reason)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"request": req})
}

func (s *Server) approveSubstitute(w http.ResponseWriter, r *http.Request) {
	s.decideSubstitute(w, r, true)
}

func (s *Server) refuseSubstitute(w http.ResponseWriter, r *http.Request) {
	s.decideSubstitute(w, r, false)
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

func (s *Server) auctionState(w http.ResponseWriter, r *http.Request) {
	v, err := s.Auction.State(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// pathID reads a numeric path parameter; anything else is an unknown thing.
func pathID(r *http.Request, param, what string) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, param), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.E(errs.NotFound, "%s not found", what)
	}
	return id, nil
}

type captainInput struct {
	UserID int64 `json:"userId"`
}

func (s *Server) setCaptain(w http.ResponseWriter, r *http.Request) {
	var in captainInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	team, err := s.Auction.SetCaptain(r.Context(), actorOf(r), chi.URLParam(r, "name"), chi.URLParam(r, "team"), in.UserID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"team": team})
}

type tierInput struct {
	Tier int `json:"tier"`
}

func (s *Server) setTier(w http.ResponseWriter, r *http.Request) {
	var in tierInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	userID, err := pathID(r, "userID", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Auction.SetTier(r.Context(), actorOf(r), chi.URLParam(r, "name"), userID, in.Tier)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"player": p})
}

type lotInput struct {
	UserID    int64 `json:"userId"`
	BasePrice int   `json:"basePrice"`
}

func (s *Server) openLot(w http.ResponseWriter, r *http.Request) {
	var in lotInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	lot, err := s.Auction.OpenLot(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.UserID, in.BasePrice)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"lot": lot})
}

type bidInput struct {
	LotID  int64 `json:"lotId"`
	Amount int   `json:"amount"`
}

func (s *Server) bid(w http.ResponseWriter, r *http.Request) {
	var in bidInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	lot, err := s.Auction.Bid(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.LotID, in.Amount)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"lot": lot})
}

func (s *Server) closeLot(w http.ResponseWriter, r *http.Request) {
	lotID, err := pathID(r, "lotID", "Lot")
	if err != nil {
		writeError(w, r, err)
		return
	}
	lot, err := s.Auction.Close(r.Context(), actorOf(r), chi.URLParam(r, "name"), lotID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"lot": lot})
}

func (s *Server) voidLot(w http.ResponseWriter, r *http.Request) {
	lotID, err := pathID(r, "lotID", "Lot")
	if err != nil {
		writeError(w, r, err)
		return
	}
	lot, err := s.Auction.Void(r.Context(), actorOf(r), chi.URLParam(r, "name"), lotID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"lot": lot})
}

func (s *Server) roomHistory(w http.ResponseWriter, r *http.Request) {
	v, err := s.Room.History(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

type messageInput struct {
	Text string `json:"text"`
}

func (s *Server) roomPost(w http.ResponseWriter, r *http.Request) {
	var in messageInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	m, err := s.Room.Post(r.Context(), actorOf(r), chi.URLParam(r, "name"), in.Text)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"message": m})
}
