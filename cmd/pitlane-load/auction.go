package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The auction scenario (issue 11's figures): N spectators follow topic
// "teams" of a running server (`pitlane serve` on a `seed-demo -phase
// auction` database); the organiser opens a lot and the captains bid on it
// one after another, and the tool reports how long each bid took to reach
// every spectator, counted from the moment its POST was sent. Then 100 bids
// go at one lot at once, and the lot must end in one consistent state. Every
// lot the scenario sells it voids afterwards, so the league is as it was and
// the scenario can run again on the same database.
//
// Between the timed bids the organiser moves the presenter's deck (-broadcasts):
// a plain broadcast to the same spectators through the same server, its
// request, transaction, outbox and hub, so a bid's fan-out is measured beside
// a broadcast's in one run (their ratio is the goal). With several -base
// servers (instances sharing PostgreSQL and Redis) the spectators are spread
// over all of them and the requests go to the first.

type auctionConfig struct {
	base, tournament    string
	bases               []string // every server the spectators are spread over; base is the first
	broadcasts          bool
	password, organiser string
	captains            int
	spectators          int
	bids, burst         int
	interval, settle    time.Duration
	idle, timeout       time.Duration
	serverPID           int
	workerFlags
	jsonOut, keepResults bool
}

func parseAuction(args []string) (auctionConfig, error) {
	var c auctionConfig
	fs := flag.NewFlagSet("auction", flag.ContinueOnError)
	fs.StringVar(&c.base, "base", "http://127.0.0.1:8080", "the running server (its /api and /api/ws); a comma list spreads the spectators over several instances, the requests go to the first")
	fs.BoolVar(&c.broadcasts, "broadcasts", true, "between the timed bids, move the deck (a plain broadcast to the same spectators) and report the bid/broadcast ratio")
	fs.StringVar(&c.tournament, "tournament", "PPL7", "tournament in its auction phase")
	fs.StringVar(&c.password, "password", "", "password of the demo organiser and captains (seed-demo -password)")
	fs.StringVar(&c.organiser, "organiser", "organiser@demo.pitlane.local", "organiser's e-mail (in the server's ADMIN_EMAILS)")
	fs.IntVar(&c.captains, "captains", 8, "captains bidding, captain.a@demo.pitlane.local and on")
	fs.IntVar(&c.spectators, "spectators", 10000, "websocket clients following topic teams")
	fs.IntVar(&c.bids, "bids", 20, "bids placed one after another, timed to every spectator")
	fs.IntVar(&c.burst, "burst", 100, "bids sent at once on one lot (0 = no burst)")
	fs.DurationVar(&c.interval, "interval", 500*time.Millisecond, "time between the timed bids")
	fs.DurationVar(&c.settle, "settle", 3*time.Second, "wait after the last event before counting losses")
	fs.DurationVar(&c.idle, "idle", 5*time.Second, "hold the spectators idle this long before measuring memory")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "hard limit for the whole run")
	fs.IntVar(&c.serverPID, "server-pid", 0, "pid of the server, for its RSS and CPU")
	c.workerFlags.register(fs)
	fs.BoolVar(&c.jsonOut, "json", false, "print the summary as JSON too")
	fs.BoolVar(&c.keepResults, "keep", false, "leave the lots sold instead of voiding them")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, b := range strings.Split(c.base, ",") {
		u, err := url.Parse(strings.TrimSpace(b))
		if err != nil {
			return c, err
		}
		if err := checkLoopback(u.Hostname()); err != nil {
			return c, err
		}
		c.bases = append(c.bases, strings.TrimRight(strings.TrimSpace(b), "/"))
	}
	switch {
	case c.password == "":
		return c, errors.New("-password is needed: the demo organiser and captains sign in with it")
	case c.captains < 2 || c.captains > 8:
		return c, errors.New("-captains must be 2..8")
	case c.spectators < 1 || c.bids < 1 || c.burst < 0:
		return c, errors.New("-spectators and -bids must be positive, -burst not negative")
	}
	if err := c.workerFlags.check(c.spectators); err != nil {
		return c, err
	}
	c.base = c.bases[0]
	return c, nil
}

// auctionReport is what the scenario measured.
type auctionReport struct {
	Delivery  *report     `json:"delivery"`            // the timed bids (latency) and every event (losses)
	Broadcast *report     `json:"broadcast,omitempty"` // the deck moves between the bids (latency)
	TimedBids int         `json:"timed_bids"`
	Burst     *burstCheck `json:"burst,omitempty"`
}

// burstCheck is the state of a lot that took many bids at once.
type burstCheck struct {
	Sent        int      `json:"sent"`
	Accepted    int      `json:"accepted"`
	Refused     int      `json:"refused"` // 409 or 422, with the rule in the message
	Other       int      `json:"other"`   // any other answer: a failure
	Seconds     float64  `json:"seconds"`
	MaxAccepted int      `json:"max_accepted"`
	Leader      string   `json:"leader"`
	HighBid     int      `json:"high_bid"`
	LotBids     int      `json:"lot_bids"`
	Price       int      `json:"price"`
	Buyer       string   `json:"buyer"`
	Problems    []string `json:"problems"` // empty = one consistent state
}

func runAuctionScenario(ctx context.Context, args []string) error {
	cfg, err := parseAuction(args)
	if err != nil {
		return err
	}
	rep, err := measureAuction(ctx, cfg)
	if err != nil {
		return err
	}
	show(rep, cfg.jsonOut)
	if rep.Burst != nil && len(rep.Burst.Problems) > 0 {
		return errors.New("the burst left the lot inconsistent")
	}
	return nil
}

// league is the scenario's view of the server: the organiser's and the
// captains' sessions.
type league struct {
	cfg       auctionConfig
	organiser string
	captains  map[string]string // team letter -> token
	letters   []string
}

func measureAuction(ctx context.Context, cfg auctionConfig) (*auctionReport, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	lg := &league{cfg: cfg, captains: map[string]string{}}
	var err error
	if lg.organiser, err = lg.login(ctx, cfg.organiser); err != nil {
		return nil, fmt.Errorf("organiser: %w", err)
	}
	for i := range cfg.captains {
		letter := string(rune('A' + i))
		tok, err := lg.login(ctx, "captain."+strings.ToLower(letter)+"@demo.pitlane.local")
		if err != nil {
			return nil, fmt.Errorf("captain %s: %w", letter, err)
		}
		lg.captains[letter] = tok
		lg.letters = append(lg.letters, letter)
	}
	st, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	if st.Status != "auction" {
		return nil, fmt.Errorf("tournament %s is in its %q phase, not the auction (seed-demo -phase auction)", cfg.tournament, st.Status)
	}
	if st.Lot != nil {
		return nil, fmt.Errorf("lot %d is open; close it first", st.Lot.ID)
	}
	lotsNeeded := (cfg.bids+maxSteps-1)/maxSteps + min(cfg.burst, 1)
	if len(st.Pool) < lotsNeeded {
		return nil, fmt.Errorf("the pool has %d players, the scenario needs %d", len(st.Pool), lotsNeeded)
	}

	// The spectators: the load test's workers on topic teams.
	topics := "teams"
	deckSeq := int64(0)
	if cfg.broadcasts {
		topics = "teams,deck"
		if deckSeq, err = readSeq(ctx, cfg.base+"/api/deck", ""); err != nil {
			return nil, err
		}
	}
	ws := wsConfig{clients: cfg.spectators, workerFlags: cfg.workerFlags, server: "hub", topic: topics,
		// Each lot is at most an open, its bids, a sale (2) and a void (2);
		// a deck move follows each bid.
		events: 2*cfg.bids + cfg.burst + 5*(lotsNeeded+1)}
	rep := report{Config: fmt.Sprintf("%d spectators on %s in %d worker process(es) -> %s", cfg.spectators, topics, cfg.procs, strings.Join(cfg.bases, ", ")),
		Clients: cfg.spectators}
	deck := &timeline{seq: deckSeq}
	var deckIdx []int
	var pids []int
	if cfg.serverPID > 0 {
		pids = []int{cfg.serverPID}
	}
	baseRSS, _ := sumRSS(pids)
	var wsURLs []string
	for _, b := range cfg.bases {
		wsURLs = append(wsURLs, strings.Replace(b, "http", "ws", 1)+"/api/ws")
	}
	workers, err := rep.connect(ctx, ws, wsURLs)
	if err != nil {
		return nil, err
	}
	defer workers.stop()
	logf("%d spectators connected, %d errors in %.1fs", rep.Connected, rep.ConnectErrors, rep.ConnectSeconds)
	if err := sleep(ctx, cfg.idle); err != nil {
		return nil, err
	}
	if rss, err := sumRSS(pids); err == nil && len(pids) > 0 && rep.Connected > 0 {
		rep.ServerRSSBaseMB, rep.ServerRSSIdleMB = float64(baseRSS)/1024, float64(rss)/1024
		rep.RSSPerConnKB = float64(rss-baseRSS) / float64(rep.Connected)
	}

	// Every change the scenario makes is one event on teams, with the next
	// seq: the seqs follow from the one the auction's state gave.
	tl := &timeline{seq: st.Seq}
	// Tier 3 and 4 players first: their lots go in steps of 50, so take
	// the most bids.
	pool := slices.Clone(st.Pool)
	rand.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	slices.SortStableFunc(pool, func(a, b poolPlayer) int { return b.Tier - a.Tier })
	var bidIdx []int
	ticks0, _ := sumTicks(pids)
	bstart := time.Now()
	for placed := 0; placed < cfg.bids; {
		if len(pool) < 1+min(cfg.burst, 1) {
			return nil, errors.New("the pool ran out of players for the lots")
		}
		player := pool[0]
		pool = pool[1:]
		lot, err := lg.openLot(ctx, tl, player.UserID)
		if err != nil {
			return nil, err
		}
		high := 0
		for k := 0; k < lot.steps() && placed < cfg.bids; k++ {
			amount := minPrice + k*lot.Increment
			letter := lg.letters[placed%len(lg.letters)]
			idx, status, msg := lg.bid(ctx, tl, letter, lot.ID, amount)
			if status != http.StatusOK {
				rep.PublishErrors++
				logf("bid %d by %s: %d %s", amount, letter, status, msg)
				break
			}
			bidIdx = append(bidIdx, idx)
			high = amount
			placed++
			rep.PublishMaxMs = max(rep.PublishMaxMs, ms(time.Duration(tl.took[idx])))
			if cfg.broadcasts {
				if err := sleep(ctx, cfg.interval/2); err != nil {
					return nil, err
				}
				i, err := lg.moveDeck(ctx, deck, len(deckIdx))
				if err != nil {
					return nil, err
				}
				deckIdx = append(deckIdx, i)
			}
			if err := sleep(ctx, cfg.interval-cfg.interval/2*boolInt(cfg.broadcasts)); err != nil {
				return nil, err
			}
		}
		if err := lg.closeAndVoid(ctx, tl, lot.ID, high > 0); err != nil {
			return nil, err
		}
	}
	elapsed := time.Since(bstart)
	if ticks1, err := sumTicks(pids); err == nil && len(pids) > 0 {
		rep.ServerCPUBroadcastRaw = percent(ticks1-ticks0, elapsed)
		rep.ServerCPUPerEventMs = float64(ticks1-ticks0) * 1000 / ticksPerSecond / float64(len(tl.t0)+len(deck.t0))
	}

	out := &auctionReport{Delivery: &rep}
	rep.PublishErrors += deck.errors
	if cfg.burst > 0 {
		if out.Burst, err = lg.burst(ctx, tl, pool[0].UserID); err != nil {
			return nil, err
		}
	}
	if err := sleep(ctx, cfg.settle); err != nil {
		return nil, err
	}
	// The events of both topics, each known by its topic's place and seq.
	keys := make([]int64, 0, len(tl.seqs)+len(deck.seqs))
	for _, s := range tl.seqs {
		keys = append(keys, eventKey(0, s))
	}
	for _, s := range deck.seqs {
		keys = append(keys, eventKey(1, s))
	}
	results, err := workers.finish(finishCmd{Seqs: keys, T0: append(slices.Clone(tl.t0), deck.t0...)})
	if err != nil {
		return nil, err
	}
	if len(deckIdx) > 0 {
		moves := make([]workerResult, len(results))
		for i, r := range results {
			moves[i].Latency = make([][]int32, len(deckIdx))
			for j, e := range deckIdx {
				if k := len(tl.seqs) + e; k < len(r.Latency) {
					moves[i].Latency[j] = r.Latency[k]
				}
			}
		}
		out.Broadcast = &report{}
		out.Broadcast.add(moves, len(deckIdx))
	}
	// Latency over the timed bids; losses over every event.
	timed := make([]workerResult, len(results))
	for i, r := range results {
		timed[i] = r
		timed[i].Latency = make([][]int32, len(bidIdx))
		for j, e := range bidIdx {
			if e < len(r.Latency) {
				timed[i].Latency[j] = r.Latency[e]
			}
		}
	}
	rep.add(timed, len(bidIdx))
	rep.Events = len(tl.seqs) + len(deck.seqs)
	out.TimedBids = len(bidIdx)
	return out, nil
}

// Bids go from the lowest price in steps: a tier 3 or 4 lot (steps of 50)
// from 1,100 to 2,200 takes 22 of them.
const (
	minPrice = 1100
	maxPrice = 2200
	maxSteps = (maxPrice-minPrice)/50 + 1
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

// burst opens a lot and sends cfg.burst bids at it at once, spread over
// the captains at prices anywhere on the lot's steps; then it checks that
// the lot is in one consistent state before and after it closes.
func (lg *league) burst(ctx context.Context, tl *timeline, userID int64) (*burstCheck, error) {
	before, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	lot, err := lg.openLot(ctx, tl, userID)
	if err != nil {
		return nil, err
	}
	steps := lot.steps()
	bc := &burstCheck{Sent: lg.cfg.burst}
	type answer struct {
		letter         string
		amount, status int
	}
	answers := make([]answer, lg.cfg.burst)
	startGate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range answers {
		answers[i] = answer{letter: lg.letters[i%len(lg.letters)], amount: lot.BasePrice + rand.IntN(steps)*lot.Increment}
		wg.Go(func() {
			<-startGate
			_, answers[i].status, _ = lg.bid(ctx, tl, answers[i].letter, lot.ID, answers[i].amount)
		})
	}
	t0 := time.Now()
	close(startGate)
	wg.Wait()
	bc.Seconds = time.Since(t0).Seconds()
	leaders := map[int]string{}
	for _, a := range answers {
		switch a.status {
		case http.StatusOK:
			bc.Accepted++
			if a.amount > bc.MaxAccepted {
				bc.MaxAccepted = a.amount
			}
			if prev, ok := leaders[a.amount]; ok {
				bc.problem("two accepted bids of %d (teams %s and %s)", a.amount, prev, a.letter)
			}
			leaders[a.amount] = a.letter
		case http.StatusConflict, http.StatusUnprocessableEntity:
			bc.Refused++
		default:
			bc.Other++
		}
	}
	if bc.Accepted+bc.Refused != bc.Sent {
		bc.problem("accepted %d + refused %d != %d sent (%d other answers)", bc.Accepted, bc.Refused, bc.Sent, bc.Other)
	}
	mid, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case mid.Lot == nil || mid.Lot.ID != lot.ID:
		bc.problem("lot %d is no longer the open lot", lot.ID)
	case bc.Accepted == 0:
		bc.problem("no bid was accepted")
	case mid.Lot.High == nil:
		bc.problem("the lot has no high bid after %d accepted", bc.Accepted)
	default:
		bc.Leader, bc.HighBid, bc.LotBids = mid.Lot.High.Team, mid.Lot.High.Amount, len(mid.Lot.Bids)
		if bc.HighBid != bc.MaxAccepted || bc.Leader != leaders[bc.MaxAccepted] {
			bc.problem("high bid %d by %s, but the highest accepted was %d by %s", bc.HighBid, bc.Leader, bc.MaxAccepted, leaders[bc.MaxAccepted])
		}
		if bc.LotBids != bc.Accepted {
			bc.problem("the lot holds %d bids, %d were accepted", bc.LotBids, bc.Accepted)
		}
	}
	if d := pursesDiffer(before.Teams, mid.Teams, "", 0); d != "" {
		bc.problem("purses changed before the close: %s", d)
	}
	var closed struct{ Lot lotView }
	if err := lg.change(ctx, tl, fmt.Sprintf("/%d/close", lot.ID), nil, &closed); err != nil {
		return nil, err
	}
	after, err := lg.state(ctx)
	if err != nil {
		return nil, err
	}
	var sales int
	for _, s := range after.Sold {
		if s.LotID == lot.ID {
			sales++
			bc.Buyer, bc.Price = s.Team, s.Price
		}
	}
	if closed.Lot.Status != "sold" || sales != 1 {
		bc.problem("after the close the lot is %q with %d sales", closed.Lot.Status, sales)
	}
	if bc.Buyer != bc.Leader || bc.Price != bc.HighBid {
		bc.problem("sold to %s for %d, the high bid was %s's %d", bc.Buyer, bc.Price, bc.Leader, bc.HighBid)
	}
	if d := pursesDiffer(before.Teams, after.Teams, bc.Buyer, bc.Price); d != "" {
		bc.problem("purses after the sale: %s", d)
	}
	if !lg.cfg.keepResults {
		if err := lg.change(ctx, tl, fmt.Sprintf("/%d/void", lot.ID), nil, nil); err != nil {
			return nil, err
		}
	}
	return bc, nil
}

func (bc *burstCheck) problem(format string, args ...any) {
	bc.Problems = append(bc.Problems, fmt.Sprintf(format, args...))
}

// pursesDiffer says how after's purses differ from before's, but for the
// buyer's, which must be lower by price.
func pursesDiffer(before, after []teamView, buyer string, price int) string {
	left := map[string]int{}
	for _, t := range before {
		left[t.ID] = t.PurseLeft
	}
	var diffs []string
	for _, t := range after {
		want := left[t.ID]
		if t.ID == buyer {
			want -= price
		}
		if t.PurseLeft != want {
			diffs = append(diffs, fmt.Sprintf("team %s %d, expected %d", t.ID, t.PurseLeft, want))
		}
	}
	return strings.Join(diffs, "; ")
}

// goalRatio is how much more than a plain broadcast a bid may take to reach
// the last spectator (p99): a bid is one broadcast.
const goalRatio = 1.15

// ratio is the bids' p99 over the deck moves' p99.
func (r *auctionReport) ratio() float64 {
	if r.Broadcast == nil || r.Broadcast.P99Ms == 0 {
		return 0
	}
	return r.Delivery.P99Ms / r.Broadcast.P99Ms
}

func (r *auctionReport) print(w io.Writer) {
	d := r.Delivery
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("setup:      %s", d.Config)
	p("connect:    %d of %d spectators connected, %d errors, in %.1fs", d.Connected, d.Clients, d.ConnectErrors, d.ConnectSeconds)
	if d.FirstConnectError != "" {
		p("            first error: %s", d.FirstConnectError)
	}
	if d.ServerRSSIdleMB > 0 {
		p("memory:     server RSS %.1f MB before, %.1f MB with all idle: %.1f KB per spectator",
			d.ServerRSSBaseMB, d.ServerRSSIdleMB, d.RSSPerConnKB)
		p("cpu:        server %.1f%% of a core during the bids, %.1f ms per change", d.ServerCPUBroadcastRaw, d.ServerCPUPerEventMs)
	}
	p("bids:       %d timed bids (%d refused), slowest POST %.1f ms", r.TimedBids, d.PublishErrors, d.PublishMaxMs)
	p("delivery:   bid to every spectator: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d deliveries; last spectator per bid: median %.1f ms",
		d.P50Ms, d.P99Ms, d.MaxMs, d.Delivered, d.lastClientMedian())
	if b := r.Broadcast; b != nil && b.Delivered > 0 {
		p("broadcast:  deck move to every spectator: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d deliveries; last spectator per move: median %.1f ms",
			b.P50Ms, b.P99Ms, b.MaxMs, b.Delivered, b.lastClientMedian())
		verdict := "met"
		if r.ratio() > goalRatio {
			verdict = "MISSED"
		}
		p("ratio:      bid p99 / broadcast p99 = %.2f (goal <= %.2f: %s); last spectator median %.2f",
			r.ratio(), goalRatio, verdict, d.lastClientMedian()/max(b.lastClientMedian(), 1e-9))
	}
	p("events:     %d on teams and deck; %d lost, %d duplicated, %d seq gaps, %d resyncs, %d error frames, %d unexpected frames, %d connections dropped",
		d.Events, d.Lost, d.Duplicates, d.SeqGaps, d.Resyncs, d.ErrorFrames, d.Unexpected, d.Dropped)
	if b := r.Burst; b != nil {
		p("burst:      %d bids at once on one lot in %.2fs: %d accepted + %d refused (%d other answers)",
			b.Sent, b.Seconds, b.Accepted, b.Refused, b.Other)
		p("            high bid %d by team %s (highest accepted %d), %d bids on the lot; sold to %s for %d",
			b.HighBid, b.Leader, b.MaxAccepted, b.LotBids, b.Buyer, b.Price)
		if len(b.Problems) == 0 {
			p("            one consistent state: one leader, high bid = highest accepted, accepted + refused = sent, purses unchanged until the close, one sale and only the buyer's purse lower by the price")
		}
		for _, pr := range b.Problems {
			p("            INCONSISTENT: %s", pr)
		}
	}
	verdict := "met"
	if d.P99Ms > goalP99Ms {
		verdict = "MISSED"
	}
	p("goals:      bid to every spectator p99 <= %d ms: %s; 0 lost: %v", goalP99Ms, verdict, d.Lost == 0 && d.Duplicates == 0)
}
