package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

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

// goalRatio is how much more than a plain broadcast a bid may take to reach
// the last spectator (p99): a bid is one broadcast.
const goalRatio = 1.15
