package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
)

const (
	faultKill     = "kill"
	faultRedis    = "redis"
	faultPostgres = "postgres"
	faultFailover = "failover"
)

type nightConfig struct {
	pitlane                    string
	databaseURL, redisURL      string
	instances, spectators      int
	players, lots              int
	lotSeconds, lateBidSeconds int
	bidInterval                time.Duration
	playerInterval             time.Duration
	roomInterval               time.Duration
	matchInterval              time.Duration
	format                     string
	fault                      string
	faultLot, faultAfter       int
	victim                     int
	down                       time.Duration
	privateRedis, privatePG    bool
	redisAOF                   bool
	restResync                 bool // the spectators name no page: every resync is read over REST
	ports                      string
	workerFlags
	idle, settle, timeout time.Duration
	keep, jsonOut         bool
	ledger                string
}

func parseNight(args []string) (nightConfig, error) {
	var c nightConfig
	fs := flag.NewFlagSet("night", flag.ContinueOnError)
	fs.StringVar(&c.pitlane, "pitlane", "bin/pitlane", "the pitlane binary the night serves (go build -o /tmp/pitlane ./cmd/pitlane)")
	fs.StringVar(&c.databaseURL, "database-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"a PostgreSQL server the night makes its own database on (and drops after)")
	fs.StringVar(&c.redisURL, "redis-url", "redis://127.0.0.1:6379/0", "Redis the instances share, under a key prefix of the night's own")
	fs.IntVar(&c.instances, "instances", 2, "pitlane serve instances")
	fs.IntVar(&c.spectators, "spectators", 10000, "websocket spectators, half on /auction, half on the bracket, spread over the instances")
	fs.IntVar(&c.players, "players", 60, "players who save their stats and register for the next season (1-60)")
	fs.IntVar(&c.lots, "lots", 8, "lots PPL7's auction sells")
	fs.IntVar(&c.lotSeconds, "lot-seconds", 20, "the countdown (AUCTION_LOT_SECONDS)")
	fs.IntVar(&c.lateBidSeconds, "late-bid-seconds", 10, "a late bid's countdown (AUCTION_LATE_BID_SECONDS)")
	fs.DurationVar(&c.bidInterval, "bid-interval", time.Second, "time between two bids on a lot")
	fs.DurationVar(&c.playerInterval, "player-interval", 3*time.Second, "time between two players' registrations")
	fs.DurationVar(&c.roomInterval, "room-interval", 3*time.Second, "time between two messages in the captains room")
	fs.DurationVar(&c.matchInterval, "match-interval", time.Second, "time between two matches played")
	fs.StringVar(&c.format, "format", bracket.LeagueThenPlayoffs, "the fixtures' format (not swiss)")
	fs.StringVar(&c.fault, "fault", "", `a fault during one lot: "kill" (kill -9 of one of the instances), "redis" (a private Redis restarted empty, or with -redis-aof with its data), "failover" (a private Redis primary killed: its replica promoted by three sentinels, which the instances follow), "postgres" (a private PostgreSQL restarted)`)
	fs.BoolVar(&c.restResync, "rest-resync", false, "the spectators name no page when they subscribe (as before the web app did): a mass resync sends every page to REST")
	fs.BoolVar(&c.redisAOF, "redis-aof", false, "the private Redis keeps an append-only file: -fault redis restarts it with its data")
	fs.IntVar(&c.faultLot, "fault-lot", 0, "the lot the fault strikes during (0: the middle one)")
	fs.IntVar(&c.faultAfter, "fault-after", 2, "the fault strikes after this many bids on its lot")
	fs.IntVar(&c.victim, "victim", -1, "with -fault kill: the instance killed, from 0 (-1: the one holding the relay's lock)")
	fs.DurationVar(&c.down, "down", 2*time.Second, "with -fault redis or postgres: how long it stays down")
	fs.BoolVar(&c.privateRedis, "private-redis", false, "run a redis-server of the night's own (for its CPU and commands); -fault redis implies it")
	fs.BoolVar(&c.privatePG, "private-postgres", false, "run a PostgreSQL cluster of the night's own (for its CPU); -fault postgres implies it")
	fs.StringVar(&c.ports, "ports", "18300-18399", "the ports private servers may take")
	c.workerFlags.register(fs)
	fs.DurationVar(&c.idle, "idle", 5*time.Second, "hold the spectators idle this long before measuring memory")
	fs.DurationVar(&c.settle, "settle", 3*time.Second, "wait after the last event is published before counting losses")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Minute, "hard limit for the whole night")
	fs.BoolVar(&c.keep, "keep", false, "keep the night's database, Redis keys and logs")
	fs.BoolVar(&c.jsonOut, "json", false, "print the report as JSON too")
	fs.StringVar(&c.ledger, "ledger", "", "write what the night did (accepted bids, registrations, results) to this file, for check-league on a backup of its database (with -keep)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, raw := range []string{c.databaseURL, c.redisURL} {
		u, err := url.Parse(raw)
		if err != nil {
			return c, err
		}
		// No host: PostgreSQL's socket (scripts/services.sh may give one).
		if err := checkLoopback(u.Hostname()); err != nil && u.Hostname() != "" {
			return c, err
		}
	}
	switch c.fault {
	case "":
	case faultKill:
		if c.instances < 2 {
			return c, errors.New("-fault kill needs -instances 2 or more: the clients reconnect to another")
		}
	case faultRedis, faultFailover:
		c.privateRedis = true
	case faultPostgres:
		c.privatePG = true
	default:
		return c, fmt.Errorf("-fault %q: kill, redis, failover or postgres", c.fault)
	}
	switch {
	case c.instances < 1 || c.spectators < 1 || c.lots < 1:
		return c, errors.New("-instances, -spectators and -lots must be positive")
	case c.players < 1 || c.players > 60:
		return c, errors.New("-players must be 1..60 (the demo league's)")
	case !bracket.ValidFormat(c.format) || c.format == bracket.Swiss:
		return c, fmt.Errorf("-format %q: round_robin, league_then_playoffs, single_elimination or double_elimination", c.format)
	case c.victim >= c.instances:
		return c, errors.New("-victim must name one of the instances, from 0")
	case c.lateBidSeconds > c.lotSeconds:
		return c, errors.New("-late-bid-seconds must not be more than -lot-seconds")
	}
	if c.faultLot <= 0 {
		c.faultLot = (c.lots + 1) / 2
	}
	if c.faultLot > c.lots {
		return c, errors.New("-fault-lot is past the last lot")
	}
	if err := c.workerFlags.check(c.spectators); err != nil {
		return c, err
	}
	if _, err := os.Stat(c.pitlane); err != nil {
		return c, fmt.Errorf("-pitlane: %w (build it: go build -o /tmp/pitlane ./cmd/pitlane)", err)
	}
	return c, nil
}

func runNight(ctx context.Context, args []string) error {
	cfg, err := parseNight(args)
	if err != nil {
		return err
	}
	rep, err := measureNight(ctx, cfg)
	if rep != nil {
		show(rep, cfg.jsonOut)
	}
	if err != nil {
		return err
	}
	if bad := rep.failures(); len(bad) > 0 {
		return fmt.Errorf("the night failed: %s", strings.Join(bad, "; "))
	}
	return nil
}

// The spectators' topics and pages, and what each page reads over REST
// after a resync (its state with the seq it was read at).
const (
	spectatorTopics = "teams,bracket,registrations"
	spectatorPages  = "teams;bracket,teams,registrations"
)

var spectatorREST = "teams=/api/tournaments/" + season + "/auction,bracket=/api/tournaments/" + season +
	"/bracket,registrations=/api/tournament/registrations?tournamentName=" + nextSeason

// measureNight sets the stage, plays the night and reads what happened.
func measureNight(ctx context.Context, cfg nightConfig) (*nightReport, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	st, err := newStage(ctx, cfg)
	if err != nil {
		return nil, err
	}
	failed := true
	defer func() {
		if failed || cfg.keep {
			logf("the night's logs are kept in %s", st.dir)
		}
		st.close(cfg.keep, failed)
	}()
	n := &night{cfg: cfg, st: st, registered: map[int64]bool{}, fault: &faultRecord{Kind: cfg.fault, Victim: -1, Relay: -1, Bot: -1}}
	rep := &nightReport{Config: cfg.describe(), SeedSeconds: st.seedTime.Seconds()}
	if err := n.signIn(ctx); err != nil {
		return nil, err
	}

	// Everyone follows every topic from where it stands now: nothing the
	// night does can pass them by unseen.
	since, err := st.topicSeqs(ctx)
	if err != nil {
		return nil, err
	}
	topics := strings.Split(spectatorTopics, ",")
	var sinceArg []string
	for _, t := range topics {
		sinceArg = append(sinceArg, fmt.Sprintf("%s=%d", t, since[t]))
	}
	var wsURLs []string
	for _, in := range st.servers {
		wsURLs = append(wsURLs, strings.Replace(in.base, "http", "ws", 1)+"/api/ws")
	}
	ws := wsConfig{clients: cfg.spectators, workerFlags: cfg.workerFlags, server: "hub", topic: spectatorTopics, pages: spectatorPages,
		since: strings.Join(sinceArg, ","), rest: spectatorREST, reconnect: true, namePages: !cfg.restResync, events: 8 * (cfg.lots*25 + cfg.players*3 + 200)}
	sp := &report{Clients: cfg.spectators}
	baseRSS, _ := sumRSS(st.serverPIDs())
	workers, err := sp.connect(ctx, ws, wsURLs)
	if err != nil {
		return nil, err
	}
	defer workers.stop()
	logf("%d spectators connected, %d errors in %.1fs", sp.Connected, sp.ConnectErrors, sp.ConnectSeconds)
	members, err := n.connectMembers(ctx, wsURLs, since)
	if err != nil {
		return nil, err
	}
	if err := sleep(ctx, cfg.idle); err != nil {
		return nil, err
	}
	if rss, err := sumRSS(st.serverPIDs()); err == nil && sp.Connected > 0 {
		sp.ServerRSSBaseMB, sp.ServerRSSIdleMB = float64(baseRSS)/1024, float64(rss)/1024
		sp.RSSPerConnKB = float64(rss-baseRSS) / float64(sp.Connected)
	}

	// The night.
	use := startUsage(ctx, st)
	start := time.Now()
	if err := n.play(ctx); err != nil {
		return nil, err
	}
	rep.NightSeconds = time.Since(start).Seconds()
	if err := st.waitPublished(ctx, 2*time.Minute); err != nil {
		return nil, err
	}
	rep.Usage = use.stop(ctx)
	if err := sleep(ctx, cfg.settle); err != nil {
		return nil, err
	}

	events, err := st.eventsAfter(ctx, append(topics, captainsTopic), since)
	if err != nil {
		return nil, err
	}
	rep.collect(n, events, workers, members, sp)
	rep.Bot = n.waitBot(ctx, events, 30*time.Second)
	rep.Check = n.check(ctx, events, since)
	if cfg.ledger != "" {
		if err := writeLedger(cfg.ledger, n.ledger(append(topics, captainsTopic), since)); err != nil {
			return rep, err
		}
	}
	rep.Fault = n.faultReport(rep)
	rep.Usage.per(rep)
	failed = len(rep.failures()) > 0
	return rep, nil
}

// captainsTopic is PPL7's captains room.
var captainsTopic = "captains:" + season

// connectMembers connects the captains and the organiser, in process, to
// the captains room and the auction, as their pages follow them.
func (n *night) connectMembers(ctx context.Context, urls []string, since map[string]int64) (*worker, error) {
	all := append([]*member{n.organiser}, n.captainList()...)
	opt := workerOptions{urls: urls, clients: len(all), localIPs: []string{"127.0.0.1"}, events: 8 * (n.cfg.lots*25 + 400),
		topics: []string{captainsTopic, "teams"}, since: []int64{since[captainsTopic], since["teams"]},
		rest:      []string{"/api/tournaments/" + season + "/captains/messages", "/api/tournaments/" + season + "/auction"},
		reconnect: true, concurrency: 4}
	for _, m := range all {
		opt.tokens = append(opt.tokens, m.token)
	}
	w := newWorker(opt)
	if r := w.connectAll(ctx); r.Errors > 0 {
		return nil, fmt.Errorf("captains room: %d of %d could not follow it: %s", r.Errors, len(all), r.FirstError)
	}
	return w, nil
}

func (n *night) captainList() []*member {
	var out []*member
	for _, l := range n.letters {
		out = append(out, n.captains[l])
	}
	return out
}

// play is the night itself.
func (n *night) play(ctx context.Context) error {
	if err := n.openSeason(ctx); err != nil {
		return err
	}
	stopRoom := make(chan struct{})
	var bg sync.WaitGroup
	bg.Go(func() { n.registrations(ctx, n.cfg.playerInterval) })
	bg.Go(func() { n.room(ctx, n.cfg.roomInterval, stopRoom) })
	err := n.auction(ctx)
	if err == nil {
		err = n.matches(ctx)
	}
	close(stopRoom)
	bg.Wait()
	return err
}
