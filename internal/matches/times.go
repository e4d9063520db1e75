// When a match is played: its time, the reminders written with it, and each side's check-in.

package matches

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Remind is the job that announces a match RemindBefore its time, or, Late,
// tells of it OverdueAfter its time when nobody has reported it. It is
// written with the time; a time changed or cleared since, or a match
// reported or played already, leaves it nothing to do.
type Remind struct {
	Match int64     `json:"match"`
	At    time.Time `json:"at"`
	Late  bool      `json:"late,omitempty"`
}

// Kind implements core.Job.
func (Remind) Kind() string { return "match.remind" }

// SetTime sets when the match is played, or clears it with nil: the home
// captain (who also posts the room) or an organiser. RemindBefore that time
// the match is announced (EventReminder), and OverdueAfter it, with no
// report yet, called overdue (EventOverdue), if the time still holds then.
func (s *Service) SetTime(ctx context.Context, a core.Actor, id int64, at *time.Time) (Match, error) {
	m, err := s.change(ctx, a, ActSetTime, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if at != nil {
			t, err := s.futureTime(*at)
			if err != nil {
				return err
			}
			at = &t
		}
		return s.setTime(ctx, a, m, at, ActionTime)
	})
	return shown(m, a, s.now()), err
}

// futureTime is at to the minute, refused unless it is in the future
// within MaxAhead.
func (s *Service) futureTime(at time.Time) (time.Time, error) {
	t := at.UTC().Truncate(time.Minute)
	now := s.now()
	if !t.After(now) || t.After(now.Add(MaxAhead)) {
		return t, errs.E(errs.Unprocessable, "The match time must be in the future, within %d days.", int(MaxAhead.Hours()/24))
	}
	return t, nil
}

// setTime makes at (checked, or nil) m's time, with its reminders, and
// records it as action: a time set any way clears a standing proposal.
func (s *Service) setTime(ctx context.Context, a core.Actor, m Match, at *time.Time, action string) error {
	// The jobs of the time before are dropped: a match is announced once,
	// for the time it has.
	if err := s.Jobs.Unschedule(ctx, Remind{}.Kind(), "match", m.ID); err != nil {
		return err
	}
	var data map[string]any
	if at != nil {
		t, now := *at, s.now()
		data = map[string]any{"at": t}
		if remind := t.Add(-RemindBefore); remind.After(now) {
			if err := s.Jobs.Schedule(ctx, Remind{Match: m.ID, At: t}, remind); err != nil {
				return err
			}
		}
		if err := s.Jobs.Schedule(ctx, Remind{Match: m.ID, At: t, Late: true}, t.Add(OverdueAfter)); err != nil {
			return err
		}
	}
	if err := s.Store.SetTime(ctx, m.ID, at); err != nil {
		return err
	}
	return s.Audit.Record(ctx, a, action, m.TournamentID, matchTarget(m), data)
}

// RemindDue announces a match whose time is job.At (the job), or tells
// that it is overdue, unless the time changed or the match is no longer to
// be played.
func (s *Service) RemindDue(ctx context.Context, job Remind) error {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, job.Match)
		if err != nil {
			return err
		}
		if m.ScheduledAt == nil || !m.ScheduledAt.Equal(job.At) {
			return nil
		}
		if _, err := s.may(ctx, ActRemind, core.System, m); err != nil {
			return nil // played, reported, or its season over: nothing to announce
		}
		if job.Late {
			return s.emitMatch(ctx, EventOverdue, m)
		}
		return s.emitMatch(ctx, EventReminder, m)
	})
	if errs.KindOf(err) == errs.NotFound {
		return nil
	}
	return err
}

// CheckIn checks a side in for the match (its captain), from CheckinBefore
// its time until the time. A new time clears the check-ins; a side that
// did not check in is shown to organisers, whose forfeit is one click
// (ForfeitFor), never the league's own.
func (s *Service) CheckIn(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActCheckIn, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if why := m.CheckinRefusal(s.now()); why != "" {
			return errs.E(errs.Conflict, "%s", why)
		}
		changed, err := s.Store.CheckIn(ctx, m.ID, *side, a.UserID)
		if err != nil || !changed {
			return err
		}
		return s.Audit.Record(ctx, a, ActionCheckin, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "at": m.ScheduledAt})
	})
	return shown(m, a, s.now()), err
}
