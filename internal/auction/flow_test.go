package auction_test

import (
	"context"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
)

// clock is a test's own time, moved by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time       { return c.now }
func (c *clock) pass(d time.Duration) { c.now = c.now.Add(d) }
func (l *league) withClock() *clock {
	c := &clock{now: time.Now().Truncate(time.Millisecond)}
	l.svc.Now = c.Now
	return c
}
func (l *league) lot(id int64) auction.Lot {
	got, _ := postgres.Auction{DB: l.db}.FindLot(context.Background(), l.id(), id)
	return got
}
func (l *league) flow() auction.Flow {
	f, _ := postgres.Auction{DB: l.db}.Flow(context.Background(), l.id())
	return f
}
func (l *league) lastEvent() string { name, _ := l.lastTeamsEvent(); return name }
func (l *league) must(what string, err error) {
	l.t.Helper()
	if err != nil {
		l.t.Fatalf("%s: %v", what, err)
	}
}

// A pause stops the open lot's countdown where it was: no bid is taken and
// its deadline passes without closing it; a resume gives it back the time
// it had left.
func TestPauseStopsTheCountdown(t *testing.T) {
	l := newLeague(t, 4, "A", "B")
	ctx := context.Background()
	c := l.withClock()
	lot := l.open(l.players[0], 1400) // a minute's countdown
	c.pass(20 * time.Second)

	_, err := l.svc.Pause(ctx, l.captains["A"], l.name)
	refused(t, "a captain pauses", err, errs.Forbidden, "")
	news, err := l.svc.Pause(ctx, l.admin, l.name)
	l.must("pause", err)
	if !news.Flow.Paused || news.Lot == nil || news.Lot.PausedLeftMs == nil || *news.Lot.PausedLeftMs != 40_000 {
		t.Fatalf("paused: %+v, lot %+v", news.Flow, news.Lot)
	}
	if l.lastEvent() != auction.EventPaused {
		t.Fatalf("last event %s, want %s", l.lastEvent(), auction.EventPaused)
	}
	_, err = l.svc.Pause(ctx, l.admin, l.name)
	refused(t, "paused twice", err, errs.Conflict, "")
	_, err = l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1400)
	refused(t, "a bid while paused", err, errs.Conflict, auction.MsgPaused)
	_, err = l.svc.OpenLot(ctx, l.admin, l.name, l.players[1], 0)
	refused(t, "a lot while paused", err, errs.Conflict, auction.MsgPaused)

	c.pass(5 * time.Minute) // long past the old deadline
	l.must("the deadline's job", l.svc.CloseDue(ctx, l.id(), lot.ID))
	if got := l.lot(lot.ID); got.Status != auction.LotOpen {
		t.Fatalf("a paused lot closed at its old deadline: %+v", got)
	}

	news, err = l.svc.Resume(ctx, l.admin, l.name)
	l.must("resume", err)
	if news.Flow.Paused || news.Lot == nil || news.Lot.PausedLeftMs != nil || !news.Lot.EndsAt.Equal(c.now.Add(40*time.Second)) {
		t.Fatalf("resumed: %+v, lot %+v, want it to end at %v", news.Flow, news.Lot, c.now.Add(40*time.Second))
	}
	_, err = l.svc.Resume(ctx, l.admin, l.name)
	refused(t, "resumed twice", err, errs.Conflict, auction.MsgNotPaused)
	l.must("a bid once resumed", func() error { _, err := l.svc.Bid(ctx, l.captains["A"], l.name, lot.ID, 1400); return err }())

	c.pass(39 * time.Second)
	l.must("before the new deadline", l.svc.CloseDue(ctx, l.id(), lot.ID))
	if got := l.lot(lot.ID); got.Status != auction.LotOpen {
		t.Fatalf("closed before the time it had left: %+v", got)
	}
	c.pass(2 * time.Second)
	l.must("at the new deadline", l.svc.CloseDue(ctx, l.id(), lot.ID))
	if got := l.lot(lot.ID); got.Status != auction.LotSold {
		t.Fatalf("not sold at the new deadline: %+v", got)
	}
}

// Undo voids the most recent sale standing, and the one before on the
// next undo: the credits go back and the player is in the pool again.
func TestUndoLastSale(t *testing.T) {
	l := newLeague(t, 4, "A", "B")
	ctx := context.Background()
	_, err := l.svc.UndoLastSale(ctx, l.admin, l.name)
	refused(t, "nothing sold", err, errs.Conflict, "")
	l.buy("A", l.players[0], 1500)
	l.buy("B", l.players[1], 1600)
	_, err = l.svc.UndoLastSale(ctx, l.captains["B"], l.name)
	refused(t, "a captain undoes", err, errs.Forbidden, "")

	lot, err := l.svc.UndoLastSale(ctx, l.admin, l.name)
	l.must("undo", err)
	if lot.Player.UserID != l.players[1] || lot.Status != auction.LotVoided {
		t.Fatalf("undid %+v, want the sale of player %d to B", lot, l.players[1])
	}
	if b := l.team("B"); b.PurseLeft != b.Purse || len(b.Players) != 0 {
		t.Fatalf("team B after the undo: %+v", b)
	}
	v, err := l.svc.State(ctx, l.name)
	l.must("state", err)
	inPool := false
	for _, p := range v.Pool {
		inPool = inPool || p.UserID == l.players[1]
	}
	if !inPool || len(v.Sold) != 1 || v.Sold[0].Team != "A" {
		t.Fatalf("after the undo: pool has the player %v, sold %+v", inPool, v.Sold)
	}
	var action string
	l.must("audit", l.db.Pool.QueryRow(ctx, `SELECT action FROM audit_log WHERE tournament_id = $1 ORDER BY id DESC LIMIT 1`, l.id()).Scan(&action))
	if action != auction.ActionUndo {
		t.Fatalf("audited as %q", action)
	}

	lot, err = l.svc.UndoLastSale(ctx, l.admin, l.name)
	l.must("undo again", err)
	if lot.Player.UserID != l.players[0] {
		t.Fatalf("the second undo voided %+v, want the sale to A", lot)
	}
	_, err = l.svc.UndoLastSale(ctx, l.admin, l.name)
	refused(t, "every sale undone", err, errs.Conflict, "")
}

// The turns go round the teams with a captain and a free slot, in letter
// order and round again.
func TestTurnFrom(t *testing.T) {
	captain := &auction.Captain{UserID: 1}
	teams := []auction.Team{
		{ID: "A", Captain: captain, FreeSlots: 2},
		{ID: "B", Captain: nil, FreeSlots: 5},     // no captain
		{ID: "C", Captain: captain, FreeSlots: 0}, // full
		{ID: "D", Captain: captain, FreeSlots: 1},
	}
	for _, c := range []struct{ start, want string }{
		{"", "A"}, {"A", "A"}, {"B", "D"}, {"C", "D"}, {"E", "A"}, {auction.After("D"), "A"}, {auction.After("H"), "A"},
	} {
		if got := auction.TurnFrom(teams, c.start); got != c.want {
			t.Errorf("from %q: %q, want %q", c.start, got, c.want)
		}
	}
	if got := auction.TurnFrom(teams[1:3], "A"); got != "" {
		t.Errorf("no team can nominate, yet %q's turn", got)
	}
}

// Captains nominate in turn; a captain out of time has the strongest
// player left nominated for them; a pause keeps the turn's time left.
func TestNominationTurns(t *testing.T) {
	l := newLeague(t, 8, "A", "B", "C")
	ctx := context.Background()
	c := l.withClock()
	_, err := l.svc.Nominate(ctx, l.captains["A"], l.name, l.players[0])
	refused(t, "turns off", err, errs.Conflict, "")
	_, err = l.svc.SetTurns(ctx, l.admin, l.name, true, 2)
	refused(t, "a 2 s turn", err, errs.Unprocessable, "")

	f, err := l.svc.SetTurns(ctx, l.admin, l.name, true, 0)
	l.must("turns on", err)
	if f.TurnSeconds != 30 || f.Turn != "A" || f.TurnEndsAt == nil || !f.TurnEndsAt.Equal(c.now.Add(30*time.Second)) {
		t.Fatalf("turns on: %+v", f)
	}
	_, err = l.svc.Nominate(ctx, l.captains["B"], l.name, l.players[0])
	refused(t, "B out of turn", err, errs.Conflict, "It is Team A's turn to nominate.")
	_, err = l.svc.Nominate(ctx, core.Actor{UserID: l.players[3]}, l.name, l.players[0])
	refused(t, "a player nominates", err, errs.Forbidden, auction.MsgCaptainsNom)

	lot, err := l.svc.Nominate(ctx, l.captains["A"], l.name, l.players[0])
	l.must("A nominates", err)
	if f := l.flow(); f.Turn != "B" || f.TurnEndsAt != nil {
		t.Fatalf("after A's nomination: %+v, want B's turn waiting for the lot", f)
	}
	_, err = l.svc.Nominate(ctx, l.captains["B"], l.name, l.players[1])
	refused(t, "B while the lot is open", err, errs.Conflict, "Your turn comes once the open lot closes.")
	_, err = l.svc.Close(ctx, l.admin, l.name, lot.ID)
	l.must("close", err)
	f = l.flow()
	if f.Turn != "B" || f.TurnEndsAt == nil {
		t.Fatalf("after the lot: %+v, want B's turn running", f)
	}

	// B pauses 10 s into its turn, for a while: the turn keeps 20 s.
	c.pass(10 * time.Second)
	_, err = l.svc.Pause(ctx, l.admin, l.name)
	l.must("pause", err)
	c.pass(time.Minute)
	l.must("the turn's job while paused", l.svc.NominateDue(ctx, auction.NominateTurn{Tournament: l.id(), Team: "B"}))
	if v, _ := l.svc.State(ctx, l.name); v.Lot != nil {
		t.Fatalf("nominated while paused: %+v", v.Lot)
	}
	_, err = l.svc.Resume(ctx, l.admin, l.name)
	l.must("resume", err)
	if f := l.flow(); f.TurnEndsAt == nil || !f.TurnEndsAt.Equal(c.now.Add(20*time.Second)) {
		t.Fatalf("resumed turn: %+v, want 20 s left", f)
	}

	// B runs out of time: the league nominates the pool's strongest for it.
	v, err := l.svc.State(ctx, l.name)
	l.must("state", err)
	strongest := v.Pool[0]
	c.pass(19 * time.Second)
	l.must("early job", l.svc.NominateDue(ctx, auction.NominateTurn{Tournament: l.id(), Team: "B"}))
	if v, _ := l.svc.State(ctx, l.name); v.Lot != nil {
		t.Fatalf("nominated before the turn ran out: %+v", v.Lot)
	}
	c.pass(2 * time.Second)
	l.must("the turn's job", l.svc.NominateDue(ctx, auction.NominateTurn{Tournament: l.id(), Team: "B"}))
	v, err = l.svc.State(ctx, l.name)
	l.must("state", err)
	if v.Lot == nil || v.Lot.Player.UserID != strongest.UserID || v.Lot.BasePrice != auction.PriceOf(strongest.Tier).Base {
		t.Fatalf("nominated for B: %+v, want %s at their tier's price", v.Lot, strongest.Name)
	}
	if v.Flow.Turn != "C" {
		t.Fatalf("after B's turn: %+v, want C's", v.Flow)
	}
	var action string
	var by *int64
	l.must("audit", l.db.Pool.QueryRow(ctx, `SELECT action, actor_id FROM audit_log WHERE tournament_id = $1 AND action = $2
		ORDER BY id DESC LIMIT 1`, l.id(), auction.ActionNominate).Scan(&action, &by))
	if by != nil {
		t.Fatalf("the league's nomination audited as by user %d", *by)
	}

	// An organiser's lot does not take C's turn: it waits, then runs afresh.
	_, err = l.svc.Close(ctx, l.admin, l.name, v.Lot.ID)
	l.must("close", err)
	c.pass(5 * time.Second)
	organisers := l.open(l.players[5], 0)
	if f := l.flow(); f.Turn != "C" || f.TurnEndsAt != nil {
		t.Fatalf("during the organiser's lot: %+v", f)
	}
	_, err = l.svc.Close(ctx, l.admin, l.name, organisers.ID)
	l.must("close", err)
	if f := l.flow(); f.Turn != "C" || f.TurnEndsAt == nil || !f.TurnEndsAt.Equal(c.now.Add(30*time.Second)) {
		t.Fatalf("after the organiser's lot: %+v, want C's turn afresh", f)
	}

	f, err = l.svc.SetTurns(ctx, l.admin, l.name, false, 0)
	l.must("turns off", err)
	if f.Turns() || f.Turn != "" {
		t.Fatalf("turns off: %+v", f)
	}
}
