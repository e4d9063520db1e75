package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// problems are the problems a 409 lists.
func problems(r *testkit.Resp) []string {
	var out []string
	for _, p := range r.JSON["problems"].([]any) {
		out = append(out, p.(string))
	}
	return out
}

// moveTo is the GET …/status answer's move to phase.
func moveTo(t *testing.T, r *testkit.Resp, phase string) map[string]any {
	t.Helper()
	for _, m := range r.JSON["moves"].([]any) {
		if mv := m.(map[string]any); mv["to"] == phase {
			return mv
		}
	}
	t.Fatalf("no move to %s in %s", phase, r.Body)
	return nil
}

// A season whose teams bought two of five: the move to the matches is
// previewed and refused with the empty slots, team by team, then forced
// (audited with what it overrode); the fixtures are made, reset (a result
// only with force, archived) and the season goes back to its auction.
func TestPhaseMovesResetAndBackOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "auction")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	status := "/api/admin/tournaments/PPL7/status"

	if r := s.Do(t, "GET", status, "", nil); r.Status != 401 {
		t.Fatalf("anonymous preview: %d", r.Status)
	}
	if r := s.Do(t, "GET", status, capA, nil); r.Status != 403 {
		t.Fatalf("a captain's preview: %d", r.Status)
	}
	r := s.Do(t, "GET", status, admin, nil)
	if r.Status != 200 || r.JSON["status"] != "auction" {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	on, back := moveTo(t, r, "matches"), moveTo(t, r, "registration")
	if on["allowed"] != true || on["force"] != true || len(on["warnings"].([]any)) != 8 || on["warnings"].([]any)[1] != "Team B has 3 of 5 slots empty" {
		t.Fatalf("on to matches: %v", on)
	}
	if back["allowed"] != false || back["back"] != true || len(back["refusals"].([]any)) != 1 {
		t.Fatalf("back to registration: %v", back)
	}

	r = s.Do(t, "POST", status, admin, map[string]any{"status": "matches"})
	if r.Status != 409 || !slices.Contains(problems(r), "Team B has 3 of 5 slots empty") || len(problems(r)) != 8 ||
		!strings.Contains(r.Message(), "move anyway (force)") {
		t.Fatalf("unforced: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", status, capA, map[string]any{"status": "matches", "force": true}); r.Status != 403 {
		t.Fatalf("a captain forcing: %d", r.Status)
	}
	if r := s.Do(t, "POST", status, admin, map[string]any{"status": "matches", "force": true}); r.Status != 200 || r.JSON["status"] != "matches" {
		t.Fatalf("forced: %d %s", r.Status, r.Body)
	}
	audit := s.Do(t, "GET", "/api/admin/audit?tournament=PPL7&action=tournament.status&limit=1", admin, nil)
	entry := audit.JSON["entries"].([]any)[0].(map[string]any)["data"].(map[string]any)
	if entry["force"] != true || len(entry["problems"].([]any)) != 8 || entry["to"] != "matches" {
		t.Fatalf("audited: %v", entry)
	}

	bracket := "/api/admin/tournaments/PPL7/bracket"
	if r := s.Do(t, "POST", bracket, admin, map[string]string{"format": "double_elimination"}); r.Status != 201 {
		t.Fatalf("fixtures: %d %s", r.Status, r.Body)
	}
	r = s.Do(t, "GET", status, admin, nil)
	if back := moveTo(t, r, "auction"); back["allowed"] != false || !slices.Contains(back["refusals"].([]any), any("its fixtures are made: reset them first (their results are archived)")) {
		t.Fatalf("back to the auction with fixtures: %v", back)
	}
	if r := s.Do(t, "POST", status, admin, map[string]any{"status": "auction", "force": true}); r.Status != 409 {
		t.Fatalf("forced back over fixtures: %d", r.Status)
	}
	b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	first := b.JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	id, away := int(first["id"].(float64)), first["team2"].(map[string]any)["id"].(string)
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/matches/%d/forfeit", id), admin, map[string]string{"team": away}); r.Status != 200 {
		t.Fatalf("forfeit: %d %s", r.Status, r.Body)
	}

	if r := s.Do(t, "DELETE", bracket, capA, nil); r.Status != 403 {
		t.Fatalf("a captain's reset: %d", r.Status)
	}
	if r := s.Do(t, "DELETE", bracket+"?force=maybe", admin, nil); r.Status != 400 {
		t.Fatalf("force=maybe: %d", r.Status)
	}
	r = s.Do(t, "DELETE", bracket, admin, nil)
	if r.Status != 409 || len(problems(r)) != 1 || !strings.Contains(problems(r)[0], "won by forfeit") {
		t.Fatalf("a reset over a result: %d %s", r.Status, r.Body)
	}
	r = s.Do(t, "DELETE", bracket+"?force=true", admin, nil)
	reset, _ := r.JSON["reset"].(map[string]any)
	if r.Status != 200 || reset["results"] != 1.0 || reset["matches"] != 14.0 || reset["forced"] != true {
		t.Fatalf("forced reset: %d %s", r.Status, r.Body)
	}
	if b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil); len(b.JSON["rounds"].([]any)) != 0 || b.JSON["format"] != "" {
		t.Fatalf("the bracket after the reset: %s", b.Body)
	}
	r = s.Do(t, "GET", "/api/admin/tournaments/PPL7/resets", admin, nil)
	resets := r.JSON["resets"].([]any)
	if r.Status != 200 || len(resets) != 1 || len(resets[0].(map[string]any)["fixtures"].([]any)) != 14 {
		t.Fatalf("the archive: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "GET", "/api/admin/tournaments/PPL7/resets", capA, nil); r.Status != 403 {
		t.Fatalf("a captain reads the archive: %d", r.Status)
	}
	if r := s.Do(t, "POST", status, admin, map[string]any{"status": "auction"}); r.Status != 200 || r.JSON["status"] != "auction" {
		t.Fatalf("back to the auction after the reset: %d %s", r.Status, r.Body)
	}
}

// Withdrawals: while registering a place frees for the waitlist; during the
// auction a bought player's sale is voided; in the matches a player's slot
// goes to a replacement, a captain is refused, and a team withdrawn leaves
// a bracket that still reaches its champion.
func TestWithdrawalsOverHTTP(t *testing.T) {
	t.Run("RegistrationFreesAPlace", func(t *testing.T) {
		s, login := leagueServer(t, "registration")
		admin := login(demo.AdminEmail)
		list := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil)
		confirmed := int(list.JSON["confirmed"].(float64))
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/cap", admin, map[string]int{"cap": confirmed}); r.Status != 200 {
			t.Fatalf("cap: %d %s", r.Status, r.Body)
		}
		newcomer := s.SignUp(t, testkit.UniqueEmail("late"), "late_racer")
		s.SaveStats(t, newcomer)
		if r := s.Do(t, "POST", "/api/tournament/register", newcomer, map[string]string{"tournamentName": "PPL7"}); r.JSON["status"] != "waitlisted" {
			t.Fatalf("the newcomer: %d %s", r.Status, r.Body)
		}
		var player int64
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT r.user_id FROM registrations r WHERE r.status = 'confirmed'
			AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) ORDER BY r.user_id LIMIT 1`).Scan(&player); err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("/api/admin/tournaments/PPL7/players/%d/withdraw", player)
		if r := s.Do(t, "POST", path, admin, map[string]any{"reason": "moved", "replacement": 7}); r.Status != 400 {
			t.Fatalf("a replacement while registering: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", path, admin, map[string]any{"reason": "Moved abroad"}); r.Status != 200 {
			t.Fatalf("withdraw: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", path, admin, map[string]any{}); r.Status != 404 {
			t.Fatalf("withdrawn twice: %d %s", r.Status, r.Body)
		}
		if e := s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL7", newcomer, nil); e.JSON["status"] != "confirmed" {
			t.Fatalf("the waitlist did not move: %s", e.Body)
		}
	})

	t.Run("AuctionVoidsTheSale", func(t *testing.T) {
		s, login := leagueServer(t, "auction")
		admin := login(demo.AdminEmail)
		teams := func() map[string]any {
			for _, tm := range s.Do(t, "GET", "/api/tournaments/PPL7/teams", "", nil).JSON["teams"].([]any) {
				if team := tm.(map[string]any); team["id"] == "C" {
					return team
				}
			}
			return nil
		}
		before := teams()
		bought := before["players"].([]any)[0].(map[string]any)
		path := fmt.Sprintf("/api/admin/tournaments/PPL7/players/%d/withdraw", int(bought["user_id"].(float64)))
		if r := s.Do(t, "POST", path, admin, map[string]string{"reason": "injured"}); r.Status != 200 ||
			r.JSON["withdrawal"].(map[string]any)["team"] != "C" {
			t.Fatalf("withdraw: %d %s", r.Status, r.Body)
		}
		after := teams()
		if len(after["players"].([]any)) != len(before["players"].([]any))-1 ||
			after["purse_left"].(float64) != before["purse_left"].(float64)+bought["price"].(float64) {
			t.Fatalf("team C after: %v", after)
		}
	})

	t.Run("MatchesReplacementAndATeamWithdrawn", func(t *testing.T) {
		s, login := leagueServer(t, "matches")
		admin := login(demo.AdminEmail)
		ctx := context.Background()
		var captainB, playerB, free int64
		q := func(sql string, dst *int64) {
			t.Helper()
			if err := s.DB.Pool.QueryRow(ctx, sql).Scan(dst); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		q(`SELECT captain_user_id FROM teams WHERE letter = 'B'`, &captainB)
		q(`SELECT p.user_id FROM team_players p JOIN teams t ON t.id = p.team_id WHERE t.letter = 'B' ORDER BY p.user_id LIMIT 1`, &playerB)
		q(`SELECT r.user_id FROM registrations r WHERE r.status = 'confirmed'
			AND NOT EXISTS (SELECT 1 FROM team_players p WHERE p.user_id = r.user_id)
			AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) ORDER BY r.user_id LIMIT 1`, &free)
		withdraw := func(id int64) string { return fmt.Sprintf("/api/admin/tournaments/PPL7/players/%d/withdraw", id) }

		r := s.Do(t, "POST", withdraw(captainB), admin, map[string]string{"reason": "gone"})
		if r.Status != 409 || !strings.Contains(r.Message(), "withdraw the team instead") {
			t.Fatalf("a captain: %d %s", r.Status, r.Body)
		}
		r = s.Do(t, "POST", withdraw(playerB), admin, map[string]any{"reason": "Exams", "replacement": free})
		w, _ := r.JSON["withdrawal"].(map[string]any)
		if r.Status != 200 || w["team"] != "B" || w["replacement"].(map[string]any)["id"] != float64(free) {
			t.Fatalf("withdraw with a replacement: %d %s", r.Status, r.Body)
		}
		var onB []int64
		rows, _ := s.DB.Pool.Query(ctx, `SELECT p.user_id FROM team_players p JOIN teams t ON t.id = p.team_id WHERE t.letter = 'B'`)
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			onB = append(onB, id)
		}
		if len(onB) != 5 || slices.Contains(onB, playerB) || !slices.Contains(onB, free) {
			t.Fatalf("team B's roster: %v", onB)
		}

		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "single_elimination"}); r.Status != 201 {
			t.Fatalf("fixtures: %d %s", r.Status, r.Body)
		}
		r = s.Do(t, "POST", "/api/admin/tournaments/PPL7/teams/D/withdraw", admin, map[string]string{"reason": "Stopped showing up"})
		tw, _ := r.JSON["withdrawal"].(map[string]any)
		if r.Status != 200 || len(tw["forfeited"].([]any)) != 1 {
			t.Fatalf("withdraw team D: %d %s", r.Status, r.Body)
		}
		// The organiser rules every other match for its home side until the bracket has its champion.
		for range 10 {
			ms := s.Do(t, "GET", "/api/tournaments/PPL7/matches", "", nil).JSON["matches"].([]any)
			played := 0
			for _, x := range ms {
				m := x.(map[string]any)
				if m["status"] != "scheduled" || m["team1"] == nil || m["team2"] == nil {
					continue
				}
				home := m["team1"].(map[string]any)["id"].(string)
				if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/matches/%d/resolve", int(m["id"].(float64))), admin,
					map[string]any{"winner": home}); r.Status != 200 {
					t.Fatalf("resolve: %d %s", r.Status, r.Body)
				}
				played++
			}
			if played == 0 {
				break
			}
		}
		b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
		champion, _ := b.JSON["champion"].(map[string]any)
		if champion == nil || champion["id"] == "D" {
			t.Fatalf("champion %v", champion)
		}
		table := s.Do(t, "GET", "/api/tournaments/PPL7/standings", "", nil)
		var marked []string
		for _, x := range table.JSON["rows"].([]any) {
			if row := x.(map[string]any); row["withdrawn"] == true {
				marked = append(marked, row["team"].(string))
			}
		}
		if !slices.Equal(marked, []string{"D"}) {
			t.Fatalf("withdrawn in the table: %v", marked)
		}
		audit := s.Do(t, "GET", "/api/admin/audit?tournament=PPL7&action=team.withdraw", admin, nil)
		if entries := audit.JSON["entries"].([]any); len(entries) != 1 {
			body, _ := json.Marshal(audit.JSON)
			t.Fatalf("audit: %s", body)
		}
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", admin, map[string]string{"status": "completed"}); r.Status != 200 {
			t.Fatalf("complete: %d %s", r.Status, r.Body)
		}
	})
}
