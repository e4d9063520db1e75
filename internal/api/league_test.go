package api_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// leagueServer serves the demo league loaded at phase into a database of
// the test's own; organiser and captain tokens come from the demo accounts.
func leagueServer(t *testing.T, phase string) (*testkit.Server, func(email string) string) {
	t.Helper()
	return leagueServerWith(t, phase, nil)
}

// leagueServerWith is leagueServer with configure applied to its configuration.
func leagueServerWith(t *testing.T, phase string, configure func(*config.Config)) (*testkit.Server, func(email string) string) {
	t.Helper()
	return leagueServerOf(t, phase, demo.Options{Players: 60, Captains: true, Password: testkit.Password}, configure)
}

// leagueServerOf is leagueServerWith with the demo loaded as opt says.
func leagueServerOf(t *testing.T, phase string, opt demo.Options, configure func(*config.Config)) (*testkit.Server, func(email string) string) {
	t.Helper()
	ctx := context.Background()
	db := pgtest.Fresh(t)
	if _, err := demo.Load(ctx, db, opt); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, db, "PPL7", phase); err != nil {
		t.Fatal(err)
	}
	s := testkit.NewServer(t, db, testkit.Options{Admins: []string{demo.AdminEmail}, Configure: configure})
	return s, func(email string) string { return s.Login(t, email, testkit.Password) }
}

func TestAuctionOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "auction")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	state := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil)
	pool := state.JSON["pool"].([]any)
	if state.Status != 200 || state.JSON["lot"] != nil || len(pool) == 0 {
		t.Fatalf("auction: %d %s", state.Status, state.Body)
	}
	player := int(pool[0].(map[string]any)["user_id"].(float64))
	r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/lots", admin, map[string]int{"userId": player, "basePrice": 1500})
	if r.Status != 201 {
		t.Fatalf("open: %d %q", r.Status, r.Message())
	}
	lot := int(r.JSON["lot"].(map[string]any)["id"].(float64))
	for _, c := range []struct {
		token  string
		amount int
		status int
	}{{admin, 1500, 403}, {capA, 1400, 422}, {capA, 1500, 200}, {capA, 1600, 409}} {
		if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", c.token, map[string]int{"lotId": lot, "amount": c.amount}); r.Status != c.status {
			t.Errorf("bid %d: %d %q, want %d", c.amount, r.Status, r.Message(), c.status)
		}
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/auction/lots/%d/close", lot), admin, nil); r.Status != 200 ||
		r.JSON["lot"].(map[string]any)["status"] != "sold" {
		t.Fatalf("close: %d %s", r.Status, r.Body)
	}
	teams := s.Do(t, "GET", "/api/tournaments/PPL7/teams", "", nil).JSON["teams"].([]any)
	a := teams[0].(map[string]any)
	if a["id"] != "A" || a["purse"].(float64)-a["purse_left"].(float64) < 1500 {
		t.Fatalf("team A: %v", a)
	}
	t.Run("CaptainsRoom", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/tournaments/PPL7/captains/messages", capA, map[string]string{"text": "gg"}); r.Status != 201 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		h := s.Do(t, "GET", "/api/tournaments/PPL7/captains/messages", admin, nil)
		msgs := h.JSON["messages"].([]any)
		if h.Status != 200 || msgs[len(msgs)-1].(map[string]any)["text"] != "gg" {
			t.Fatalf("%d %s", h.Status, h.Body)
		}
	})
}

// A match played over HTTP: the proof uploaded as a real image, the report
// naming players by id, the other captain's confirmation, the tables.
func TestMatchOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin := login(demo.AdminEmail)
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	m := b.JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	home, away := m["team1"].(map[string]any)["id"].(string), m["team2"].(map[string]any)["id"].(string)
	id := int(m["id"].(float64))
	homeTok, awayTok := login(demo.CaptainEmail(home)), login(demo.CaptainEmail(away))

	lineups := map[string][]int{}
	for _, side := range []string{home, away} {
		roster := s.Do(t, "GET", "/api/tournaments/PPL7/teams", "", nil).JSON["teams"].([]any)
		for _, team := range roster {
			tm := team.(map[string]any)
			if tm["id"] == side {
				for _, p := range tm["players"].([]any)[:2] {
					lineups[side] = append(lineups[side], int(p.(map[string]any)["user_id"].(float64)))
				}
			}
		}
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/room", id), homeTok, map[string]string{"room": "ABCD12"}); r.Status != 200 {
		t.Fatalf("room: %d %q", r.Status, r.Message())
	}
	if got := s.Do(t, "GET", fmt.Sprintf("/api/matches/%d", id), "", nil).JSON["match"].(map[string]any); got["room"] != "" || got["room_set"] != true {
		t.Fatalf("the room is shown to the public: %v", got["room"])
	}
	// The home captain sets the match's time (to the minute); a time in the past or a body that is
	// not one is refused with what is wrong.
	at := time.Now().Add(50 * time.Hour).UTC()
	timePath := fmt.Sprintf("/api/matches/%d/time", id)
	r := s.Do(t, "POST", timePath, homeTok, map[string]string{"at": at.Format(time.RFC3339)})
	if r.Status != 200 {
		t.Fatalf("time: %d %s", r.Status, r.Body)
	}
	if got, err := time.Parse(time.RFC3339, fmt.Sprint(r.JSON["match"].(map[string]any)["scheduled_at"])); err != nil || !got.Equal(at.Truncate(time.Minute)) {
		t.Fatalf("scheduled_at %v (%v), want %v", got, err, at.Truncate(time.Minute))
	}
	for _, c := range []struct {
		body   any
		status int
	}{
		{map[string]string{"at": "2000-01-01T00:00:00Z"}, 422},
		{map[string]string{"at": "tomorrow at eight"}, 400},
		{map[string]any{"when": 1}, 400},
	} {
		if r := s.Do(t, "POST", timePath, homeTok, c.body); r.Status != c.status || r.Message() == "" {
			t.Errorf("time %v: %d %q, want %d with a message", c.body, r.Status, r.Message(), c.status)
		}
	}
	if r := s.Do(t, "POST", timePath, awayTok, map[string]any{"at": nil}); r.Status != 403 {
		t.Errorf("the away captain clears the time: %d, want 403", r.Status)
	}
	// The match names its tournament and who may play for each side, so its page can offer the lineups.
	if got := s.Do(t, "GET", fmt.Sprintf("/api/matches/%d", id), "", nil).JSON["match"].(map[string]any); got["tournament"] != "PPL7" ||
		len(got["members"].(map[string]any)[home].([]any)) != 6 {
		t.Fatalf("match tournament %v, members %v", got["tournament"], got["members"])
	}

	screenshot := uploadProof(t, s, id, homeTok)
	var players []map[string]int
	place := 1
	for _, side := range []string{home, away} {
		for _, u := range lineups[side] {
			players = append(players, map[string]int{"userId": u, "kills": 10 + place, "deaths": 3, "placement": place})
			place++
		}
	}
	report := map[string]any{"winner": home, "players": players, "screenshotId": screenshot}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/report", id), awayTok, report); r.Status != 200 {
		t.Fatalf("report: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/confirm", id), awayTok, nil); r.Status != 403 {
		t.Fatalf("confirm by the reporter: %d %q, want 403", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/confirm", id), homeTok, nil); r.Status != 200 ||
		r.JSON["match"].(map[string]any)["status"] != "completed" {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	table := s.Do(t, "GET", "/api/tournaments/PPL7/standings", "", nil)
	if rows := table.JSON["rows"].([]any); rows[0].(map[string]any)["team"] != home || len(table.JSON["tie_break"].([]any)) != 4 {
		t.Fatalf("standings: %s", table.Body)
	}
	if rc := s.Do(t, "GET", "/api/tournaments/PPL7/red-cap", "", nil).JSON["rows"].([]any); len(rc) != 4 {
		t.Fatalf("red cap rows %d", len(rc))
	}
}

// The formats over HTTP: an organiser reorders the seeds (a captain may
// not; an order missing a team is unprocessable), options the format does
// not have are refused, and a double elimination's rounds carry their
// bracket and its options.
func TestFormatsOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	order := []string{"C", "A", "B", "D", "E", "F", "G", "H"}
	for _, c := range []struct {
		token  string
		body   any
		status int
	}{
		{capA, map[string]any{"order": order}, 403},
		{admin, map[string]any{"order": order[:7]}, 422},
		{admin, map[string]any{"seeds": order}, 400},
		{admin, map[string]any{"order": order}, 200},
	} {
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/seeds", c.token, c.body); r.Status != c.status {
			t.Errorf("seeds %v: %d %q, want %d", c.body, r.Status, r.Message(), c.status)
		}
	}
	b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	if first := b.JSON["seeds"].([]any)[0].(map[string]any)["team"].(map[string]any)["id"]; first != "C" || b.JSON["seeded_by"] != "the organisers' order" {
		t.Fatalf("seed 1 is %v, seeded by %v", first, b.JSON["seeded_by"])
	}
	for _, c := range []struct {
		body   map[string]any
		status int
	}{
		{map[string]any{"format": "round_robin", "top_cut": 4}, 400},
		{map[string]any{"format": "swiss", "rounds": 9}, 422},
		{map[string]any{"format": "double_elimination", "grand_final_reset": false}, 201},
	} {
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, c.body); r.Status != c.status {
			t.Fatalf("bracket %v: %d %q, want %d", c.body, r.Status, r.Message(), c.status)
		}
	}
	b = s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	rounds := b.JSON["rounds"].([]any)
	last := rounds[len(rounds)-1].(map[string]any)
	first := rounds[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	if b.JSON["format"] != "double_elimination" || last["bracket"] != "grand_final" || first["bracket"] != "winners" ||
		first["loser_match"] == nil || b.JSON["options"] != nil && b.JSON["options"].(map[string]any)["grand_final_reset"] == true {
		t.Fatalf("format %v, last round %v, first match's bracket %v and loser_match %v, options %v", b.JSON["format"], last["bracket"],
			first["bracket"], first["loser_match"], b.JSON["options"])
	}
	if first["team1"].(map[string]any)["id"] != "C" {
		t.Fatalf("the first match is %v's, seed 1 is C", first["team1"])
	}
}
