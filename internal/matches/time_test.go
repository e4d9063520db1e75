package matches_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
)

// scheduled records the jobs a service puts off.
type scheduled struct {
	mu   sync.Mutex
	jobs []scheduledJob
}

type scheduledJob struct {
	job core.Job
	at  time.Time
}

func (s *scheduled) Schedule(_ context.Context, job core.Job, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, scheduledJob{job, at})
	return nil
}

// Unschedule drops the recorded jobs of kind whose field is value, as the
// real scheduler does.
func (s *scheduled) Unschedule(_ context.Context, kind, field string, value any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.jobs[:0]
	for _, j := range s.jobs {
		b, _ := json.Marshal(j.job)
		var args map[string]any
		_ = json.Unmarshal(b, &args)
		if j.job.Kind() != kind || fmt.Sprint(args[field]) != fmt.Sprint(value) {
			kept = append(kept, j)
		}
	}
	s.jobs = kept
	return nil
}

func (s *season) events(name string) int {
	s.t.Helper()
	var n int
	if err := s.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE event = $1`, name).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// A match's time is set by its home captain or an organiser, in the future
// and within MaxAhead; the match is announced RemindBefore it and called
// overdue OverdueAfter it with no report, unless the time changed meanwhile.
func TestMatchTime(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	s.svc.Now = func() time.Time { return now }
	jobs := &scheduled{}
	s.svc.Jobs = jobs
	m, home, away, outsider := s.firstMatch()
	var player core.Actor
	for _, p := range m.Members[home] {
		if p.UserID != s.captain(home).UserID {
			player = core.Actor{UserID: p.UserID, Name: p.Name}
			break
		}
	}
	at := now.Add(48*time.Hour + 30*time.Second)

	t.Run("WhoMaySetIt", func(t *testing.T) {
		for _, c := range []struct {
			who   string
			actor core.Actor
			kind  string
		}{
			{"anonymous", core.Actor{}, errs.Unauthorized},
			{"a player of the home side", player, errs.Forbidden},
			{"the away captain", s.captain(away), errs.Forbidden},
			{"another team's captain", s.captain(outsider), errs.Forbidden},
			{"the home captain", s.captain(home), ""},
			{"an organiser", s.admin, ""},
		} {
			_, err := s.svc.SetTime(ctx, c.actor, m.ID, &at)
			if (c.kind == "" && err != nil) || (c.kind != "" && errs.KindOf(err) != c.kind) {
				t.Errorf("%s: got %s %q, want %q", c.who, errs.KindOf(err), errs.MessageOf(err), c.kind)
			}
		}
	})

	t.Run("InTheFutureWithinMaxAhead", func(t *testing.T) {
		for _, bad := range []time.Time{now.Add(-time.Minute), now, now.Add(matches.MaxAhead + time.Hour)} {
			_, err := s.svc.SetTime(ctx, s.captain(home), m.ID, &bad)
			refused(t, "time "+bad.String(), err, errs.Unprocessable)
		}
	})

	t.Run("SetToTheMinuteWithAReminder", func(t *testing.T) {
		jobs.jobs = nil
		got, err := s.svc.SetTime(ctx, s.captain(home), m.ID, &at)
		if err != nil {
			t.Fatal(err)
		}
		want := at.Truncate(time.Minute)
		if got.ScheduledAt == nil || !got.ScheduledAt.Equal(want) || !s.match(m.ID).ScheduledAt.Equal(want) {
			t.Fatalf("scheduled_at %v, want %v", got.ScheduledAt, want)
		}
		if len(jobs.jobs) != 2 ||
			jobs.jobs[0].job != (matches.Remind{Match: m.ID, At: want}) || !jobs.jobs[0].at.Equal(want.Add(-matches.RemindBefore)) ||
			jobs.jobs[1].job != (matches.Remind{Match: m.ID, At: want, Late: true}) || !jobs.jobs[1].at.Equal(want.Add(matches.OverdueAfter)) {
			t.Fatalf("jobs %+v, want a reminder %v before %v and an overdue check %v after", jobs.jobs, matches.RemindBefore, want, matches.OverdueAfter)
		}
		soon := now.Add(10 * time.Minute)
		jobs.jobs = nil
		if _, err := s.svc.SetTime(ctx, s.admin, m.ID, &soon); err != nil || len(jobs.jobs) != 1 || !jobs.jobs[0].job.(matches.Remind).Late {
			t.Fatalf("a time sooner than the reminder: err %v, jobs %+v (want the overdue check only)", err, jobs.jobs)
		}
	})

	t.Run("TheReminderAnnouncesOnlyTheTimeThatHolds", func(t *testing.T) {
		first := now.Add(2 * time.Hour)
		second := now.Add(3 * time.Hour)
		for _, when := range []time.Time{first, second} {
			if _, err := s.svc.SetTime(ctx, s.captain(home), m.ID, &when); err != nil {
				t.Fatal(err)
			}
		}
		before := s.events(matches.EventReminder)
		if err := s.svc.RemindDue(ctx, matches.Remind{Match: m.ID, At: first}); err != nil {
			t.Fatal(err)
		}
		if s.events(matches.EventReminder) != before {
			t.Fatal("the reminder of a time since changed announced the match")
		}
		if err := s.svc.RemindDue(ctx, matches.Remind{Match: m.ID, At: second}); err != nil {
			t.Fatal(err)
		}
		if s.events(matches.EventReminder) != before+1 {
			t.Fatal("the reminder of the time that holds did not announce the match")
		}
		if err := s.svc.RemindDue(ctx, matches.Remind{Match: 1 << 40, At: second}); err != nil {
			t.Fatalf("the reminder of a match gone: %v", err)
		}
		late := s.events(matches.EventOverdue)
		if err := s.svc.RemindDue(ctx, matches.Remind{Match: m.ID, At: second, Late: true}); err != nil {
			t.Fatal(err)
		}
		if s.events(matches.EventOverdue) != late+1 {
			t.Fatal("a match past its time with no report was not called overdue")
		}
	})

	t.Run("ClearedWithNil", func(t *testing.T) {
		got, err := s.svc.SetTime(ctx, s.admin, m.ID, nil)
		if err != nil || got.ScheduledAt != nil {
			t.Fatalf("cleared: %v %v", got.ScheduledAt, err)
		}
	})

	t.Run("NotOnceReported", func(t *testing.T) {
		if _, err := s.svc.SetTime(ctx, s.admin, m.ID, &at); err != nil {
			t.Fatal(err)
		}
		if _, err := s.svc.ReportResult(ctx, s.captain(home), m.ID, s.report(m, home, rand.New(rand.NewPCG(5, 5)))); err != nil {
			t.Fatal(err)
		}
		_, err := s.svc.SetTime(ctx, s.admin, m.ID, &at)
		refused(t, "a reported match", err, errs.Conflict)
		late := s.events(matches.EventOverdue)
		if err := s.svc.RemindDue(ctx, matches.Remind{Match: m.ID, At: at.Truncate(time.Minute), Late: true}); err != nil {
			t.Fatal(err)
		}
		if s.events(matches.EventOverdue) != late {
			t.Fatal("a reported match was called overdue")
		}
	})
}
