package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/testkit"
)

// roomsOf lists the token's rooms by kind and team letter (or match id).
func roomsOf(t *testing.T, s *testkit.Server, token string) map[string]map[string]any {
	t.Helper()
	r := s.Do(t, "GET", "/api/rooms", token, nil)
	if r.Status != 200 {
		t.Fatalf("rooms: %d %s", r.Status, r.Body)
	}
	out := map[string]map[string]any{}
	for _, x := range r.JSON["rooms"].([]any) {
		room := x.(map[string]any)
		key := "team " + fmt.Sprint(room["team"])
		if room["kind"] == "match" {
			key = fmt.Sprintf("match %v", room["match_id"])
		}
		out[key] = room
	}
	return out
}

// teamPlayer gives a player of team letter (not its captain) a login and
// returns its token.
func teamPlayer(t *testing.T, s *testkit.Server, letter string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := s.DB.Pool.QueryRow(ctx, `SELECT tp.user_id FROM team_players tp JOIN teams tm ON tm.id = tp.team_id
		WHERE tm.letter = $1 AND tp.user_id <> tm.captain_user_id ORDER BY tp.user_id LIMIT 1`, letter).Scan(&id); err != nil {
		t.Fatal(err)
	}
	hash, err := auth.HashPassword(testkit.Password)
	if err != nil {
		t.Fatal(err)
	}
	email := testkit.UniqueEmail("player")
	if err := (postgres.Demo{DB: s.DB}).SetLogin(ctx, id, email, hash); err != nil {
		t.Fatal(err)
	}
	return s.Login(t, email, testkit.Password), id
}

func TestTeamRooms(t *testing.T) {
	s, ps, login := pushLeague(t, "matches")
	admin, capA, capB := login(demo.AdminEmail), login(demo.CaptainEmail("A")), login(demo.CaptainEmail("B"))
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	player, _ := teamPlayer(t, s, "A")
	mine := roomsOf(t, s, capA)
	teamA := mine["team A"]
	if teamA == nil {
		t.Fatalf("captain A's rooms: %v", mine)
	}
	roomA := int64(teamA["id"].(float64))
	path := fmt.Sprintf("/api/rooms/%d/messages", roomA)
	topic := fmt.Sprintf("room:%d", roomA)

	t.Run("ACaptainIsInTheTeamRoomAndItsMatchRooms", func(t *testing.T) {
		matchRooms := 0
		for k := range mine {
			if strings.HasPrefix(k, "match ") {
				matchRooms++
			}
		}
		if matchRooms == 0 || mine["team B"] != nil {
			t.Fatalf("%v", mine)
		}
	})
	t.Run("APlayerIsInTheirTeamsRoomOnly", func(t *testing.T) {
		rooms := roomsOf(t, s, player)
		if len(rooms) != 1 || rooms["team A"] == nil {
			t.Fatalf("%v", rooms)
		}
	})
	t.Run("AnotherTeamIsRefusedTheHistoryAndTheTopic", func(t *testing.T) {
		if r := s.Do(t, "GET", path, capB, nil); r.Status != 403 {
			t.Fatalf("history: %d", r.Status)
		}
		if r := s.Do(t, "POST", path, capB, map[string]string{"text": "hi"}); r.Status != 403 {
			t.Fatalf("post: %d", r.Status)
		}
		ws := testkit.DialWS(t, s.URL, capB)
		ws.Subscribe(nil, topic)
		if f := ws.Next(5 * time.Second); f.Type != "error" || !strings.Contains(f.Message, "team's players") {
			t.Fatalf("subscribe: %+v", f)
		}
	})

	ws := testkit.DialWS(t, s.URL, capA)
	ws.Subscribe(nil, topic)
	ws.Sync()
	browser := ps.Browser(t)
	if r := s.Do(t, "POST", "/api/me/notifications/push", capA, browser); r.Status != 201 {
		t.Fatalf("push: %d %s", r.Status, r.Body)
	}
	s.Do(t, "PUT", "/api/me/notifications", capA, choose(notify.KindMention, true))
	capName := s.Do(t, "GET", "/api/auth/profile", capA, nil).JSON["user"].(map[string]any)
	mention := fmt.Sprint(capName["discord_username"])
	if mention == "" {
		t.Fatal("captain A has no Discord name to mention")
	}
	var mid int64
	t.Run("TwoPlayersTalkLive", func(t *testing.T) {
		r := s.Do(t, "POST", path, player, map[string]string{"text": "lineup at 8? @" + mention})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		mid = int64(r.JSON["message"].(map[string]any)["id"].(float64))
		f := ws.WaitEvent(topic, "room.message", 10*time.Second)
		if f.Data["message"].(map[string]any)["text"] != "lineup at 8? @"+mention {
			t.Fatalf("%+v", f)
		}
	})
	t.Run("AMentionNotifies", func(t *testing.T) {
		got := ps.WaitMessages(t, 1, 20*time.Second)[0]
		if got.Message.Kind != notify.KindMention || !strings.Contains(got.Message.URL, fmt.Sprintf("/rooms/%d", roomA)) {
			t.Fatalf("%+v", got.Message)
		}
	})
	t.Run("UnreadUntilRead", func(t *testing.T) {
		if n := roomsOf(t, s, capA)["team A"]["unread"]; n != 1.0 {
			t.Fatalf("unread %v", n)
		}
		h := s.Do(t, "GET", path, capA, nil)
		if h.Status != 200 || len(h.JSON["messages"].([]any)) != 1 {
			t.Fatalf("%d %s", h.Status, h.Body)
		}
		if n := roomsOf(t, s, capA)["team A"]["unread"]; n != 0.0 {
			t.Fatalf("unread after reading %v", n)
		}
	})
	t.Run("OnlyTheAuthorEdits", func(t *testing.T) {
		mp := fmt.Sprintf("%s/%d", path, mid)
		if r := s.Do(t, "PATCH", mp, capA, map[string]string{"text": "forged"}); r.Status != 403 {
			t.Fatalf("another's: %d", r.Status)
		}
		if r := s.Do(t, "PATCH", mp, player, map[string]string{"text": "lineup at 9"}); r.Status != 200 {
			t.Fatalf("own: %d %s", r.Status, r.Body)
		}
	})
	t.Run("AuthorsDeleteOnlyWithinFiveMinutesStaffAnyTime", func(t *testing.T) {
		mp := fmt.Sprintf("%s/%d", path, mid)
		s.DB.Pool.Exec(context.Background(), `UPDATE chat_messages SET at = now() - interval '6 minutes' WHERE id = $1`, mid)
		if r := s.Do(t, "DELETE", mp, player, nil); r.Status != 403 {
			t.Fatalf("late: %d", r.Status)
		}
		if r := s.Do(t, "DELETE", mp, admin, nil); r.Status != 200 {
			t.Fatalf("staff: %d %s", r.Status, r.Body)
		}
		if f := ws.WaitEvent(topic, "room.message.deleted", 10*time.Second); f.Data["id"] != float64(mid) {
			t.Fatalf("%+v", f)
		}
		if h := s.Do(t, "GET", path, capA, nil); len(h.JSON["messages"].([]any)) != 0 {
			t.Fatalf("%s", h.Body)
		}
	})
	t.Run("PlainTextOfAtMost1000Characters", func(t *testing.T) {
		if r := s.Do(t, "POST", path, player, map[string]string{"text": strings.Repeat("a", 1001)}); r.Status != 400 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("SlowModeSetByStaff", func(t *testing.T) {
		sm := fmt.Sprintf("/api/rooms/%d/slow-mode", roomA)
		if r := s.Do(t, "PUT", sm, capA, map[string]int{"seconds": 60}); r.Status != 403 {
			t.Fatalf("captain: %d", r.Status)
		}
		if r := s.Do(t, "PUT", sm, admin, map[string]int{"seconds": 60}); r.Status != 200 {
			t.Fatalf("staff: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", path, capA, map[string]string{"text": "one"}); r.Status != 201 {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", path, capA, map[string]string{"text": "two"}); r.Status != 429 || !strings.Contains(r.Message(), "Slow mode") {
			t.Fatalf("second: %d %s", r.Status, r.Body)
		}
	})
	t.Run("AMessageIsReportedWithItsText", func(t *testing.T) {
		h := s.Do(t, "GET", path, player, nil)
		id := h.JSON["messages"].([]any)[0].(map[string]any)["id"]
		if r := s.Do(t, "POST", "/api/reports", player, map[string]any{"kind": "message", "id": id, "reason": "rude"}); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		q := s.Do(t, "GET", "/api/admin/reports?tournament=PPL7", admin, nil).JSON["reports"].([]any)
		if q[0].(map[string]any)["context"].(map[string]any)["text"] != "one" {
			t.Fatalf("%v", q)
		}
	})
	t.Run("AMutedPlayerIsRefusedWithTheEnd", func(t *testing.T) {
		s.Do(t, "PUT", fmt.Sprintf("/api/rooms/%d/slow-mode", roomA), admin, map[string]int{"seconds": 0})
		me := userID(t, s, player)
		sanction(t, s, admin, map[string]any{"user_id": me, "kind": "mute", "tournament": "PPL7",
			"until": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "reason": "spamming"})
		if r := s.Do(t, "POST", path, player, map[string]string{"text": "hey"}); r.Status != 403 || !strings.Contains(r.Message(), "muted until") {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}
