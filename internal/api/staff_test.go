package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// An organiser grants a player the running of one tournament: the
// co-organiser rules its disputes and is refused on another season, cannot
// grant the role on, and loses it when it is removed. Every grant is
// audited with who made it.
func TestCoOrganisers(t *testing.T) {
	s, login := leagueServerOf(t, "matches", demo.Options{Players: 60, Captains: true, Password: testkit.Password, PlayersSignIn: true}, nil)
	admin := login(demo.AdminEmail)
	helperEmail := "player040@demo.pitlane.local"
	helper := login(helperEmail)
	helperID := int(s.Do(t, "GET", "/api/auth/profile", helper, nil).JSON["user"].(map[string]any)["id"].(float64))
	if r := s.Do(t, "POST", "/api/admin/tournaments", admin, map[string]any{"name": "PPL8", "season": 8}); r.Status != 201 {
		t.Fatalf("PPL8: %d %s", r.Status, r.Body)
	}

	t.Run("ErrOnlyOrganisersGrant", func(t *testing.T) {
		if r := s.Do(t, "PUT", fmt.Sprintf("/api/admin/tournaments/PPL7/staff/%d", helperID), helper, nil); r.Status != 403 {
			t.Fatalf("a player grants: %d", r.Status)
		}
	})
	found := s.Do(t, "GET", "/api/admin/accounts?q=player040@demo.pitlane.local", admin, nil)
	accounts, _ := found.JSON["accounts"].([]any)
	if found.Status != 200 || len(accounts) != 1 || strings.Contains(string(found.Body), "@") {
		t.Fatalf("account search: %d %s", found.Status, found.Body)
	}
	// A part of an address matches nothing: addresses are found whole, never letter by letter.
	for _, part := range []string{"@demo.pitlane.local", "player040@demo", "040@demo.pitlane.local"} {
		r := s.Do(t, "GET", "/api/admin/accounts?q="+url.QueryEscape(part), admin, nil)
		if list, _ := r.JSON["accounts"].([]any); r.Status != 200 || len(list) != 0 {
			t.Fatalf("account search %q: %d %s", part, r.Status, r.Body)
		}
	}
	r := s.Do(t, "PUT", fmt.Sprintf("/api/admin/tournaments/PPL7/staff/%d", helperID), admin, nil)
	if r.Status != 200 || len(r.JSON["staff"].([]any)) != 1 {
		t.Fatalf("grant: %d %s", r.Status, r.Body)
	}
	if role := s.Do(t, "GET", "/api/auth/profile", helper, nil).JSON["user"].(map[string]any)["role"]; role != "staff" {
		t.Fatalf("role %v, want staff", role)
	}

	// A dispute in PPL7 to rule.
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", helper, map[string]string{"format": "single_elimination"}); r.Status != 201 {
		t.Fatalf("the co-organiser makes PPL7's fixtures: %d %s", r.Status, r.Body)
	}
	m := disputedMatch(t, s, login)
	ruling := map[string]any{"winner": m.away, "players": m.players}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/matches/%d/resolve", m.id), helper, ruling); r.Status != 200 {
		t.Fatalf("the co-organiser rules a PPL7 dispute: %d %s", r.Status, r.Body)
	}
	t.Run("ErrAnotherTournament", func(t *testing.T) {
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/admin/tournaments/PPL8/status", map[string]any{"status": "auction", "force": true}},
			{"PUT", "/api/admin/tournaments/PPL8/cap", map[string]int{"cap": 10}},
			{"GET", "/api/admin/tournaments/PPL8/staff", nil},
			{"GET", "/api/admin/audit?tournament=PPL8", nil},
			{"GET", "/api/admin/audit", nil},
			{"PUT", "/api/admin/tournaments/PPL8", map[string]string{"display_name": "Hijacked"}},
		} {
			if r := s.Do(t, c.method, c.path, helper, c.body); r.Status != 403 {
				t.Errorf("%s %s: %d %q, want 403", c.method, c.path, r.Status, r.Message())
			}
		}
		if r := s.Do(t, "PUT", fmt.Sprintf("/api/admin/tournaments/PPL7/staff/%d", helperID), helper, nil); r.Status != 403 {
			t.Errorf("the co-organiser grants the role on: %d", r.Status)
		}
	})
	audit := s.Do(t, "GET", "/api/admin/audit?action=tournament.staff_granted", admin, nil)
	if audit.Status != 200 || !strings.Contains(string(audit.Body), fmt.Sprintf(`"by":%d`, adminID(t, s, admin))) {
		t.Fatalf("grant not audited with who made it: %s", audit.Body)
	}
	if r := s.Do(t, "GET", "/api/admin/audit?tournament=PPL7", helper, nil); r.Status != 200 {
		t.Fatalf("the co-organiser reads PPL7's log: %d", r.Status)
	}
	if r := s.Do(t, "DELETE", fmt.Sprintf("/api/admin/tournaments/PPL7/staff/%d", helperID), admin, nil); r.Status != 200 {
		t.Fatalf("revoke: %d", r.Status)
	}
	if r := s.Do(t, "GET", "/api/admin/tournaments/PPL7/staff", helper, nil); r.Status != 403 {
		t.Fatalf("after the revocation: %d", r.Status)
	}
}

func adminID(t *testing.T, s *testkit.Server, token string) int {
	t.Helper()
	return int(s.Do(t, "GET", "/api/auth/profile", token, nil).JSON["user"].(map[string]any)["id"].(float64))
}

type dispute struct {
	id         int
	home, away string
	players    []map[string]int
}

// disputedMatch reports PPL7's first match with both sides for its home
// team and has the away captain dispute it.
func disputedMatch(t *testing.T, s *testkit.Server, login func(string) string) dispute {
	t.Helper()
	b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	for _, round := range b.JSON["rounds"].([]any) {
		for _, x := range round.(map[string]any)["matches"].([]any) {
			m := x.(map[string]any)
			t1, ok1 := m["team1"].(map[string]any)
			t2, ok2 := m["team2"].(map[string]any)
			if !ok1 || !ok2 {
				continue
			}
			d := dispute{id: int(m["id"].(float64)), home: t1["id"].(string), away: t2["id"].(string)}
			home, away := login(demo.CaptainEmail(d.home)), login(demo.CaptainEmail(d.away))
			members := s.Do(t, "GET", fmt.Sprintf("/api/matches/%d", d.id), "", nil).JSON["match"].(map[string]any)["members"].(map[string]any)
			var players []map[string]int
			for i, side := range []string{d.home, d.away} {
				u := members[side].([]any)[1].(map[string]any)
				players = append(players, map[string]int{"userId": int(u["user_id"].(float64)), "kills": 10 - i, "deaths": 3, "placement": i + 1})
			}
			d.players = players
			report := map[string]any{"winner": d.home, "players": players, "screenshotId": uploadProof(t, s, d.id, home)}
			if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/report", d.id), home, report); r.Status != 200 {
				t.Fatalf("report: %d %s", r.Status, r.Body)
			}
			if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/dispute", d.id), away, map[string]string{"reason": "Our kart crossed first."}); r.Status != 200 {
				t.Fatalf("dispute: %d %s", r.Status, r.Body)
			}
			return d
		}
	}
	t.Fatal("no match with both sides")
	return dispute{}
}
