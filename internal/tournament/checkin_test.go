package tournament_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// jobs records what the service asks of the scheduler; the tests run the
// jobs themselves (internal/app runs them through river).
type jobs struct {
	mu        sync.Mutex
	scheduled []tournament.CheckinDeadline
	dropped   int
}

func (j *jobs) Schedule(_ context.Context, job core.Job, _ time.Time) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.scheduled = append(j.scheduled, job.(tournament.CheckinDeadline))
	return nil
}

func (j *jobs) Unschedule(_ context.Context, kind, field string, _ any) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if kind == (tournament.CheckinDeadline{}).Kind() && field == "tournament" {
		j.dropped++
	}
	return nil
}

// season is a tournament of its own on the league's database, with its
// organiser, a clock the test sets, and the jobs asked for.
type season struct {
	league
	name  string
	admin core.Actor
	jobs  *jobs
	now   time.Time
}

func newSeason(t *testing.T) *season {
	t.Helper()
	l := newLeague(t)
	s := &season{league: l, jobs: &jobs{}, now: time.Now()}
	l.svc.Jobs, l.svc.Now = s.jobs, func() time.Time { return s.now }
	s.admin = core.Actor{UserID: l.player(t).UserID, Name: "organiser", Admin: true}
	s.name = fmt.Sprintf("CUP%d", time.Now().UnixNano()%1_000_000)
	if _, err := l.svc.Create(context.Background(), s.admin, tournament.NewTournament{Name: s.name}); err != nil {
		t.Fatal(err)
	}
	return s
}

// register signs n players up and registers them, in order.
func (s *season) register(t *testing.T, n int) ([]core.Actor, []tournament.Entry) {
	t.Helper()
	var (
		players []core.Actor
		entries []tournament.Entry
	)
	for range n {
		p := s.player(t)
		e, err := s.svc.Register(context.Background(), p, s.name)
		if err != nil {
			t.Fatal(err)
		}
		players, entries = append(players, p), append(entries, e)
	}
	return players, entries
}

// card is the player's card on the public list.
func (s *season) card(t *testing.T, p core.Actor) tournament.Player {
	t.Helper()
	tt, err := s.svc.Find(context.Background(), s.name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.svc.Registrations(context.Background(), tt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Players {
		if c.ID == p.UserID {
			return c
		}
	}
	t.Fatalf("player %d is not on the list", p.UserID)
	return tournament.Player{}
}

func (s *season) entry(t *testing.T, p core.Actor) tournament.Entry {
	t.Helper()
	e, err := s.svc.EntryOf(context.Background(), p, s.name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func (s *season) places(t *testing.T) tournament.Places {
	t.Helper()
	info, err := s.svc.Info(context.Background(), s.name)
	if err != nil {
		t.Fatal(err)
	}
	return info.Places
}

// audited is the newest audit entry of the season with action.
func (s *season) audited(t *testing.T, action string) core.AuditEntry {
	t.Helper()
	tt, _ := s.svc.Find(context.Background(), s.name)
	entries, err := postgres.Audit{DB: s.db}.List(context.Background(), core.AuditFilter{TournamentID: tt.ID, Action: action, Limit: 1})
	if err != nil || len(entries) != 1 {
		t.Fatalf("no %s in the audit log: %v", action, err)
	}
	return entries[0]
}

func wantRefusal(t *testing.T, what string, err error, kind, msg string) {
	t.Helper()
	if errs.KindOf(err) != kind || (msg != "" && errs.MessageOf(err) != msg) {
		t.Fatalf("%s: %s %q, want %s %q", what, errs.KindOf(err), errs.MessageOf(err), kind, msg)
	}
}

func TestRegistrationCap(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	if _, err := s.svc.SetCap(ctx, s.admin, s.name, 2); err != nil {
		t.Fatal(err)
	}
	players, entries := s.register(t, 4)

	t.Run("RegisteringBeyondTheCapWaitsInOrder", func(t *testing.T) {
		want := []struct {
			status string
			place  int
		}{{tournament.Confirmed, 0}, {tournament.Confirmed, 0}, {tournament.Waitlisted, 1}, {tournament.Waitlisted, 2}}
		for i, e := range entries {
			if e.Status != want[i].status || e.Place != want[i].place {
				t.Errorf("player %d: %+v, want %+v", i, e, want[i])
			}
		}
		if msg := fmt.Sprintf(tournament.MsgWaitlistFull, s.name, 2); entries[3].Message != msg {
			t.Errorf("message %q, want %q", entries[3].Message, msg)
		}
		if p := s.places(t); p.Cap != 2 || p.Confirmed != 2 || p.Waitlisted != 2 {
			t.Errorf("places %+v", p)
		}
		if _, name, data := s.lastEvent(t, core.TopicRegistrations); name != tournament.EventRegistered ||
			data["player"].(map[string]any)["status"] != tournament.Waitlisted {
			t.Errorf("%s %v", name, data)
		}
	})
	t.Run("AnUnregistrationPromotesTheFirstWaiting", func(t *testing.T) {
		if err := s.svc.Unregister(ctx, players[0], s.name); err != nil {
			t.Fatal(err)
		}
		if e := s.entry(t, players[2]); e.Status != tournament.Confirmed {
			t.Fatalf("the first waiting player is %+v", e)
		}
		if e := s.entry(t, players[3]); e.Status != tournament.Waitlisted || e.Place != 1 {
			t.Fatalf("the second waiting player is %+v", e)
		}
		_, name, data := s.lastEvent(t, core.TopicRegistrations)
		cards, _ := data["players"].([]any)
		if name != tournament.EventRegistration || len(cards) != 1 || cards[0].(map[string]any)["id"] != float64(players[2].UserID) {
			t.Fatalf("%s %v", name, data)
		}
		if a := s.audited(t, tournament.ActionPromote); a.Actor.Name != core.AuditSystem {
			t.Fatalf("promoted by %+v", a.Actor)
		}
	})
	t.Run("AWaitingPlayerLeavingPromotesNobody", func(t *testing.T) {
		extra, _ := s.register(t, 1) // waiting, place 2
		if err := s.svc.Unregister(ctx, extra[0], s.name); err != nil {
			t.Fatal(err)
		}
		if p := s.places(t); p.Confirmed != 2 || p.Waitlisted != 1 {
			t.Fatalf("places %+v", p)
		}
	})
	t.Run("ALowerCapMovesNobody", func(t *testing.T) {
		if _, err := s.svc.SetCap(ctx, s.admin, s.name, 1); err != nil {
			t.Fatal(err)
		}
		if p := s.places(t); p.Confirmed != 2 || p.Waitlisted != 1 {
			t.Fatalf("places %+v", p)
		}
	})
	t.Run("AHigherCapPromotesInOrder", func(t *testing.T) {
		places, err := s.svc.SetCap(ctx, s.admin, s.name, 5)
		if err != nil || places.Confirmed != 3 || places.Waitlisted != 0 || places.Cap != 5 {
			t.Fatalf("%+v %v", places, err)
		}
		if e := s.entry(t, players[3]); e.Status != tournament.Confirmed {
			t.Fatalf("%+v", e)
		}
		a := s.audited(t, tournament.ActionCap)
		var data map[string]int
		if err := json.Unmarshal(a.Data, &data); err != nil || a.Actor.Name != "organiser" || data["from"] != 1 || data["to"] != 5 {
			t.Fatalf("%+v %s", a.Actor, a.Data)
		}
	})
	t.Run("ErrCapOutOfRange", func(t *testing.T) {
		_, err := s.svc.SetCap(ctx, s.admin, s.name, tournament.MaxCap+1)
		wantRefusal(t, "a cap over the maximum", err, errs.Invalid, "")
	})
	t.Run("ErrCapIsForOrganisers", func(t *testing.T) {
		_, err := s.svc.SetCap(ctx, players[1], s.name, 10)
		wantRefusal(t, "a player's cap", err, errs.Forbidden, core.MsgAdminsOnly)
	})
}

func TestCheckin(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	players, _ := s.register(t, 4)
	stranger := s.player(t)
	deadline := s.now.Add(2 * time.Hour).UTC().Truncate(time.Minute)

	t.Run("ErrNotOpenYet", func(t *testing.T) {
		_, err := s.svc.CheckIn(ctx, players[0], s.name)
		wantRefusal(t, "a check-in before the window", err, errs.Conflict, fmt.Sprintf(tournament.MsgCheckinNotOpen, s.name))
	})
	t.Run("ErrADeadlineInThePast", func(t *testing.T) {
		past := s.now.Add(-time.Minute)
		_, err := s.svc.OpenCheckin(ctx, s.admin, s.name, &past)
		wantRefusal(t, "a deadline in the past", err, errs.Unprocessable, "")
	})
	t.Run("ErrNothingToCancel", func(t *testing.T) {
		_, err := s.svc.OpenCheckin(ctx, s.admin, s.name, nil)
		wantRefusal(t, "cancelling no window", err, errs.Conflict, s.name+" has no check-in to cancel.")
	})
	t.Run("OpeningWritesTheDeadlineJob", func(t *testing.T) {
		places, err := s.svc.OpenCheckin(ctx, s.admin, s.name, &deadline)
		if err != nil || places.CheckinState != tournament.CheckinOpen || !places.Checkin.Deadline.Equal(deadline) {
			t.Fatalf("%+v %v", places, err)
		}
		tt, _ := s.svc.Find(ctx, s.name)
		if want := (tournament.CheckinDeadline{Tournament: tt.ID, Deadline: deadline}); !slices.Contains(s.jobs.scheduled, want) || s.jobs.dropped != 1 {
			t.Fatalf("jobs %+v, %d dropped", s.jobs.scheduled, s.jobs.dropped)
		}
		if _, name, data := s.lastEvent(t, core.TopicRegistrations); name != tournament.EventPlaces ||
			data["places"].(map[string]any)["checkin_state"] != tournament.CheckinOpen {
			t.Fatalf("%s %v", name, data)
		}
	})
	t.Run("APlayerChecksInOnce", func(t *testing.T) {
		e, err := s.svc.CheckIn(ctx, players[0], s.name)
		if err != nil || e.CheckedInAt == nil || e.Message != fmt.Sprintf(tournament.MsgCheckedIn, s.name) {
			t.Fatalf("%+v %v", e, err)
		}
		if a := s.audited(t, tournament.ActionCheckin); a.Target != s.card(t, players[0]).Name {
			t.Fatalf("audited %+v", a)
		}
		before := s.seq(t)
		again, err := s.svc.CheckIn(ctx, players[0], s.name)
		if err != nil || again.Message != fmt.Sprintf(tournament.MsgCheckedInAlready, s.name) || s.seq(t) != before {
			t.Fatalf("%+v %v; seq %d -> %d", again, err, before, s.seq(t))
		}
		if s.card(t, players[0]).CheckedInAt == nil || s.places(t).CheckedIn != 1 {
			t.Fatal("the list does not say so")
		}
	})
	t.Run("ErrNotRegistered", func(t *testing.T) {
		_, err := s.svc.CheckIn(ctx, stranger, s.name)
		wantRefusal(t, "a stranger's check-in", err, errs.Conflict, tournament.MsgNotRegistered)
	})
	t.Run("ErrTheSeasonWaitsForTheDeadline", func(t *testing.T) {
		// Forcing overrides what is incomplete, never the check-in's deadline.
		_, err := s.svc.SetStatus(ctx, s.admin, s.name, tournament.StatusAuction, true)
		wantRefusal(t, "the auction before the check-in closed", err, errs.Conflict, "")
	})
	t.Run("AMovedDeadlineLeavesTheOldJobNothingToDo", func(t *testing.T) {
		later := deadline.Add(time.Hour)
		if _, err := s.svc.OpenCheckin(ctx, s.admin, s.name, &later); err != nil {
			t.Fatal(err)
		}
		tt, _ := s.svc.Find(ctx, s.name)
		before := s.seq(t)
		if err := s.svc.CheckinDeadlineDue(ctx, tournament.CheckinDeadline{Tournament: tt.ID, Deadline: deadline}); err != nil {
			t.Fatal(err)
		}
		if s.seq(t) != before || s.entry(t, players[1]).Status != tournament.Confirmed {
			t.Fatal("the old deadline closed the window")
		}
		deadline = later
	})
	t.Run("TheDeadlineMovesWhoDidNotCheckInToTheWaitlist", func(t *testing.T) {
		tt, _ := s.svc.Find(ctx, s.name)
		// Team A's captain never checks in and keeps their place.
		if _, err := s.db.Pool.Exec(ctx, `UPDATE teams SET captain_user_id = $2 WHERE tournament_id = $1 AND letter = 'A'`,
			tt.ID, players[3].UserID); err != nil {
			t.Fatal(err)
		}
		s.now = deadline.Add(time.Second)
		job := tournament.CheckinDeadline{Tournament: tt.ID, Deadline: deadline}
		if err := s.svc.CheckinDeadlineDue(ctx, job); err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{tournament.Confirmed, tournament.Waitlisted, tournament.Waitlisted, tournament.Confirmed} {
			if got := s.entry(t, players[i]).Status; got != want {
				t.Errorf("player %d is %s, want %s", i, got, want)
			}
		}
		if e := s.entry(t, players[2]); e.Place != 2 {
			t.Errorf("the later registration waits at place %d, want 2", e.Place)
		}
		a := s.audited(t, tournament.ActionCheckinClosed)
		if a.Actor.Name != core.AuditSystem {
			t.Errorf("closed by %+v", a.Actor)
		}
		if p := s.places(t); p.CheckinState != tournament.CheckinClosed || p.Waitlisted != 2 {
			t.Errorf("places %+v", p)
		}
		// The job again: nothing more.
		before := s.seq(t)
		if err := s.svc.CheckinDeadlineDue(ctx, job); err != nil || s.seq(t) != before {
			t.Fatalf("a second run: %v, seq %d -> %d", err, before, s.seq(t))
		}
	})
	t.Run("ErrClosed", func(t *testing.T) {
		_, err := s.svc.CheckIn(ctx, players[1], s.name)
		wantRefusal(t, "a check-in after the deadline", err, errs.Conflict,
			fmt.Sprintf(tournament.MsgCheckinClosed, s.name, tournament.When(deadline)))
	})
	t.Run("RegisteringAfterTheCheckinWaits", func(t *testing.T) {
		_, entries := s.register(t, 1)
		if e := entries[0]; e.Status != tournament.Waitlisted || e.Place != 3 ||
			e.Message != fmt.Sprintf(tournament.MsgWaitlistAfter, s.name, 3) {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("AnOrganiserPromotesWhomTheyChooseAndThatChecksThemIn", func(t *testing.T) {
		e, err := s.svc.Promote(ctx, s.admin, s.name, players[2].UserID)
		if err != nil || e.Status != tournament.Confirmed || e.CheckedInAt == nil {
			t.Fatalf("%+v %v", e, err)
		}
		if e := s.entry(t, players[1]); e.Place != 1 {
			t.Fatalf("the one passed over waits at %d", e.Place)
		}
		_, err = s.svc.Promote(ctx, s.admin, s.name, players[2].UserID)
		wantRefusal(t, "promoting a confirmed player", err, errs.Conflict, "")
		_, err = s.svc.Promote(ctx, players[0], s.name, players[1].UserID)
		wantRefusal(t, "a player promoting", err, errs.Forbidden, core.MsgAdminsOnly)
	})
	t.Run("ErrAPromotionOverTheCap", func(t *testing.T) {
		if _, err := s.svc.SetCap(ctx, s.admin, s.name, 3); err != nil {
			t.Fatal(err)
		}
		_, err := s.svc.Promote(ctx, s.admin, s.name, players[1].UserID)
		wantRefusal(t, "a promotion over the cap", err, errs.Conflict, fmt.Sprintf("%s is full (3 of 3 places): raise the cap first.", s.name))
		// Once closed, a higher cap leaves the waitlist to the organisers.
		if _, err := s.svc.SetCap(ctx, s.admin, s.name, 10); err != nil {
			t.Fatal(err)
		}
		if e := s.entry(t, players[1]); e.Status != tournament.Waitlisted {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("NowTheSeasonMayMoveOn", func(t *testing.T) {
		// Its teams have no captains: the organiser moves on all the same.
		if _, err := s.svc.SetStatus(ctx, s.admin, s.name, tournament.StatusAuction, true); err != nil {
			t.Fatal(err)
		}
		// The job of a season past registration does nothing.
		tt, _ := s.svc.Find(ctx, s.name)
		before := s.seq(t)
		if err := s.svc.CheckinDeadlineDue(ctx, tournament.CheckinDeadline{Tournament: tt.ID, Deadline: deadline}); err != nil || s.seq(t) != before {
			t.Fatalf("%v", err)
		}
	})
}
