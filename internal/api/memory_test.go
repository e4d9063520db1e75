package api_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/testkit"
)

// memoryLeague is a demo league of 60 players with one past season played
// to its champion, shared by the tests of the league's memory (player and
// team pages, search, leaderboards, pages of lists).
type memoryLeague struct {
	s   *testkit.Server
	ids []int64 // the registered players, oldest first
}

func newMemoryLeague(t *testing.T) memoryLeague {
	t.Helper()
	s := newServer(t, testkit.Options{})
	ctx := context.Background()
	if _, err := demo.Load(ctx, s.DB, demo.Options{Players: 60, Captains: true, History: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.PastSeasons(ctx, s.DB, "PPL7", 1); err != nil {
		t.Fatal(err)
	}
	ids, err := (postgres.Demo{DB: s.DB}).Registered(ctx, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	return memoryLeague{s: s, ids: ids}
}

// register signs a new demo person up for PPL7, through the service.
func (l memoryLeague) register(t *testing.T, name string) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := (postgres.Demo{DB: l.s.DB}).NewAccount(ctx, postgres.DemoAccount{Email: strings.ToLower(name) + "@late.pitlane.local",
		Name: name, Discord: strings.ToLower(name), DiscordID: fmt.Sprint(800000000000000000 + len(name)*1000 + int(name[len(name)-1]))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (postgres.Stats{DB: l.s.DB}).SaveStats(ctx, id, core.Stats{PlayerName: name, Level: 10, Kills: 100, Deaths: 50,
		GamesPlayed: 40, KD: 2, Category: 3, PreferredRole: "Player"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.s.App.Server.Tournaments.Register(ctx, core.Actor{UserID: id, Name: name}, "PPL7"); err != nil {
		t.Fatal(err)
	}
	return id
}

// pageIDs reads one page of a paged list: its rows' ids and its next cursor.
func pageIDs(t *testing.T, s *testkit.Server, path, rows string) ([]int64, string) {
	t.Helper()
	r := s.Do(t, "GET", path, "", nil)
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var ids []int64
	list, _ := r.JSON[rows].([]any)
	for _, x := range list {
		ids = append(ids, int64(x.(map[string]any)["id"].(float64)))
	}
	next, _ := r.JSON["next_cursor"].(string)
	return ids, next
}

func TestRegistrationPages(t *testing.T) {
	l := newMemoryLeague(t)
	const base = "/api/tournament/registrations?tournamentName=PPL7"

	t.Run("WithoutALimitTheFirstPageHoldsTheDefaultSize", func(t *testing.T) {
		r := l.s.Do(t, "GET", base, "", nil)
		if r.Status != 200 || len(r.JSON["players"].([]any)) != 60 || r.JSON["next_cursor"] != nil || r.JSON["count"].(float64) != 60 {
			t.Fatalf("%d players=%d next=%v count=%v", r.Status, len(r.JSON["players"].([]any)), r.JSON["next_cursor"], r.JSON["count"])
		}
	})
	t.Run("PagesCoverTheListOnceWhilePlayersSignUpBetweenThem", func(t *testing.T) {
		seen := map[int64]int{}
		var order []int64
		cursor, late := "", []int64{}
		for page := 0; ; page++ {
			ids, next := pageIDs(t, l.s, base+"&limit=7&cursor="+url.QueryEscape(cursor), "players")
			if len(ids) > 7 {
				t.Fatalf("page %d has %d players", page, len(ids))
			}
			for _, id := range ids {
				seen[id]++
				order = append(order, id)
			}
			if page < 3 {
				late = append(late, l.register(t, fmt.Sprintf("LateRacer%d", page)))
			}
			if next == "" {
				break
			}
			cursor = next
		}
		want := append(append([]int64{}, l.ids...), late...)
		if len(order) != len(want) {
			t.Fatalf("read %d players, want %d", len(order), len(want))
		}
		for i, id := range want {
			if seen[id] != 1 || order[i] != id {
				t.Fatalf("player %d seen %d times; at %d read %d", id, seen[id], i, order[i])
			}
		}
	})
	t.Run("SearchFindsByPartOfTheName", func(t *testing.T) {
		r := l.s.Do(t, "GET", base+"&q=racer&limit=500", "", nil)
		players := r.JSON["players"].([]any)
		if r.Status != 200 || len(players) == 0 {
			t.Fatalf("%d %d", r.Status, len(players))
		}
		for _, p := range players {
			if name := p.(map[string]any)["name"].(string); !strings.Contains(strings.ToLower(name), "racer") {
				t.Fatalf("%q does not hold racer", name)
			}
		}
	})
	for _, bad := range []string{"&limit=0", "&limit=501", "&limit=ten", "&cursor=notacursor", "&q=" + strings.Repeat("x", 41)} {
		t.Run("Err"+bad, func(t *testing.T) {
			if r := l.s.Do(t, "GET", base+bad, "", nil); r.Status != 400 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		})
	}
}
