package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// smallNight plays the night scenario small (100 spectators, 4 players,
// 3 lots on a 2-second countdown, a single elimination) against two real
// `pitlane serve` instances, with fault ("" for none).
func smallNight(t *testing.T, fault string, extra ...string) *nightReport {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	switch fault {
	case faultRedis:
		if _, err := exec.LookPath("redis-server"); err != nil {
			t.Skip("the Redis fault restarts a redis-server of its own: redis-server is not installed")
		}
	case faultPostgres:
		if _, err := pgBinDir(); err != nil {
			t.Skipf("the PostgreSQL fault restarts a cluster of its own: %v", err)
		}
	}
	args := append([]string{"-pitlane", pitlaneBinary(t), "-database-url", pgtest.AdminURL(), "-redis-url", testkit.RedisURL(),
		"-instances", "2", "-spectators", "100", "-procs", "1", "-local-ips", "2", "-players", "4", "-lots", "3",
		"-lot-seconds", "2", "-late-bid-seconds", "1", "-bid-interval", "100ms", "-player-interval", "100ms",
		"-room-interval", "300ms", "-match-interval", "50ms", "-format", "single_elimination",
		"-idle", "200ms", "-settle", "500ms", "-timeout", "4m", "-fault", fault}, extra...)
	cfg, err := parseNight(args)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measureNight(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.print(&out)
	t.Log("\n" + out.String())
	return rep
}

// nothingLost: every spectator and every captain got every event of what
// it follows, or read it over REST after a resync; none twice, none out of
// order, none left without a connection; no request was answered 500; and
// the final state is one consistent state.
func nothingLost(t *testing.T, rep *nightReport) {
	t.Helper()
	for name, d := range map[string]*report{"spectators": rep.Spectators, "captains": rep.Members} {
		if d.Connected != d.Clients || d.Delivered == 0 {
			t.Errorf("%s: %d of %d connected, %d deliveries", name, d.Connected, d.Clients, d.Delivered)
		}
		if d.Lost != 0 || d.Duplicates != 0 || d.SeqGaps != 0 || d.OutOfOrder != 0 || d.Gone != 0 || d.Unexpected != 0 || d.RefetchErrors != 0 {
			t.Errorf("%s: %d lost, %d duplicated, %d gaps, %d out of order, %d gone, %d unexpected, %d failed REST reads",
				name, d.Lost, d.Duplicates, d.SeqGaps, d.OutOfOrder, d.Gone, d.Unexpected, d.RefetchErrors)
		}
	}
	for _, a := range rep.Actions {
		if a.Answers[500] > 0 {
			t.Errorf("%s answered 500 %d times", a.Name, a.Answers[500])
		}
	}
	if c := rep.Check; len(c.Problems) > 0 {
		t.Errorf("the final state is not one consistent state:\n%s", strings.Join(c.Problems, "\n"))
	}
	if c := rep.Check; c.Sold+c.Unsold != 3 {
		t.Errorf("%d lots closed, want the 3 opened", c.Sold+c.Unsold)
	}
	if rep.Bot.Twice > 0 || rep.Bot.Missing > 0 {
		t.Errorf("the bot announced %d things twice and missed %d: posted %v, expected %v", rep.Bot.Twice, rep.Bot.Missing, rep.Bot.Posted, rep.Bot.Expected)
	}
}

// A league night: PPL7's auction with the real countdown and its matches
// to a champion, PPL8's registrations, the captains room and the bot, with
// spectators on /auction and the bracket over two instances. Every event
// reaches everyone who follows it, the bot announces each piece of news
// once, and the final state is one consistent state.
func TestNight(t *testing.T) {
	rep := smallNight(t, "")
	nothingLost(t, rep)
	if rep.Spectators.Dropped != 0 || rep.Spectators.Resyncs != 0 {
		t.Errorf("no fault, yet %d connections dropped and %d resyncs", rep.Spectators.Dropped, rep.Spectators.Resyncs)
	}
	if b := rep.Bot; b.Missing != 0 || b.Announced == 0 {
		t.Errorf("the bot announced %d, missed %d: posted %v, expected %v", b.Announced, b.Missing, b.Posted, b.Expected)
	}
	if rep.Room == nil || rep.Room.Deliveries == 0 {
		t.Error("no captains room message reached the captains")
	}
	for _, kind := range []string{"auction.bid", "auction.sold", "player.registered", "match.updated", "standings.updated"} {
		if !hasKind(rep.Delivery, kind) {
			t.Errorf("no %s reached the spectators", kind)
		}
	}
}

// kill -9 of the instance holding the relay and the bot, during an open
// lot whose countdown it armed: its spectators reconnect to the other and
// catch up by seq, the lot still closes by itself at its deadline (the
// other instance heard of it), and no bid it accepted is lost.
func TestNightKillAnInstance(t *testing.T) {
	rep := smallNight(t, faultKill)
	nothingLost(t, rep)
	f, sp := rep.Fault, rep.Spectators
	if f == nil || f.Killed != f.RelayHolder {
		t.Fatalf("fault %+v: the relay's holder should have been killed", f)
	}
	// The other instance's countdown closes the lot on time; the lot's river
	// job, the backstop, would wait for river's leader lease (15 s) to end
	// when the killed instance was river's leader too. A bound far above
	// the ~20 ms it takes, far below that.
	if f.LateMs > 10_000 {
		t.Errorf("the lot closed %.0f ms after its deadline", f.LateMs)
	}
	// Half the spectators were on the killed instance (round-robin).
	if sp.Dropped != 50 || sp.Reconnects != 50 {
		t.Errorf("%d spectators dropped, %d came back; want the killed instance's 50 both", sp.Dropped, sp.Reconnects)
	}
}

// Redis restarted empty in the middle of a lot: every client is told to
// resync and its page comes with it (the page it named, read once per
// instance), so nothing is lost to it and nobody reads it again over REST;
// bids go on being taken, and every one of them stands.
func TestNightRedisRestartedEmpty(t *testing.T) {
	rep := smallNight(t, faultRedis)
	nothingLost(t, rep)
	sp := rep.Spectators
	if sp.Resyncs == 0 {
		t.Error("no spectator was told to resync after Redis came back empty")
	}
	if sp.Paged != sp.Resyncs || sp.Refetches != 0 {
		t.Errorf("%d resyncs, %d brought their page, %d pages read over REST; want every page brought", sp.Resyncs, sp.Paged, sp.Refetches)
	}
	// Three pages (the auction, the bracket, the next season's list): each
	// read once per instance, twice at most (a read running when a client
	// came is not joined), whatever the number of clients.
	for i, r := range rep.Fault.Reads {
		if r.Pages < 1 || r.Pages > 2*3 || r.History > 2*4 {
			t.Errorf("instance %d read %.0f pages and %.0f histories for the resync; want 1-6 pages, at most 2 histories per topic", i+1, r.Pages, r.History)
		}
	}
}

// PostgreSQL restarted in the middle of the bids: the bids of the gap are
// answered 503 (never 500), those before and after stand, and nothing is
// half-written (each stored bid has its event and each event its bid).
func TestNightPostgresRestarted(t *testing.T) {
	rep := smallNight(t, faultPostgres, "-lot-seconds", "6", "-late-bid-seconds", "4", "-down", "1s")
	nothingLost(t, rep)
	if f := rep.Fault; f == nil || f.DuringBids[503] == 0 {
		t.Errorf("no bid was answered 503 while PostgreSQL was away: %+v", f)
	}
}

func hasKind(ds []deliveryStat, kind string) bool {
	for _, d := range ds {
		if d.Event == kind && d.Deliveries > 0 {
			return true
		}
	}
	return false
}

// A client answers for the topics of its page only; an event of one of
// them it never got is lost, unless it read it over REST after a resync
// (its state then holds it), and one it got twice is a duplicate.
func TestLostCountsWhatNeitherCameNorWasReadAfterAResync(t *testing.T) {
	w := newWorker(workerOptions{urls: []string{"ws://127.0.0.1:1/api/ws"}, clients: 2, localIPs: []string{"127.0.0.1"},
		events: 8, topics: []string{"teams", "bracket"}, pages: [][]int{{0}, {0, 1}}})
	auction, bracketPage := w.clients[0], w.clients[1]
	for _, cl := range w.clients {
		cl.connected = true
	}
	got := func(cl *client, topic int, seq int64) {
		cl.arrivals = append(cl.arrivals, arrival{seq: eventKey(topic, seq), at: 2000})
	}
	// Published: teams 1..3, bracket 1..2.
	cmd := finishCmd{Seqs: []int64{eventKey(0, 1), eventKey(0, 2), eventKey(0, 3), eventKey(1, 1), eventKey(1, 2)}, T0: []int64{0, 0, 0, 0, 0}}
	got(auction, 0, 1)
	got(auction, 0, 3) // teams 2 never came: lost
	got(bracketPage, 0, 1)
	got(bracketPage, 0, 2)
	got(bracketPage, 0, 2) // twice
	got(bracketPage, 0, 3)
	got(bracketPage, 1, 2)
	bracketPage.covered = []span{{Topic: 1, From: 0, To: 1}} // bracket 1: read over REST after a resync
	res := w.result(cmd)
	if res.Lost != 1 || res.Resynced != 1 || res.Duplicates != 1 {
		t.Fatalf("lost %d, resynced %d, duplicates %d; want 1, 1, 1", res.Lost, res.Resynced, res.Duplicates)
	}
	if n := len(res.Latency[1]); n != 1 {
		t.Errorf("teams 2 reached %d clients, want 1", n)
	}
}
