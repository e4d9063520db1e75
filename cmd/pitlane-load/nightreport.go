// What a league night measured and prints, and what makes it fail.

package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

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
	if c.redisAOF {
		redis += " with an append-only file"
	}
	if c.fault == faultFailover {
		redis += ", a replica and three sentinels"
	}
	pg := "PostgreSQL " + redactURL(c.databaseURL)
	if c.privatePG {
		pg = "a private PostgreSQL"
	}
	fault := "no fault"
	if c.restResync {
		fault = "resyncs read over REST, no fault"
	}
	if c.fault != "" {
		fault = fmt.Sprintf("fault %s during lot %d after %d bids", c.fault, c.faultLot, c.faultAfter)
		if c.restResync {
			fault += " (resyncs read over REST: no page named)"
		}
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
	// Recovery is, for each spectator dropped or told to resync, the time
	// from the fault's end until its page held the current state again:
	// back with its replay done, or its page read again after the resync.
	Recovery *recovery `json:"recovery_ms,omitempty"`
	// Reads is, per instance, what its hub read from the fault to the end
	// of the night: history reads (clients coming back with since) and
	// pages read for a mass resync (-1: the instance could not be asked).
	Reads []hubReads `json:"hub_reads,omitempty"`
}

// recovery sums up the spectators' recovery times, ms.
type recovery struct {
	Clients int     `json:"clients"` // dropped or told to resync
	Never   int     `json:"never"`   // of those, how many never recovered
	P50     float64 `json:"p50"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// recoveryAfter sums up recovered (unix ns; 0: never) from end on: a
// client back before the fault ended counts 0.
func recoveryAfter(recovered []int64, end time.Time) *recovery {
	r := &recovery{Clients: len(recovered)}
	var us []int32
	for _, t := range recovered {
		if t == 0 {
			r.Never++
			continue
		}
		us = append(us, int32(min(max(t-end.UnixNano(), 0)/1000, math.MaxInt32)))
	}
	slices.Sort(us)
	r.P50, r.P99, r.Max = quantileMs(us, 0.5), quantileMs(us, 0.99), quantileMs(us, 1)
	return r
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
	if r.Spectators != nil {
		fr.Recovery = recoveryAfter(r.Spectators.recovered, f.To)
	}
	for i, after := range n.hubReads() {
		d := hubReads{History: -1, Pages: -1}
		if i < len(f.Reads) && after.History >= 0 && f.Reads[i].History >= 0 {
			d = hubReads{History: after.History - f.Reads[i].History, Pages: after.Pages - f.Reads[i].Pages}
		}
		fr.Reads = append(fr.Reads, d)
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
			p("events:     %s: %d lost, %d duplicated, %d seq gaps, %d out of order; %d resyncs (%d brought their page; %d events read over REST or in pages after them, %d reads failed); %d connections dropped, %d came back, %d without one at the end; %d error frames, %d unexpected",
				x.name, d.Lost, d.Duplicates, d.SeqGaps, d.OutOfOrder, d.Resyncs, d.Paged, d.Resynced, d.RefetchErrors, d.Dropped, d.Reconnects, d.Gone, d.ErrorFrames, d.Unexpected)
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
			faultRedis:    fmt.Sprintf("Redis killed and restarted (empty unless -redis-aof), %.1f s away", f.Seconds),
			faultFailover: fmt.Sprintf("the Redis primary killed, its replica promoted by the sentinels %.1f s later", f.Seconds),
			faultPostgres: fmt.Sprintf("PostgreSQL stopped (fast) and started again, %.1f s away", f.Seconds),
		}[f.Kind]
		p("fault:      %s, during the lot of id %d; it closed %.0f ms after its deadline", what, f.Lot, f.LateMs)
		p("            answers from the fault until 2 s after it: %s (bids: %s)", strings.Join(during, " "), strings.Join(bids, " "))
		if rc := f.Recovery; rc != nil {
			p("            recovery: %d spectators dropped or told to resync (%d never recovered); from the fault's end until each page held the current state: p50 %.0f ms, p99 %.0f ms, max %.0f ms",
				rc.Clients, rc.Never, rc.P50, rc.P99, rc.Max)
		}
		var reads []string
		for i, hr := range f.Reads {
			if hr.History < 0 {
				reads = append(reads, fmt.Sprintf("instance %d not asked", i+1))
				continue
			}
			reads = append(reads, fmt.Sprintf("instance %d: %.0f history reads, %.0f pages", i+1, hr.History, hr.Pages))
		}
		if len(reads) > 0 {
			p("            the hubs' reads from the fault to the end (%d topics followed): %s", len(strings.Split(spectatorTopics, ","))+1, strings.Join(reads, "; "))
		}
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
