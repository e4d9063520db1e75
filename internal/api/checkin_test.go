package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// The cap, the waitlist and the check-in over HTTP, on the demo league
// while it registers (60 players, captains named); the deadline's job runs
// on the server's own river.
func TestCheckinOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "registration")
	admin := login(demo.AdminEmail)
	newcomer := func(name string) string {
		token := s.SignUp(t, testkit.UniqueEmail(name), name)
		s.SaveStats(t, token)
		return token
	}
	status := func(token string) map[string]any {
		r := s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL7", token, nil)
		if r.Status != 200 {
			t.Fatalf("status: %d %s", r.Status, r.Body)
		}
		return r.JSON
	}
	reg := func(token string) map[string]any {
		r := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"})
		if r.Status != 200 {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		return r.JSON
	}
	a, b, c := newcomer("ace"), newcomer("bolt"), newcomer("comet")

	t.Run("ErrCapIsForOrganisers", func(t *testing.T) {
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/cap", a, map[string]int{"cap": 10}); r.Status != 403 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("BeyondTheCapPlayersWait", func(t *testing.T) {
		r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/cap", admin, map[string]int{"cap": 61})
		if r.Status != 200 || r.JSON["places"].(map[string]any)["cap"] != float64(61) {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if e := reg(a); e["status"] != "confirmed" || e["message"] != "Successfully registered for the tournament!" {
			t.Fatalf("%v", e)
		}
		if e := reg(b); e["status"] != "waitlisted" || e["waitlist_place"] != float64(1) {
			t.Fatalf("%v", e)
		}
		list := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil).JSON
		if list["count"] != float64(62) || list["confirmed"] != float64(61) || list["waitlisted"] != float64(1) {
			t.Fatalf("count %v, confirmed %v, waitlisted %v", list["count"], list["confirmed"], list["waitlisted"])
		}
	})
	t.Run("ALeavingPlayerIsReplacedInOrder", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/tournament/unregister", a, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if st := status(b); st["status"] != "confirmed" {
			t.Fatalf("%v", st)
		}
	})
	t.Run("ErrPromotingOverTheCap", func(t *testing.T) {
		if e := reg(c); e["status"] != "waitlisted" {
			t.Fatalf("%v", e)
		}
		id := int(s.Do(t, "GET", "/api/auth/profile", c, nil).JSON["user"].(map[string]any)["id"].(float64))
		r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/waitlist/%d/promote", id), admin, nil)
		if r.Status != 409 || r.Message() != "PPL7 is full (61 of 61 places): raise the cap first." {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/cap", admin, map[string]int{"cap": 0}); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r = s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/waitlist/%d/promote", id), admin, nil)
		if r.Status != 200 || r.JSON["entry"].(map[string]any)["status"] != "confirmed" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrCheckingInBeforeTheWindow", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/tournament/checkin", b, map[string]string{"tournamentName": "PPL7"})
		if r.Status != 409 || r.Message() != "Check-in for PPL7 is not open." {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("TheDeadlineMovesWhoDidNotCheckIn", func(t *testing.T) {
		// The server's clock two minutes behind: a deadline a minute ahead of
		// it is already past for river, which runs the job at once.
		s.App.Server.Tournaments.Now = func() time.Time { return time.Now().Add(-2 * time.Minute) }
		deadline := time.Now().Add(-2 * time.Minute).Truncate(time.Minute).Add(time.Minute)
		r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/checkin", admin, map[string]any{"deadline": deadline})
		if r.Status != 200 || r.JSON["places"].(map[string]any)["checkin_state"] != "open" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r = s.Do(t, "POST", "/api/tournament/checkin", b, map[string]string{"tournamentName": "PPL7"})
		if r.Status != 200 || r.JSON["checked_in_at"] == nil || r.JSON["message"] != "You are checked in for PPL7." {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", admin, map[string]string{"status": "auction"}); r.Status != 409 {
			t.Fatalf("the auction before the check-in closed: %d %s", r.Status, r.Body)
		}
		var info map[string]any
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			if info = s.Do(t, "GET", "/api/tournament/info?tournamentName=PPL7", "", nil).JSON; info["checkin_state"] == "closed" {
				break
			}
		}
		// Only b, who checked in, and the eight captains keep their places.
		if info["checkin_state"] != "closed" || info["confirmed"] != float64(9) || info["checked_in"] != float64(1) {
			t.Fatalf("after the deadline: %v", info)
		}
		if st := status(c); st["status"] != "waitlisted" {
			t.Fatalf("%v", st)
		}
		// The eight captains kept their places without checking in: the move lists them, then is forced.
		move := map[string]any{"status": "auction"}
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", admin, move); r.Status != 409 ||
			!strings.HasPrefix(problems(r)[0], "8 confirmed players did not check in") {
			t.Fatalf("the auction with captains who did not check in: %d %s", r.Status, r.Body)
		}
		move["force"] = true
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", admin, move); r.Status != 200 {
			t.Fatalf("the auction once the check-in closed: %d %s", r.Status, r.Body)
		}
		pool := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil).JSON["pool"].([]any)
		if len(pool) != 1 {
			t.Fatalf("the auction may put up %d players, want the one who checked in", len(pool))
		}
	})
}

// A captain asks to sign a substitute, an organiser approves, and the
// substitute is on the team and may play; a side checks in for its match.
func TestSubstitutesAndMatchCheckinOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	bench := s.Do(t, "GET", "/api/tournaments/PPL7/substitutes", "", nil)
	pool, _ := bench.JSON["pool"].([]any)
	if bench.Status != 200 || len(pool) == 0 || bench.JSON["max"] != float64(2) {
		t.Fatalf("%d %s", bench.Status, bench.Body)
	}
	player := pool[0].(map[string]any)
	r := s.Do(t, "POST", "/api/tournaments/PPL7/substitutes", capA, map[string]any{"userId": player["user_id"]})
	if r.Status != 201 || r.JSON["request"].(map[string]any)["price"] != player["price"] {
		t.Fatalf("ask: %d %s", r.Status, r.Body)
	}
	id := int(r.JSON["request"].(map[string]any)["id"].(float64))
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/substitutes/%d/approve", id), capA, nil); r.Status != 403 {
		t.Fatalf("a captain approving: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/substitutes/%d/approve", id), admin, nil); r.Status != 200 ||
		r.JSON["request"].(map[string]any)["status"] != "approved" {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/substitutes/%d/refuse", id), admin, map[string]string{"reason": "late"}); r.Status != 409 {
		t.Fatalf("refusing an approved request: %d %s", r.Status, r.Body)
	}
	teams := s.Do(t, "GET", "/api/tournaments/PPL7/teams", "", nil).JSON["teams"].([]any)
	subs := teams[0].(map[string]any)["substitutes"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["user_id"] != player["user_id"] {
		t.Fatalf("team A's substitutes: %v", subs)
	}

	b := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "single_elimination"})
	if b.Status != 201 {
		t.Fatalf("bracket: %d %s", b.Status, b.Body)
	}
	var match map[string]any
	for _, m := range b.JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any) {
		if mm := m.(map[string]any); mm["team1"].(map[string]any)["id"] == "A" || mm["team2"].(map[string]any)["id"] == "A" {
			match = mm
		}
	}
	mid := int(match["id"].(float64))
	at := time.Now().Add(30 * time.Minute).UTC().Truncate(time.Minute)
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/time", mid), admin, map[string]any{"at": at}); r.Status != 200 {
		t.Fatalf("time: %d %s", r.Status, r.Body)
	}
	r = s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/checkin", mid), capA, nil)
	if r.Status != 200 || r.JSON["match"].(map[string]any)["checked_in"].(map[string]any)["A"] == nil {
		t.Fatalf("check in: %d %s", r.Status, r.Body)
	}
	members := r.JSON["match"].(map[string]any)["members"].(map[string]any)["A"].([]any)
	if last := members[len(members)-1].(map[string]any); last["user_id"] != player["user_id"] || last["substitute"] != true {
		t.Fatalf("team A's members: %v", members)
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/checkin", mid), admin, nil); r.Status != 403 {
		t.Fatalf("an organiser checking in: %d %s", r.Status, r.Body)
	}
}
