package demo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestLoad(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	res, err := demo.Load(ctx, db, demo.Options{Players: 60, Captains: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Players != 60 || res.Teams != 8 {
		t.Fatalf("%+v", res)
	}
	count := counter(t, db)
	t.Run("SixtyRegisteredPlayersWithStats", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM registrations r JOIN stats s USING (user_id)`); n != 60 {
			t.Fatalf("%d", n)
		}
	})
	t.Run("EightCaptainsAndEmptyRostersWhileRegistrationIsOpen", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM teams WHERE captain_user_id IS NOT NULL`); n != 8 {
			t.Fatalf("teams %d", n)
		}
		if n := count(`SELECT count(*) FROM team_players`); n != 0 {
			t.Fatalf("%d players on teams while registration is open", n)
		}
	})
	t.Run("TiersFollowTheStats", func(t *testing.T) {
		if n := count(`SELECT count(DISTINCT category) FROM stats`); n < 3 {
			t.Fatalf("only %d tiers among sixty players", n)
		}
	})
	t.Run("BothBadgesOnOnePlayer", func(t *testing.T) {
		if n := count(`SELECT count(DISTINCT user_id) FROM user_badges`); n != 1 {
			t.Fatalf("%d players", n)
		}
		if n := count(`SELECT count(*) FROM user_badges`); n != 2 {
			t.Fatalf("%d badges", n)
		}
	})
	t.Run("GeneratedImagesForEveryone", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM users u JOIN stats s ON s.user_id = u.id
			WHERE u.avatar_image_id IS NULL OR s.cart_image_id IS NULL`); n != 0 {
			t.Fatalf("%d without images", n)
		}
	})
	t.Run("OnlyTheOrganiserAndCaptainsSignInUnlessAsked", func(t *testing.T) {
		// No password was given here: nobody signs in.
		if n := count(`SELECT count(*) FROM users WHERE password_hash IS NOT NULL`); n != 0 {
			t.Fatalf("%d accounts with a password", n)
		}
	})
	t.Run("ErrNotIntoAUsedDatabase", func(t *testing.T) {
		_, err := demo.Load(ctx, db, demo.Options{Players: 5})
		if errs.KindOf(err) != errs.Conflict {
			t.Fatalf("%v", err)
		}
	})
}

// With PlayersSignIn every player shares the password, so a load scenario
// can act as them; without it only the organiser and the captains have it.
func TestPlayersSignIn(t *testing.T) {
	ctx := context.Background()
	for _, players := range []bool{false, true} {
		db := pgtest.Fresh(t)
		if _, err := demo.Load(ctx, db, demo.Options{Players: 12, Captains: true, Password: "demo-pass-123", PlayersSignIn: players}); err != nil {
			t.Fatal(err)
		}
		var with int
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM users WHERE password_hash IS NOT NULL`).Scan(&with); err != nil {
			t.Fatal(err)
		}
		want := 1 + 8 // the organiser and the captains
		if players {
			want = 1 + 12
		}
		if with != want {
			t.Errorf("PlayersSignIn %v: %d accounts sign in, want %d", players, with, want)
		}
	}
}

// Every phase the demo loads is one the league's own rules could reach.
func TestPhases(t *testing.T) {
	for _, phase := range demo.Phases {
		t.Run(phase, func(t *testing.T) {
			ctx := context.Background()
			db := pgtest.Fresh(t)
			if _, err := demo.Load(ctx, db, demo.Options{Players: 60, Captains: true}); err != nil {
				t.Fatal(err)
			}
			if err := demo.Advance(ctx, db, "PPL7", phase); err != nil {
				t.Fatal(err)
			}
			count := counter(t, db)
			var status string
			db.Pool.QueryRow(ctx, `SELECT status FROM tournaments WHERE name = 'PPL7'`).Scan(&status)
			if status != phase {
				t.Fatalf("status %s", status)
			}
			perTeam := map[string]int{"registration": 0, "auction": 2, "matches": 5, "completed": 5}[phase]
			if n := count(`SELECT count(*) FROM teams t WHERE t.captain_user_id IS NOT NULL AND
				(SELECT count(*) FROM team_players tp WHERE tp.team_id = t.id) = ` + fmt.Sprint(perTeam)); n != 8 {
				t.Fatalf("%d teams with %d players", n, perTeam)
			}
			if n := count(`SELECT count(*) FROM teams t WHERE 12000 - (SELECT coalesce(sum(credits), 0) FROM team_players tp
				WHERE tp.team_id = t.id) < 1100 * (5 - (SELECT count(*) FROM team_players tp WHERE tp.team_id = t.id))`); n != 0 {
				t.Fatalf("%d teams that cannot fill their slots", n)
			}
			if n := count(`SELECT count(*) FROM auction_lots WHERE status = 'open'`); n != 0 {
				t.Fatalf("%d lots left open", n)
			}
			if phase != "registration" && count(`SELECT count(*) FROM auction_lots WHERE status = 'unsold'`) == 0 {
				t.Fatal("no lot went unsold")
			}
			if phase == "completed" {
				if n := count(`SELECT count(*) FROM matches WHERE status <> 'completed'`); n != 0 {
					t.Fatalf("%d matches not played", n)
				}
				if n := count(`SELECT count(*) FROM user_badges ub JOIN badges b ON b.id = ub.badge_id WHERE b.name = 'Season 7 Winner'`); n != 6 {
					t.Fatalf("%d Season 7 Winner badges, want the champion's six", n)
				}
				if n := count(`SELECT count(*) FROM user_badges ub JOIN badges b ON b.id = ub.badge_id WHERE b.name = 'Red Cap Season 7'`); n != 1 {
					t.Fatalf("%d Red Cap badges", n)
				}
			}
		})
	}
}

// The demo plays a season in every format to its champion, and at the
// matches phase makes a format's fixtures with none played.
func TestFormats(t *testing.T) {
	for _, in := range []matches.FormatInput{
		{Format: bracket.DoubleElimination},
		{Format: bracket.Swiss, Rounds: 3, TopCut: 4},
		{Format: bracket.Swiss},
	} {
		for _, phase := range []string{tournament.StatusMatches, tournament.StatusCompleted} {
			t.Run(fmt.Sprintf("%s %+v", phase, in), func(t *testing.T) {
				ctx := context.Background()
				db := pgtest.Fresh(t)
				if _, err := demo.Load(ctx, db, demo.Options{Players: 60, Captains: true}); err != nil {
					t.Fatal(err)
				}
				if err := demo.AdvanceIn(ctx, db, "PPL7", phase, in); err != nil {
					t.Fatal(err)
				}
				var format string
				var played, open, champions int
				db.Pool.QueryRow(ctx, `SELECT format, (SELECT count(*) FROM matches WHERE status = 'completed'),
					(SELECT count(*) FROM matches WHERE status <> 'completed'), (SELECT count(champion_team_id) FROM tournaments)
					FROM tournaments WHERE name = 'PPL7'`).Scan(&format, &played, &open, &champions)
				switch {
				case format != in.Format:
					t.Fatalf("format %q", format)
				case phase == tournament.StatusMatches && (played != 0 || open == 0):
					t.Fatalf("at the matches phase: %d played, %d to play", played, open)
				case phase == tournament.StatusCompleted && (open != 0 || champions != 1):
					t.Fatalf("completed: %d not played, %d champions", open, champions)
				}
			})
		}
	}
}
