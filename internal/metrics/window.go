package metrics

import (
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

// Window is the stretch of time a dashboard reads: its name (hour, day,
// week, season, or "since" for a time given), its start, and the stretch
// of its charts' points (each point's percentile is its stretch's, the
// goals' the whole window's).
type Window struct {
	Name    string     `json:"name"`
	Since   time.Time  `json:"since"`
	Stretch Resolution `json:"resolution,omitempty"`
}

// Resolution is the stretch of a chart's points.
type Resolution string

// Resolutions of the charts: an hour's window by the minute, a day's by the
// hour, anything longer by the day.
const (
	ByMinute Resolution = "minute"
	ByHour   Resolution = "hour"
	ByDay    Resolution = "day"
)

// Resolution is w's charts' stretch at its length.
func (w Window) Resolution(now time.Time) Resolution {
	switch d := now.Sub(w.Since); {
	case d <= 2*time.Hour:
		return ByMinute
	case d <= 3*24*time.Hour:
		return ByHour
	}
	return ByDay
}

// RecentKept is how long the per-minute rows are kept: a window that starts
// within it is read from them, a longer one from the hourly rows.
const RecentKept = 48 * time.Hour

// ParseWindow reads since: "hour", "day", "week", "season" (from the
// tournament's creation, the default) or an RFC 3339 time in the past.
func ParseWindow(since string, season, now time.Time) (Window, error) {
	switch since {
	case "", "season":
		return Window{Name: "season", Since: season}, nil
	case "hour":
		return Window{Name: since, Since: now.Add(-time.Hour)}, nil
	case "day":
		return Window{Name: since, Since: now.Add(-24 * time.Hour)}, nil
	case "week":
		return Window{Name: since, Since: now.Add(-7 * 24 * time.Hour)}, nil
	}
	t, err := time.Parse(time.RFC3339, since)
	if err != nil || !t.Before(now) {
		return Window{}, errs.E(errs.Invalid, "since must be hour, day, week, season or a past time like 2026-11-28T20:00:00Z")
	}
	return Window{Name: "since", Since: t}, nil
}
