package tournament_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/tournament"
)

func roster(n int) tournament.Roster {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	r := tournament.Roster{Tournament: "PPL7", Count: n}
	for i := 0; i < n; i++ {
		// Two players at each instant: the id breaks the tie.
		r.Players = append(r.Players, tournament.Player{ID: int64(i + 1), Name: fmt.Sprintf("Racer%05d", i), CreatedAt: start.Add(time.Duration(i/2) * time.Second)})
	}
	return r
}

func TestPagesFollowEachOtherWithoutGapsOrRepeats(t *testing.T) {
	r := roster(23)
	var ids []int64
	req := paging.Request{Limit: 5}
	for {
		p := r.Page(req)
		for _, pl := range p.Players {
			ids = append(ids, pl.ID)
		}
		if p.NextCursor == nil {
			break
		}
		after, err := paging.Decode(*p.NextCursor)
		if err != nil {
			t.Fatal(err)
		}
		req.After = after
	}
	if len(ids) != 23 {
		t.Fatalf("%d players", len(ids))
	}
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("at %d: %d", i, id)
		}
	}
}

func TestASearchPagesThroughTheMatchesOnly(t *testing.T) {
	p := roster(100).Page(paging.Request{Limit: 3, Q: "racer0009"})
	if len(p.Players) != 3 || p.Players[0].Name != "Racer00090" || p.NextCursor == nil || p.Count != 100 {
		t.Fatalf("%d %v %v", len(p.Players), p.Players, p.NextCursor)
	}
}

func BenchmarkRosterPage(b *testing.B) {
	r := roster(10_000)
	mid := r.Page(paging.Request{Limit: 5_000})
	after, _ := paging.Decode(*mid.NextCursor)
	for _, tc := range []struct {
		name string
		req  paging.Request
	}{
		{"First", paging.Request{Limit: paging.Default}},
		{"Middle", paging.Request{Limit: paging.Default, After: after}},
		{"Search", paging.Request{Limit: paging.Default, Q: "racer09"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r.Page(tc.req)
			}
		})
	}
}
