package tournament_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/tournament"
)

// readAll pages through the list in the order by, limit players a page.
func readAll(t *testing.T, s tournament.SortedRoster, limit int, q string) []tournament.Player {
	t.Helper()
	var out []tournament.Player
	req := paging.Request{Limit: limit, Q: q}
	for {
		p := s.Page(req)
		out = append(out, p.Players...)
		if p.NextCursor == nil {
			return out
		}
		after, err := paging.Decode(*p.NextCursor)
		if err != nil {
			t.Fatal(err)
		}
		req.After = after
	}
}

func names(ps []tournament.Player) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func sixPlayers() tournament.Roster {
	at := func(min int) time.Time { return time.Date(2026, 11, 1, 12, min, 0, 0, time.UTC) }
	w1, w2 := at(50), at(40)
	return tournament.Roster{Tournament: "PPL7", Count: 6, Players: []tournament.Player{
		{ID: 1, Name: "Zed", KD: 1.5, Level: 30, Kills: 300, GamesPlayed: 90, CreatedAt: at(1), Status: tournament.Confirmed},
		{ID: 2, Name: "amy", KD: 2.5, Level: 10, Kills: 900, GamesPlayed: 20, CreatedAt: at(2), Status: tournament.Confirmed},
		{ID: 3, Name: "Bob", KD: 2.5, Level: 50, Kills: 100, GamesPlayed: 50, CreatedAt: at(2), Status: tournament.Confirmed, DiscordID: "bobby#1"},
		{ID: 4, Name: "Late", KD: 9, CreatedAt: at(3), Status: tournament.Waitlisted, WaitlistedAt: &w1},
		{ID: 5, Name: "Early", KD: 0.1, CreatedAt: at(4), Status: tournament.Waitlisted, WaitlistedAt: &w2},
		{ID: 6, Name: "Cat", KD: 0.5, Level: 20, Kills: 500, GamesPlayed: 70, CreatedAt: at(5), Status: tournament.Confirmed},
	}}
}

func TestEachOrderListsTheConfirmedByItThenTheWaitlistInItsOwnOrder(t *testing.T) {
	want := map[string]string{
		tournament.SortNewest: "Cat Bob amy Zed",
		tournament.SortOldest: "Zed amy Bob Cat",
		tournament.SortName:   "amy Bob Cat Zed",
		tournament.SortKD:     "amy Bob Zed Cat", // equal K/D: who registered first
		tournament.SortLevel:  "Bob Zed Cat amy",
		tournament.SortGames:  "Zed Cat Bob amy",
		tournament.SortKills:  "amy Cat Zed Bob",
	}
	for by, confirmed := range want {
		for _, limit := range []int{1, 2, 500} {
			got := names(readAll(t, sixPlayers().SortBy(by), limit, ""))
			if s := strings.Join(got, " "); s != confirmed+" Early Late" {
				t.Errorf("%s by %d a page: %s, want %s Early Late", by, limit, s, confirmed)
			}
		}
	}
}

func TestWaitingPlayersCarryTheirPlace(t *testing.T) {
	ps := readAll(t, sixPlayers().SortBy(tournament.SortKD), 500, "")
	for _, p := range ps {
		want := map[string]int{"Early": 1, "Late": 2}[p.Name]
		if p.Place != want {
			t.Errorf("%s: place %d, want %d", p.Name, p.Place, want)
		}
	}
}

func TestAPlayerLeavingBetweenTwoPagesMovesNoneOfTheOthers(t *testing.T) {
	r := sixPlayers()
	first := r.SortBy(tournament.SortNewest).Page(paging.Request{Limit: 2}) // Cat, Bob
	r.Players = append(r.Players[:2], r.Players[3:]...)                     // Bob leaves
	after, err := paging.Decode(*first.NextCursor)
	if err != nil {
		t.Fatal(err)
	}
	rest := r.SortBy(tournament.SortNewest).Page(paging.Request{Limit: 10, After: after})
	if got := strings.Join(names(rest.Players), " "); got != "amy Zed Early Late" {
		t.Fatalf("after Bob left: %s", got)
	}
}

func TestASortedSearchFindsNamesAndDiscordNamesAndCountsThem(t *testing.T) {
	p := sixPlayers().SortBy(tournament.SortName).Page(paging.Request{Limit: 1, Q: "b"})
	if strings.Join(names(p.Players), " ") != "Bob" || p.Matched == nil || *p.Matched != 1 || p.Count != 6 {
		t.Fatalf("%v matched %v count %d", names(p.Players), p.Matched, p.Count)
	}
	if got := strings.Join(names(readAll(t, sixPlayers().SortBy(tournament.SortNewest), 1, "a")), " "); got != "Cat amy Early Late" {
		t.Fatalf("search a: %s", got)
	}
}

func TestOnlyTheKnownOrdersAreAccepted(t *testing.T) {
	for _, by := range append(tournament.Sorts, "") {
		if _, err := tournament.ParseSort(by); err != nil {
			t.Errorf("%q: %v", by, err)
		}
	}
	if _, err := tournament.ParseSort("kd desc"); err == nil {
		t.Error("an unknown order was accepted")
	}
}

func BenchmarkSortedRoster(b *testing.B) {
	r := roster(10_000)
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			r.SortBy(tournament.SortKD)
		}
	})
	s := r.SortBy(tournament.SortKD)
	mid := s.Page(paging.Request{Limit: 5_000})
	after, _ := paging.Decode(*mid.NextCursor)
	b.Run("page", func(b *testing.B) {
		for b.Loop() {
			s.Page(paging.Request{Limit: 100, After: after})
		}
	})
}
