package matches_test

import (
	"context"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
)

// The home captain proposes up to three times; the away captain accepts
// one, which becomes the match's time with its reminders, or counters with
// its own, and then the home captain answers. An organiser's time clears
// any proposal.
func TestTimeProposals(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	s.svc.Now = func() time.Time { return now }
	jobs := &scheduled{}
	s.svc.Jobs = jobs
	m, home, away, outsider := s.firstMatch()
	h, w := s.captain(home), s.captain(away)
	day := func(n int) time.Time { return now.Add(time.Duration(n)*24*time.Hour + 17*time.Second) }

	_, err := s.svc.Propose(ctx, w, m.ID, []time.Time{day(1)})
	refused(t, "the away captain proposing first", err, errs.Forbidden)
	_, err = s.svc.Accept(ctx, w, m.ID, day(1))
	refused(t, "accepting with nothing proposed", err, errs.Conflict)
	_, err = s.svc.Propose(ctx, s.captain(outsider), m.ID, []time.Time{day(1)})
	refused(t, "another team's captain proposing", err, errs.Forbidden)
	_, err = s.svc.Propose(ctx, h, m.ID, []time.Time{day(1), day(2), day(3), day(4)})
	refused(t, "four times", err, errs.Unprocessable)
	_, err = s.svc.Propose(ctx, h, m.ID, []time.Time{day(1), now.Add(-time.Hour)})
	refused(t, "a time past", err, errs.Unprocessable)

	got, err := s.svc.Propose(ctx, h, m.ID, []time.Time{day(3), day(1), day(1), day(2)})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{day(1).Truncate(time.Minute), day(2).Truncate(time.Minute), day(3).Truncate(time.Minute)}
	if got.Proposal == nil || got.Proposal.By != home || !equalTimes(got.Proposal.Times, want) {
		t.Fatalf("proposal %+v, want %s's %v", got.Proposal, home, want)
	}
	if got.ScheduledAt != nil || s.events(matches.EventProposal) != 1 {
		t.Fatalf("a proposal set the time %v, or was not told (%d events)", got.ScheduledAt, s.events(matches.EventProposal))
	}
	_, err = s.svc.Accept(ctx, h, m.ID, want[0])
	refused(t, "the home captain accepting its own proposal", err, errs.Forbidden)
	_, err = s.svc.Accept(ctx, w, m.ID, day(5))
	refused(t, "accepting a time nobody proposed", err, errs.Unprocessable)

	// The away captain counters: the roles swap.
	got, err = s.svc.Propose(ctx, w, m.ID, []time.Time{day(4)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Proposal == nil || got.Proposal.By != away {
		t.Fatalf("after the counter the proposal is %+v, want %s's", got.Proposal, away)
	}
	_, err = s.svc.Accept(ctx, w, m.ID, day(4))
	refused(t, "the away captain accepting its own counter", err, errs.Forbidden)
	got, err = s.svc.Accept(ctx, h, m.ID, day(4))
	if err != nil {
		t.Fatal(err)
	}
	at := day(4).Truncate(time.Minute)
	if got.ScheduledAt == nil || !got.ScheduledAt.Equal(at) || got.Proposal != nil {
		t.Fatalf("accepted: time %v, proposal %+v; want %v and none", got.ScheduledAt, got.Proposal, at)
	}
	if len(jobs.jobs) != 2 || !jobs.jobs[0].at.Equal(at.Add(-matches.RemindBefore)) || !jobs.jobs[1].at.Equal(at.Add(matches.OverdueAfter)) {
		t.Fatalf("reminders %+v, want one before and one after %v", jobs.jobs, at)
	}

	// Proposed again, then the organiser sets the time: the proposal goes.
	if _, err := s.svc.Propose(ctx, h, m.ID, []time.Time{day(6)}); err != nil {
		t.Fatal(err)
	}
	later := day(7)
	got, err = s.svc.SetTime(ctx, s.admin, m.ID, &later)
	if err != nil {
		t.Fatal(err)
	}
	if got.Proposal != nil || !got.ScheduledAt.Equal(later.Truncate(time.Minute)) {
		t.Fatalf("after the organiser's time: proposal %+v, time %v", got.Proposal, got.ScheduledAt)
	}
	var audited int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action IN ($1, $2)`,
		matches.ActionPropose, matches.ActionAccept).Scan(&audited); err != nil {
		t.Fatal(err)
	}
	if audited != 4 { // three proposals and one acceptance
		t.Fatalf("%d proposals and acceptances audited, want 4", audited)
	}
}

func equalTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}
