package demo_test

import (
	"context"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestPastSeasons(t *testing.T) {
	db := pgtest.Fresh(t)
	ctx := context.Background()
	if _, err := demo.Load(ctx, db, demo.Options{Players: 70, Captains: true, History: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.PastSeasons(ctx, db, "PPL7", 1); err != nil {
		t.Fatal(err)
	}
	count := counter(t, db)
	t.Run("APastSeasonIsPlayedToItsChampion", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM tournaments WHERE name = 'PPL7-S01' AND status = 'completed' AND champion_team_id IS NOT NULL`); n != 1 {
			t.Fatalf("%d completed past seasons with a champion", n)
		}
		if n := count(`SELECT count(*) FROM registrations r JOIN tournaments t ON t.id = r.tournament_id WHERE t.name = 'PPL7-S01'`); n != demo.SeasonPlayers {
			t.Fatalf("%d signed up", n)
		}
		if n := count(`SELECT count(*) FROM match_lines l JOIN matches m ON m.id = l.match_id JOIN tournaments t ON t.id = m.tournament_id
			WHERE t.name = 'PPL7-S01'`); n == 0 {
			t.Fatal("no match lines")
		}
	})
	t.Run("PlayersPastTheDemosSixtyShareKartPictures", func(t *testing.T) {
		if n := count(`SELECT count(DISTINCT cart_image_id) FROM stats`); n >= 70 {
			t.Fatalf("%d kart pictures for 70 players", n)
		}
	})
	t.Run("EveryPlayerHasAHistoryOfUploads", func(t *testing.T) {
		if n := count(`SELECT count(*) FROM (SELECT user_id FROM stats_history GROUP BY user_id HAVING count(*) = 4) h`); n != 70 {
			t.Fatalf("%d players with four uploads", n)
		}
		if n := count(`SELECT count(*) FROM stats s WHERE kills <> (SELECT kills FROM stats_history h WHERE h.user_id = s.user_id
			ORDER BY id DESC LIMIT 1)`); n != 0 {
			t.Fatalf("%d players whose last upload is not today's stats", n)
		}
	})
}

// counter reads a count from db.
func counter(t *testing.T, db *postgres.DB) func(sql string) int {
	return func(sql string) int {
		t.Helper()
		var n int
		if err := db.Pool.QueryRow(context.Background(), sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
}
