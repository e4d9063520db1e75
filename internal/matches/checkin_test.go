package matches_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
)

// Each side's captain checks in in the hour before the match's time; a
// side that did not is an organiser's to forfeit, and nothing happens by
// itself.
func TestMatchCheckin(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Minute)
	s.svc.Now = func() time.Time { return now }
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Rounds[0].Matches[0]
	home, away := s.captain(m.Team1.ID), s.captain(m.Team2.ID)
	refused := func(t *testing.T, a core.Actor, part string) {
		t.Helper()
		_, err := s.svc.CheckIn(ctx, a, m.ID)
		if errs.KindOf(err) != errs.Conflict || !strings.Contains(errs.MessageOf(err), part) {
			t.Fatalf("%s %q, want a conflict saying %q", errs.KindOf(err), errs.MessageOf(err), part)
		}
	}
	checkins := func() int {
		var n int
		if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action = $1`, matches.ActionCheckin).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("ErrNoTimeYet", func(t *testing.T) { refused(t, home, "has no time yet") })
	at := now.Add(3 * time.Hour)
	if _, err := s.svc.SetTime(ctx, home, m.ID, &at); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrTooEarly", func(t *testing.T) { refused(t, home, "opens at") })
	t.Run("ErrNotASide", func(t *testing.T) {
		now = at.Add(-30 * time.Minute)
		if _, err := s.svc.CheckIn(ctx, s.admin, m.ID); errs.KindOf(err) != errs.Forbidden {
			t.Fatal(err)
		}
	})
	t.Run("TheHomeCaptainChecksInOnce", func(t *testing.T) {
		got, err := s.svc.CheckIn(ctx, home, m.ID)
		if err != nil || got.CheckedIn[m.Team1.ID].IsZero() || len(got.CheckedIn) != 1 {
			t.Fatalf("%+v %v", got.CheckedIn, err)
		}
		if got.CheckinOpensAt == nil || !got.CheckinOpensAt.Equal(at.Add(-matches.CheckinBefore)) {
			t.Fatalf("opens at %v", got.CheckinOpensAt)
		}
		before := checkins()
		if _, err := s.svc.CheckIn(ctx, home, m.ID); err != nil || checkins() != before || before != 1 {
			t.Fatalf("again: %v, %d audited", err, checkins())
		}
	})
	t.Run("ANewTimeClearsTheCheckins", func(t *testing.T) {
		later := at.Add(24 * time.Hour)
		got, err := s.svc.SetTime(ctx, s.admin, m.ID, &later)
		if err != nil || len(got.CheckedIn) != 0 {
			t.Fatalf("%+v %v", got.CheckedIn, err)
		}
		// The same time again keeps them.
		now = later.Add(-10 * time.Minute)
		if _, err := s.svc.CheckIn(ctx, home, m.ID); err != nil {
			t.Fatal(err)
		}
		if got, err := s.svc.SetTime(ctx, s.admin, m.ID, &later); err != nil || len(got.CheckedIn) != 1 {
			t.Fatalf("%+v %v", got.CheckedIn, err)
		}
		at = later
	})
	t.Run("ErrClosedAtTheTime", func(t *testing.T) {
		now = at
		refused(t, away, "closed at its time")
	})
	t.Run("ANoShowIsForfeitedByAnOrganiserOnly", func(t *testing.T) {
		now = at.Add(3 * time.Hour)
		got, err := s.svc.Match(ctx, s.admin, m.ID)
		// Past its time the match is live (Match.LiveAt), and still open.
		if err != nil || got.Status != matches.StatusLive || len(got.CheckedIn) != 1 {
			t.Fatalf("nothing happens by itself: %+v %v", got, err)
		}
		done, err := s.svc.ForfeitFor(ctx, s.admin, m.ID, m.Team2.ID)
		if err != nil || done.Status != matches.StatusCompleted || *done.Winner != m.Team1.ID || !done.Forfeit {
			t.Fatalf("%+v %v", done, err)
		}
	})
}

// A team's substitutes may play: they are offered for its lineups and
// reports, after its captain and players, and do not count in its seed's
// strength.
func TestSubstitutesPlay(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	var teamA, sub int64
	if err := s.db.Pool.QueryRow(ctx, `SELECT t.id, r.user_id FROM teams t, registrations r WHERE t.tournament_id = $1 AND t.letter = 'A'
		AND r.tournament_id = $1
		AND NOT EXISTS (SELECT 1 FROM team_players p WHERE p.user_id = r.user_id AND p.tournament_id = $1)
		AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) ORDER BY r.user_id LIMIT 1`, s.tid).Scan(&teamA, &sub); err != nil {
		t.Fatal(err)
	}
	store := postgres.Matches{DB: s.db}
	strength := func() float64 {
		seeds, err := store.SeedTeams(ctx, s.tid)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range seeds {
			if st.Team.ID == "A" {
				return st.Strength
			}
		}
		t.Fatal("no team A")
		return 0
	}
	before := strength()
	if _, err := s.db.Pool.Exec(ctx, `UPDATE stats SET kd = 9.99 WHERE user_id = $1`, sub); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Pool.Exec(ctx, `INSERT INTO team_players (team_id, tournament_id, user_id, credits, substitute)
		VALUES ($1, $2, $3, 1100, true)`, teamA, s.tid, sub); err != nil {
		t.Fatal(err)
	}
	if after := strength(); after != before {
		t.Fatalf("a substitute moved team A's strength from %.2f to %.2f", before, after)
	}
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	var m matches.Match
	for _, r := range b.Rounds {
		for _, x := range r.Matches {
			if x.Side("A") != nil {
				m = x
			}
		}
	}
	members := m.Members["A"]
	last := members[len(members)-1]
	if len(members) != 7 || last.UserID != sub || !last.Substitute || members[0].Substitute {
		t.Fatalf("team A's members: %+v", members)
	}
	got, err := s.svc.SetLineup(ctx, s.captain("A"), m.ID, []int64{members[0].UserID, sub})
	if err != nil || len(got.Lineups["A"]) != 2 {
		t.Fatalf("a lineup with the substitute: %+v %v", got.Lineups, err)
	}
}
