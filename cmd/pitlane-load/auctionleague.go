// The auction scenario's view of the league: the organiser's and the captains' calls, and the events they cause on the timeline.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// timeline is the events the scenario caused on topic teams, in order: the
// seq each got and when its request was sent.
type timeline struct {
	mu     sync.Mutex
	errors int // requests that published nothing
	seq    int64
	seqs   []int64
	t0     []int64
	took   []int64 // how long the request took, ns
}

// add notes one more event, caused by a request sent at t0 (a bid is one
// event).
func (tl *timeline) add(t0 time.Time, took time.Duration) int {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return tl.addLocked(t0, took)
}

func (tl *timeline) addLocked(t0 time.Time, took time.Duration) int {
	tl.seq++
	tl.seqs = append(tl.seqs, tl.seq)
	tl.t0 = append(tl.t0, t0.UnixNano())
	tl.took = append(tl.took, int64(took))
	return len(tl.seqs) - 1
}

// upTo notes the events up to seq, all caused by a request sent at t0 (a
// sale is auction.sold and team.updated).
func (tl *timeline) upTo(seq int64, t0 time.Time, took time.Duration) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for tl.seq < seq {
		tl.addLocked(t0, took)
	}
}

// change makes an organiser's change and notes the events it caused: the
// auction's state after it tells the topic's seq (PostgreSQL's, taken in
// the change's transaction).
func (lg *league) change(ctx context.Context, tl *timeline, path string, body, out any) error {
	t0 := time.Now()
	if err := lg.must(ctx, "POST", lg.admin(path), lg.organiser, body, out); err != nil {
		return err
	}
	took := time.Since(t0)
	st, err := lg.state(ctx)
	if err != nil {
		return err
	}
	tl.upTo(st.Seq, t0, took)
	return nil
}

type lotView struct {
	ID        int64 `json:"id"`
	Increment int   `json:"increment"`
	BasePrice int   `json:"base_price"`
	Status    string
	High      *struct {
		Team   string `json:"team"`
		Amount int    `json:"amount"`
	} `json:"high_bid"`
	Bids []json.RawMessage `json:"bids"`
}

// steps is how many bids the lot takes from its base price to the highest.
func (l lotView) steps() int { return (maxPrice-l.BasePrice)/max(l.Increment, 1) + 1 }

type poolPlayer struct {
	UserID int64 `json:"user_id"`
	Tier   int   `json:"tier"`
}

type teamView struct {
	ID        string `json:"id"`
	PurseLeft int    `json:"purse_left"`
	FreeSlots int    `json:"free_slots"`
}

type auctionState struct {
	Status string   `json:"status"`
	Seq    int64    `json:"seq"`
	Lot    *lotView `json:"lot"`
	Sold   []struct {
		LotID int64  `json:"lot_id"`
		Team  string `json:"team"`
		Price int    `json:"price"`
	} `json:"sold"`
	Pool  []poolPlayer `json:"pool"`
	Teams []teamView   `json:"teams"`
}

// call sends one JSON request and decodes a 2xx answer into out.
func (lg *league) call(ctx context.Context, method, path, token string, body, out any) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, lg.cfg.base+path, rd)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		var e struct{ Message string }
		_ = json.Unmarshal(msg, &e)
		return resp.StatusCode, e.Message, nil
	}
	if out != nil {
		if err := json.Unmarshal(msg, out); err != nil {
			return resp.StatusCode, "", fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, "", nil
}

// must is call for requests that have to succeed.
func (lg *league) must(ctx context.Context, method, path, token string, body, out any) error {
	status, msg, err := lg.call(ctx, method, path, token, body, out)
	if err == nil && status/100 != 2 {
		err = fmt.Errorf("%s %s: %d %s", method, path, status, msg)
	}
	return err
}

func (lg *league) login(ctx context.Context, email string) (string, error) {
	var out struct{ Token string }
	err := lg.must(ctx, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": lg.cfg.password}, &out)
	return out.Token, err
}

func (lg *league) state(ctx context.Context) (auctionState, error) {
	var st auctionState
	err := lg.must(ctx, "GET", "/api/tournaments/"+url.PathEscape(lg.cfg.tournament)+"/auction", "", nil, &st)
	return st, err
}

func (lg *league) admin(suffix string) string {
	return "/api/admin/tournaments/" + url.PathEscape(lg.cfg.tournament) + "/auction/lots" + suffix
}

// openLot opens a lot at the lowest base price, so that it takes maxSteps bids.
func (lg *league) openLot(ctx context.Context, tl *timeline, userID int64) (lotView, error) {
	var out struct{ Lot lotView }
	if err := lg.change(ctx, tl, "", map[string]any{"userId": userID, "basePrice": minPrice}, &out); err != nil {
		return out.Lot, err
	}
	if out.Lot.Increment != 50 {
		// A tier 1 or 2 player: steps of 100, half as many bids.
		logf("lot %d goes in steps of %d", out.Lot.ID, out.Lot.Increment)
	}
	return out.Lot, nil
}

// moveDeck moves the presenter's deck to another slide (the organiser is
// its presenter): one event on topic deck, the n-th of the run.
func (lg *league) moveDeck(ctx context.Context, deck *timeline, n int) (int, error) {
	t0 := time.Now()
	seq, took, err := postSlide(ctx, lg.cfg.base+"/api/deck", lg.organiser, fmt.Sprintf(`{"slide":%d}`, 1+n%2))
	if err != nil {
		return 0, fmt.Errorf("move the deck: %w", err)
	}
	deck.mu.Lock()
	defer deck.mu.Unlock()
	if seq <= deck.seq {
		deck.errors++
	}
	deck.seq = seq - 1
	return deck.addLocked(t0, took), nil
}

func boolInt(b bool) time.Duration {
	if b {
		return 1
	}
	return 0
}

// bid places one bid; an accepted one is an event on the timeline.
func (lg *league) bid(ctx context.Context, tl *timeline, letter string, lotID int64, amount int) (int, int, string) {
	t0 := time.Now()
	status, msg, err := lg.call(ctx, "POST", "/api/tournaments/"+url.PathEscape(lg.cfg.tournament)+"/auction/bids",
		lg.captains[letter], map[string]any{"lotId": lotID, "amount": amount}, nil)
	if err != nil {
		return -1, 0, err.Error()
	}
	if status != http.StatusOK {
		return -1, status, msg
	}
	return tl.add(t0, time.Since(t0)), status, ""
}

// closeAndVoid closes the lot (sold when it has a bid) and, unless -keep,
// voids the sale so that the league is as it was.
func (lg *league) closeAndVoid(ctx context.Context, tl *timeline, lotID int64, sold bool) error {
	if err := lg.change(ctx, tl, fmt.Sprintf("/%d/close", lotID), nil, nil); err != nil {
		return err
	}
	if !sold || lg.cfg.keepResults {
		return nil
	}
	return lg.change(ctx, tl, fmt.Sprintf("/%d/void", lotID), nil, nil)
}
