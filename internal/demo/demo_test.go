package demo_test

import (
	"context"
	"os"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Cleanup()
	os.Exit(code)
}

func TestLoad(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	res, err := demo.Load(ctx, db.Pool, demo.Options{Players: 60, Teams: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Players != 60 || res.Teams != 8 {
		t.Fatalf("%+v", res)
	}
	count := func(sql string) int {
		var n int
		if err := db.Pool.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t.Run("SixtyRegisteredPlayersWithStats", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM registrations r JOIN stats s USING (user_id)`); n != 60 {
			t.Fatalf("%d", n)
		}
	})
	t.Run("EightTeamsOfACaptainAndFivePlayers", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM teams WHERE captain_user_id IS NOT NULL`); n != 8 {
			t.Fatalf("teams %d", n)
		}
		if n := count(`SELECT count(*) FROM (SELECT team_id FROM team_players GROUP BY team_id HAVING count(*) = 5) x`); n != 8 {
			t.Fatalf("full teams %d", n)
		}
		if n := count(`SELECT count(*) FROM team_players WHERE credits NOT BETWEEN 1100 AND 2200`); n != 0 {
			t.Fatalf("%d out of range", n)
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
	t.Run("ErrNotIntoAUsedDatabase", func(t *testing.T) {
		_, err := demo.Load(ctx, db.Pool, demo.Options{Players: 5})
		if errs.KindOf(err) != errs.Conflict {
			t.Fatalf("%v", err)
		}
	})
}
