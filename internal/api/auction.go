// The auction's calls: its state, captains and tiers, lots and bids.

package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// auctionState is the same for every caller: the requests that come together
// share one read (readBatches).
func (s *Server) auctionState(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	body, err := s.reads.do(r.Context(), "auction\x00"+name, func(ctx context.Context) (any, error) {
		return s.Auction.State(ctx, name)
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSONBody(w, http.StatusOK, body)
}

// currentLot is the lot under the hammer alone: what a stream's widget
// polls, cheaper than the whole auction and, carrying no clock, answered
// 304 until the lot changes.
func (s *Server) currentLot(w http.ResponseWriter, r *http.Request) {
	v, err := s.Auction.CurrentLot(r.Context(), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
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
