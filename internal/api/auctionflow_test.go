package api_test

import (
	"fmt"
	"testing"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/demo"
)

// The auction's flow over HTTP: a pause refuses bids with 409 and the
// rule, a resume takes them again, undo voids the last sale, and a captain
// nominates on their team's turn only.
func TestAuctionFlowOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "auction")
	admin, capA, capB := login(demo.AdminEmail), login(demo.CaptainEmail("A")), login(demo.CaptainEmail("B"))
	pool := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil).JSON["pool"].([]any)
	player := func(i int) int { return int(pool[i].(map[string]any)["user_id"].(float64)) }

	r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/lots", admin, map[string]int{"userId": player(0), "basePrice": 1500})
	lot := int(r.JSON["lot"].(map[string]any)["id"].(float64))
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/pause", capA, nil); r.Status != 403 {
		t.Fatalf("a captain pauses: %d", r.Status)
	}
	r = s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/pause", admin, nil)
	if r.Status != 200 || r.JSON["flow"].(map[string]any)["paused"] != true || r.JSON["lot"].(map[string]any)["paused_left_ms"] == nil {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", capA, map[string]int{"lotId": lot, "amount": 1500}); r.Status != 409 ||
		r.Message() != auction.MsgPaused {
		t.Fatalf("a bid while paused: %d %q", r.Status, r.Message())
	}
	if state := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil); state.JSON["flow"].(map[string]any)["paused"] != true {
		t.Fatalf("the auction's state does not say paused: %s", state.Body)
	}
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/resume", admin, nil); r.Status != 200 {
		t.Fatalf("resume: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", capA, map[string]int{"lotId": lot, "amount": 1500}); r.Status != 200 {
		t.Fatalf("a bid once resumed: %d %q", r.Status, r.Message())
	}
	s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/auction/lots/%d/close", lot), admin, nil)
	r = s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/undo", admin, nil)
	if r.Status != 200 || int(r.JSON["lot"].(map[string]any)["id"].(float64)) != lot || r.JSON["lot"].(map[string]any)["status"] != "voided" {
		t.Fatalf("undo: %d %s", r.Status, r.Body)
	}

	r = s.Do(t, "PUT", "/api/admin/tournaments/PPL7/auction/turns", admin, map[string]any{"enabled": true})
	turn, _ := r.JSON["flow"].(map[string]any)["turn"].(string)
	if r.Status != 200 || turn == "" {
		t.Fatalf("turns on: %d %s", r.Status, r.Body)
	}
	other, mine := capB, capA
	if turn != "A" {
		other, mine = capA, login(demo.CaptainEmail(turn))
	}
	if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/nominations", other, map[string]int{"userId": player(1)}); r.Status != 409 {
		t.Fatalf("out of turn: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/nominations", mine, map[string]int{"userId": player(1)}); r.Status != 201 {
		t.Fatalf("on the team's turn: %d %q", r.Status, r.Message())
	}
}
