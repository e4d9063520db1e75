package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
)

// The night scenario (issue 22): a league night against real `pitlane
// serve` instances the tool starts itself on a database it seeds itself.
// Two seasons share the server, each in a phase the league's rules allow
// what happens in it:
//
//   - PPL7 (seed-demo -phase auction) runs its auction with the real
//     countdown: the organiser opens lots, the eight captains bid on them
//     in turn, and each lot closes by itself at its deadline; then the
//     organiser moves it to its matches, makes the fixtures, and the
//     captains play them (the home captain uploads the end-of-match
//     screenshot and reports, the away captain confirms) until the season
//     has its champion and is completed;
//   - PPL8, which the organiser opens for registration as the night begins,
//     takes the league's players' stats saves and registrations meanwhile;
//   - the captains and the organiser talk in PPL7's captains room;
//   - the Discord bot (the instances run it, against a fake Discord the
//     tool serves) announces registrations, sales, results and Red Cap
//     holders.
//
// Spectators watch over all of it, half on /auction (topic teams), half on
// the bracket (bracket, teams and registrations, as the tournament page
// follows them), spread over the instances, reconnecting as the web app
// does. The tool reports each action's latency, each event's delivery to
// the spectators (from the change's transaction), what was lost,
// duplicated or out of order, and checks the final state. A fault may
// strike during one lot: kill -9 of an instance, Redis restarted empty, or
// PostgreSQL restarted.

const (
	faultKill     = "kill"
	faultRedis    = "redis"
	faultPostgres = "postgres"
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
	ports                      string
	workerFlags
	idle, settle, timeout time.Duration
	keep, jsonOut         bool
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
	fs.StringVar(&c.fault, "fault", "", `a fault during one lot: "kill" (kill -9 of one of the instances), "redis" (a private Redis restarted empty), "postgres" (a private PostgreSQL restarted)`)
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
	case faultRedis:
		c.privateRedis = true
	case faultPostgres:
		c.privatePG = true
	default:
		return c, fmt.Errorf("-fault %q: kill, redis or postgres", c.fault)
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
	spectatorREST   = "teams=/api/tournaments/" + season + "/auction,bracket=/api/tournaments/" + season +
		"/bracket,registrations=/api/tournament/registrations?tournamentName=" + nextSeason
)

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
		since: strings.Join(sinceArg, ","), rest: spectatorREST, reconnect: true, events: 8 * (cfg.lots*25 + cfg.players*3 + 200)}
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
	rep.Fault = n.faultReport(rep)
	rep.Usage.per(rep)
	failed = len(rep.failures()) > 0
	return rep, nil
}

// captainsTopic is PPL7's captains room.
const captainsTopic = "captains:" + season

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

// nightReport is what the night measured.
type nightReport struct {
	Config       string         `json:"config"`
	SeedSeconds  float64        `json:"seed_seconds"`
	NightSeconds float64        `json:"night_seconds"`
	Spectators   *report        `json:"spectators"` // connect, memory, and losses over every event
	Members      *report        `json:"members"`    // the captains and the organiser (captains room, teams)
	Actions      []actionStat   `json:"actions"`
	Delivery     []deliveryStat `json:"delivery"` // per event kind, to the spectators; the last is "all"
	Room         *deliveryStat  `json:"room"`     // room messages to the captains and the organiser
	Relay        deliveryStat   `json:"relay"`    // transaction to the relay's mark
	Events       map[string]int `json:"events"`   // per topic
	Usage        *usageReport   `json:"usage"`
	Bot          *botCheck      `json:"bot"`
	Check        *consistency   `json:"check"`
	Fault        *faultReport   `json:"fault,omitempty"`
}

type actionStat struct {
	Name          string      `json:"name"`
	Count         int         `json:"count"`
	P50, P99, Max float64     // ms
	Answers       map[int]int `json:"answers"` // by status; 0 = no answer
}

type deliveryStat struct {
	Event         string `json:"event"`
	Events        int    `json:"events"`
	Deliveries    int    `json:"deliveries"`
	P50, P99, Max float64
}

// collect matches what the clients got with what was committed.
func (r *nightReport) collect(n *night, events []outboxEvent, workers *workerSet, members *worker, sp *report) {
	topicIndex := map[string]int{}
	for i, t := range strings.Split(spectatorTopics, ",") {
		topicIndex[t] = i
	}
	r.Events = map[string]int{}
	var keys, t0 []int64
	var spectated []outboxEvent
	var relay []int32
	for _, e := range events {
		r.Events[e.Topic]++
		if e.Published != nil {
			relay = append(relay, int32(e.Published.Sub(e.Created).Microseconds()))
		}
		if t, ok := topicIndex[e.Topic]; ok {
			keys = append(keys, eventKey(t, e.Seq))
			t0 = append(t0, e.Created.UnixNano())
			spectated = append(spectated, e)
		}
	}
	results, err := workers.finish(finishCmd{Seqs: keys, T0: t0})
	if err != nil {
		logf("spectators: %v", err)
	}
	sp.add(results, len(keys))
	sp.Config = n.cfg.describe()
	r.Spectators = sp
	r.Delivery = byKind(spectated, results)
	slices.Sort(relay)
	r.Relay = deliveryStat{Event: "relay", Events: len(relay), P50: quantileMs(relay, 0.5), P99: quantileMs(relay, 0.99), Max: quantileMs(relay, 1)}

	// The members: the captains room and the auction.
	var mkeys, mt0 []int64
	var mevents []outboxEvent
	for _, e := range events {
		switch e.Topic {
		case captainsTopic:
			mkeys = append(mkeys, eventKey(0, e.Seq))
		case "teams":
			mkeys = append(mkeys, eventKey(1, e.Seq))
		default:
			continue
		}
		mt0 = append(mt0, e.Created.UnixNano())
		mevents = append(mevents, e)
	}
	mres := []workerResult{members.finish(finishCmd{Seqs: mkeys, T0: mt0})}
	r.Members = &report{Clients: len(members.clients), Connected: len(members.clients)}
	r.Members.add(mres, len(mkeys))
	for _, d := range byKind(mevents, mres) {
		if d.Event == "room.message" {
			r.Room = &d
		}
	}
	r.Actions = actionStats(n.all())
}

// byKind is the delivery latency per kind of event, and over all.
func byKind(events []outboxEvent, results []workerResult) []deliveryStat {
	per := map[string][]int32{}
	count := map[string]int{}
	var all []int32
	for i, e := range events {
		count[e.Name]++
		for _, res := range results {
			if i < len(res.Latency) {
				per[e.Name] = append(per[e.Name], res.Latency[i]...)
				all = append(all, res.Latency[i]...)
			}
		}
	}
	var out []deliveryStat
	for name, l := range per {
		slices.Sort(l)
		out = append(out, deliveryStat{Event: name, Events: count[name], Deliveries: len(l), P50: quantileMs(l, 0.5), P99: quantileMs(l, 0.99), Max: quantileMs(l, 1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Deliveries > out[j].Deliveries })
	slices.Sort(all)
	return append(out, deliveryStat{Event: "all", Events: len(events), Deliveries: len(all), P50: quantileMs(all, 0.5), P99: quantileMs(all, 0.99), Max: quantileMs(all, 1)})
}

func actionStats(list []actionRecord) []actionStat {
	by := map[string]*actionStat{}
	took := map[string][]int32{}
	var order []string
	for _, a := range list {
		s := by[a.Name]
		if s == nil {
			s = &actionStat{Name: a.Name, Answers: map[int]int{}}
			by[a.Name] = s
			order = append(order, a.Name)
		}
		s.Count++
		s.Answers[a.Status]++
		took[a.Name] = append(took[a.Name], int32(a.Took.Microseconds()))
	}
	var out []actionStat
	for _, name := range order {
		s, l := by[name], took[name]
		slices.Sort(l)
		s.P50, s.P99, s.Max = quantileMs(l, 0.5), quantileMs(l, 0.99), quantileMs(l, 1)
		out = append(out, *s)
	}
	return out
}

func (c nightConfig) describe() string {
	redis := "Redis " + redactURL(c.redisURL)
	if c.privateRedis {
		redis = "a private Redis"
	}
	pg := "PostgreSQL " + redactURL(c.databaseURL)
	if c.privatePG {
		pg = "a private PostgreSQL"
	}
	fault := "no fault"
	if c.fault != "" {
		fault = fmt.Sprintf("fault %s during lot %d after %d bids", c.fault, c.faultLot, c.faultAfter)
	}
	return fmt.Sprintf("%d instances, %s, %s; %d spectators (half on /auction, half on the bracket) in %d worker process(es); %d players, %d lots of %d s (late bids %d s), fixtures %s; %s",
		c.instances, redis, pg, c.spectators, c.procs, c.players, c.lots, c.lotSeconds, c.lateBidSeconds, c.format, fault)
}

// failures are what makes the night a failure: a loss, a duplicate, an
// event out of order, an inconsistent state, a 500.
func (r *nightReport) failures() []string {
	var out []string
	for name, rep := range map[string]*report{"spectators": r.Spectators, "captains room": r.Members} {
		if rep == nil {
			continue
		}
		if rep.Lost > 0 || rep.Duplicates > 0 || rep.SeqGaps > 0 || rep.OutOfOrder > 0 || rep.Gone > 0 {
			out = append(out, fmt.Sprintf("%s: %d lost, %d duplicated, %d gaps, %d out of order, %d without a connection at the end",
				name, rep.Lost, rep.Duplicates, rep.SeqGaps, rep.OutOfOrder, rep.Gone))
		}
	}
	for _, a := range r.Actions {
		if a.Answers[500] > 0 {
			out = append(out, fmt.Sprintf("%s answered 500 %d times", a.Name, a.Answers[500]))
		}
	}
	if r.Check != nil && len(r.Check.Problems) > 0 {
		out = append(out, fmt.Sprintf("%d problems with the final state", len(r.Check.Problems)))
	}
	if b := r.Bot; b != nil && b.Twice > 0 {
		out = append(out, fmt.Sprintf("the bot announced %d things twice", b.Twice))
	}
	// Under a fault the bot may miss news: it follows the hub from when it
	// takes over, and passes over what a resync leaves out (internal/bot:
	// missed news is old news). Without one it misses nothing.
	if b := r.Bot; b != nil && b.Missing > 0 && r.Fault == nil {
		out = append(out, fmt.Sprintf("the bot missed %d announcements", b.Missing))
	}
	return out
}

// faultReport says what the fault did to the night.
type faultReport struct {
	Kind    string  `json:"kind"`
	Lot     int64   `json:"lot"`
	Seconds float64 `json:"seconds"` // the outage, from the kill or the stop to the server back
	// Killed, RelayHolder and BotHolder are instance indexes (kill).
	Killed      int            `json:"killed"`
	RelayHolder int            `json:"relay_holder"`
	BotHolder   int            `json:"bot_holder"`
	LateMs      float64        `json:"lot_late_ms"` // how long after its deadline the fault's lot closed
	During      map[int]int    `json:"answers_during"`
	DuringBids  map[int]int    `json:"bid_answers_during"`
	Actions     map[string]int `json:"actions_during"`
}

func (n *night) faultReport(r *nightReport) *faultReport {
	f := n.fault
	if f.Kind == "" || f.From.IsZero() {
		return nil
	}
	fr := &faultReport{Kind: f.Kind, Lot: f.Lot, Seconds: f.To.Sub(f.From).Seconds(), Killed: f.Victim, RelayHolder: f.Relay,
		BotHolder: f.Bot, During: map[int]int{}, DuringBids: map[int]int{}, Actions: map[string]int{}}
	// What the outage's requests were answered: from its start until the
	// first 2xx after it ended (the pool reconnects on demand).
	end := f.To.Add(2 * time.Second)
	for _, a := range n.all() {
		if a.Start.Before(f.From) || a.Start.After(end) {
			continue
		}
		fr.During[a.Status]++
		fr.Actions[a.Name]++
		if a.Name == "bid" {
			fr.DuringBids[a.Status]++
		}
	}
	n.mu.Lock()
	lots := slices.Clone(n.lots)
	n.mu.Unlock()
	if i := slices.Index(lots, f.Lot); i >= 0 && r.Check != nil && i < len(r.Check.LotLateMs) {
		fr.LateMs = r.Check.LotLateMs[i]
	}
	return fr
}

func (r *nightReport) print(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("night:      %s", r.Config)
	if sp := r.Spectators; sp != nil {
		p("setup:      seeded in %.1f s; %d of %d spectators connected in %.1f s (%d errors); servers' RSS %.1f MB before, %.1f MB with all idle: %.1f KB per spectator",
			r.SeedSeconds, sp.Connected, sp.Clients, sp.ConnectSeconds, sp.ConnectErrors, sp.ServerRSSBaseMB, sp.ServerRSSIdleMB, sp.RSSPerConnKB)
		if sp.FirstConnectError != "" {
			p("            first connect error: %s", sp.FirstConnectError)
		}
	}
	var topics []string
	for t, n := range r.Events {
		topics = append(topics, fmt.Sprintf("%d on %s", n, t))
	}
	slices.Sort(topics)
	p("the night:  %.1f s; events: %s", r.NightSeconds, strings.Join(topics, ", "))
	p("actions:    request to answer, ms (answers by status; 0: none)")
	for _, a := range r.Actions {
		var answers []string
		for _, st := range slices.Sorted(maps.Keys(a.Answers)) {
			answers = append(answers, fmt.Sprintf("%d×%d", st, a.Answers[st]))
		}
		p("  %-20s %5d  p50 %7.1f  p99 %7.1f  max %7.1f   %s", a.Name, a.Count, a.P50, a.P99, a.Max, strings.Join(answers, " "))
	}
	p("delivery:   the change's transaction to each spectator, ms")
	for _, d := range r.Delivery {
		p("  %-20s %5d events %9d deliveries  p50 %7.1f  p99 %7.1f  max %7.1f", d.Event, d.Events, d.Deliveries, d.P50, d.P99, d.Max)
	}
	p("  %-20s %5d events  (the change's transaction to the relay's mark)  p50 %7.1f  p99 %7.1f  max %7.1f", "relay", r.Relay.Events, r.Relay.P50, r.Relay.P99, r.Relay.Max)
	if d := r.Room; d != nil {
		p("  %-20s %5d messages %7d deliveries to the captains and the organiser  p50 %7.1f  p99 %7.1f  max %7.1f", "captains room", d.Events, d.Deliveries, d.P50, d.P99, d.Max)
	}
	for _, x := range []struct {
		name string
		rep  *report
	}{{"spectators", r.Spectators}, {"captains room", r.Members}} {
		if d := x.rep; d != nil {
			p("events:     %s: %d lost, %d duplicated, %d seq gaps, %d out of order; %d resyncs (%d events read over REST after them, %d reads failed); %d connections dropped, %d came back, %d without one at the end; %d error frames, %d unexpected",
				x.name, d.Lost, d.Duplicates, d.SeqGaps, d.OutOfOrder, d.Resyncs, d.Resynced, d.RefetchErrors, d.Dropped, d.Reconnects, d.Gone, d.ErrorFrames, d.Unexpected)
			if d.Refetches > 0 {
				p("            %s: %d REST reads after the resyncs, from the resync to the answer: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
					x.name, d.Refetches, d.RefetchP50Ms, d.RefetchP99Ms, d.RefetchMaxMs)
			}
		}
	}
	if c := r.Check; c != nil {
		late := slices.Clone(c.LotLateMs)
		slices.Sort(late)
		if len(late) > 0 {
			p("lots:       %d lots: %d sold, %d unsold, each closed by its countdown: %.0f ms after its deadline at the median, %.0f ms at most",
				len(late), c.Sold, c.Unsold, late[len(late)/2], late[len(late)-1])
		}
	}
	if b := r.Bot; b != nil {
		var kinds []string
		for _, k := range announcementKinds {
			kinds = append(kinds, fmt.Sprintf("%s %d/%d", k.kind, b.Posted[k.kind], b.Expected[k.kind]))
		}
		p("bot:        %d announcements, %d missing (%s); %d posted twice; %d gateway session(s)",
			b.Announced, b.Missing, strings.Join(kinds, ", "), b.Twice, b.Sessions)
	}
	if u := r.Usage; u != nil {
		line := fmt.Sprintf("servers %.1f CPU-s over %.0f s (%.0f%% of a core): %.2f ms per event, %.1f µs per frame delivered (%d events, %d frames)",
			u.ServersCPU, u.Seconds, 100*u.ServersCPU/max(u.Seconds, 1e-9), u.ServerMsPerEvent, u.ServerUsPerFrame, u.Events, u.Frames)
		p("usage:      %s", line)
		redis := fmt.Sprintf("Redis: %d commands (%.1f per event; a shared Redis counts everyone's)", u.RedisCommands, u.RedisCmdsPerEvent)
		if u.RedisCPU >= 0 {
			redis = fmt.Sprintf("Redis: %d commands (%.1f per event)", u.RedisCommands, u.RedisCmdsPerEvent)
		}
		if u.RedisCPU >= 0 {
			redis += fmt.Sprintf(", %.2f CPU-s (%.2f ms per event)", u.RedisCPU, u.RedisMsPerEvent)
		}
		pg := fmt.Sprintf("PostgreSQL: %d commits (%.1f per action)", u.PGCommits, u.PGCommitsPerAct)
		if u.PGCPU >= 0 {
			pg += fmt.Sprintf(", %.2f CPU-s (%.2f ms per action)", u.PGCPU, u.PGMsPerAction)
		}
		p("            %s; %s; %d actions", redis, pg, u.Actions)
		if len(u.RedisByCommand) > 0 {
			var cmds []string
			for _, c := range slices.SortedFunc(maps.Keys(u.RedisByCommand), func(a, b string) int {
				return cmp.Compare(u.RedisByCommand[b], u.RedisByCommand[a])
			}) {
				cmds = append(cmds, fmt.Sprintf("%s %d", c, u.RedisByCommand[c]))
			}
			p("            Redis by command: %s", strings.Join(cmds, ", "))
		}
	}
	if f := r.Fault; f != nil {
		var during []string
		for _, st := range slices.Sorted(maps.Keys(f.During)) {
			during = append(during, fmt.Sprintf("%d×%d", st, f.During[st]))
		}
		var bids []string
		for _, st := range slices.Sorted(maps.Keys(f.DuringBids)) {
			bids = append(bids, fmt.Sprintf("%d×%d", st, f.DuringBids[st]))
		}
		what := map[string]string{
			faultKill:     fmt.Sprintf("kill -9 of instance %d (the relay's lock was instance %d's, the bot's instance %d's)", f.Killed+1, f.RelayHolder+1, f.BotHolder+1),
			faultRedis:    fmt.Sprintf("Redis killed and restarted empty, %.1f s away", f.Seconds),
			faultPostgres: fmt.Sprintf("PostgreSQL stopped (fast) and started again, %.1f s away", f.Seconds),
		}[f.Kind]
		p("fault:      %s, during the lot of id %d; it closed %.0f ms after its deadline", what, f.Lot, f.LateMs)
		p("            answers from the fault until 2 s after it: %s (bids: %s)", strings.Join(during, " "), strings.Join(bids, " "))
	}
	if c := r.Check; c != nil {
		if len(c.Problems) == 0 {
			p("check:      one consistent state: %s", strings.Join(c.Checked, "; "))
		}
		for _, pr := range c.Problems {
			p("            INCONSISTENT: %s", pr)
		}
	}
	if bad := r.failures(); len(bad) > 0 {
		p("verdict:    FAILED: %s", strings.Join(bad, "; "))
	} else {
		p("verdict:    0 accepted bids lost, 0 events lost to a connected client (or a resync), one consistent final state")
	}
}
