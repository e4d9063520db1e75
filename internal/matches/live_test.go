package matches_test

import (
	"context"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
)

// The league's one rule of "live": from the agreed time, or once both
// sides have checked in; never from the room's posting.
func TestLiveFrom(t *testing.T) {
	at := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	early := at.Add(-20 * time.Minute)
	for _, c := range []struct {
		name          string
		status        string
		time, bothIn  *time.Time
		now           time.Time
		want, wantFor string
	}{
		{"NoTimeNoCheckins", matches.StatusScheduled, nil, nil, at, "", matches.StatusScheduled},
		{"TheRoomPostedBeforeTheTime", matches.StatusLive, &at, nil, at.Add(-29 * time.Minute), at.Format(time.RFC3339), matches.StatusScheduled},
		{"AtTheTime", matches.StatusScheduled, &at, nil, at, at.Format(time.RFC3339), matches.StatusLive},
		{"BothCheckedInBeforeTheTime", matches.StatusScheduled, &at, &early, early.Add(time.Minute), early.Format(time.RFC3339), matches.StatusLive},
		{"PlayedIsPlayed", matches.StatusReported, &at, nil, at.Add(time.Hour), at.Format(time.RFC3339), matches.StatusReported},
	} {
		t.Run(c.name, func(t *testing.T) {
			from := matches.LiveFrom(c.time, c.bothIn)
			if got := ""; from != nil {
				got = from.Format(time.RFC3339)
				if got != c.want {
					t.Fatalf("live from %s, want %s", got, c.want)
				}
			} else if c.want != "" {
				t.Fatalf("live from nil, want %s", c.want)
			}
			if got := matches.ShownStatus(c.status, from, c.now); got != c.wantFor {
				t.Fatalf("shown %q, want %q", got, c.wantFor)
			}
		})
	}
}

// What the service answers and tells follows the rule: a room posted half an
// hour early leaves the match "scheduled" with its live_from, the time makes
// it "live", and so do both check-ins before it.
func TestAMatchIsLiveFromItsTimeNotItsRoom(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	clock := time.Now().UTC().Truncate(time.Minute)
	s.svc.Now = func() time.Time { return clock }
	m, home, _, _ := s.firstMatch()
	at := clock.Add(3 * time.Hour)
	if _, err := s.svc.SetTime(ctx, s.captain(home), m.ID, &at); err != nil {
		t.Fatal(err)
	}
	clock = at.Add(-29 * time.Minute)
	got, err := s.svc.PostRoom(ctx, s.captain(home), m.ID, "PITLANE42")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != matches.StatusScheduled || !got.RoomSet || got.LiveFrom == nil || !got.LiveFrom.Equal(at) {
		t.Fatalf("room posted early: %s, room set %v, live from %v", got.Status, got.RoomSet, got.LiveFrom)
	}
	seen := func(id int64) matches.Match {
		t.Helper()
		x, err := s.svc.Match(ctx, core.Actor{}, id)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if x := seen(m.ID); x.Status != matches.StatusScheduled {
		t.Fatalf("a spectator sees %s before the time", x.Status)
	}
	clock = at
	if x := seen(m.ID); x.Status != matches.StatusLive {
		t.Fatalf("at the time: %s", x.Status)
	}
	b, err := s.svc.Bracket(ctx, core.Actor{}, "PPL7")
	if err != nil || b.Rounds[0].Matches[0].Status != matches.StatusLive {
		t.Fatalf("the bracket at the time: %v", err)
	}

	// Another match: both sides check in before its time.
	clock = time.Now().UTC().Truncate(time.Minute)
	o := b.Rounds[0].Matches[1]
	later := clock.Add(40 * time.Minute)
	if _, err := s.svc.SetTime(ctx, s.admin, o.ID, &later); err != nil {
		t.Fatal(err)
	}
	for _, side := range o.Sides() {
		if _, err = s.svc.CheckIn(ctx, s.captain(side.ID), o.ID); err != nil {
			t.Fatal(err)
		}
	}
	clock = clock.Add(time.Minute) // the check-ins' own clock is the database's
	if x := seen(o.ID); x.Status != matches.StatusLive || !x.LiveFrom.Before(later) {
		t.Fatalf("both checked in: %s from %v", x.Status, x.LiveFrom)
	}
}
