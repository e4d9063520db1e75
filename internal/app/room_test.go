package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/room"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Each season's captains room is heard live by that season's captains and
// the organisers only: a captain of another season is refused its topic,
// and hears nothing of it on their own season's room.
func TestCaptainsRoomIsHeardOnlyByItsSeason(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Fresh(t)
	organiserEmail := testkit.UniqueEmail("organiser")
	s := testkit.NewServer(t, db, testkit.Options{Admins: []string{organiserEmail}})
	emails := map[string]string{"ppl7": testkit.UniqueEmail("cap7"), "ppl8": testkit.UniqueEmail("cap8"), "organiser": organiserEmail}
	tokens := map[string]string{}
	for who, email := range emails {
		tokens[who] = s.SignUp(t, email, "racer_"+who)
	}
	if _, err := s.App.Server.Tournaments.Create(ctx, core.System, tournament.NewTournament{Name: "PPL8", Season: 8}); err != nil {
		t.Fatal(err)
	}
	for who, name := range map[string]string{"ppl7": "PPL7", "ppl8": "PPL8"} {
		if _, err := db.Pool.Exec(ctx, `UPDATE teams SET captain_user_id = (SELECT id FROM users WHERE email = $1)
			WHERE letter = 'A' AND tournament_id = (SELECT id FROM tournaments WHERE name = $2)`, emails[who], name); err != nil {
			t.Fatal(err)
		}
	}
	room7, room8 := core.CaptainsTopic("PPL7"), core.CaptainsTopic("PPL8")
	ws := map[string]*testkit.WS{}
	for who, token := range tokens {
		ws[who] = testkit.DialWS(t, s.URL, token)
	}
	ws["ppl7"].Subscribe(nil, room7)
	ws["organiser"].Subscribe(nil, room7, room8)
	ws["ppl8"].Subscribe(nil, room7, "captains")
	if got := ws["ppl8"].Sync(); len(got) != 2 || got[0].Type != "error" || got[1].Type != "error" {
		t.Fatalf("a captain of PPL8 asking for PPL7's room and the plain room: %+v", got)
	}
	ws["ppl8"].Subscribe(nil, room8)
	for _, who := range []string{"ppl7", "organiser", "ppl8"} {
		if got := ws[who].Sync(); len(got) != 0 {
			t.Fatalf("%s subscribing to their rooms: %+v", who, got)
		}
	}

	if r := s.Do(t, "POST", "/api/tournaments/PPL7/captains/messages", tokens["ppl7"], map[string]string{"text": "bids on tier 1 only"}); r.Status != 201 {
		t.Fatalf("post: %d %s", r.Status, r.Message())
	}
	for _, who := range []string{"ppl7", "organiser"} {
		f := ws[who].WaitEvent(room7, "room.message", 5*time.Second)
		if msg, _ := f.Data["message"].(map[string]any); msg["text"] != "bids on tier 1 only" {
			t.Fatalf("%s heard %+v", who, f.Data)
		}
	}
	if got := ws["ppl8"].Sync(); len(got) != 0 {
		t.Fatalf("a captain of PPL8 heard PPL7's room: %+v", got)
	}
	if r := s.Do(t, "GET", "/api/tournaments/PPL7/captains/messages", tokens["ppl8"], nil); r.Status != 403 {
		t.Fatalf("a captain of PPL8 read PPL7's room: %d", r.Status)
	}
}

// The room paces each member at room.Burst messages per room.Window,
// counted for every instance alike, and says so; a captain who used up the
// room's pace can still bid and act on their matches (buckets of their own).
func TestTheRoomPacesItsMembers(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Fresh(t)
	s := testkit.NewServer(t, db, testkit.Options{RateLimitScale: 1})
	email := testkit.UniqueEmail("talker")
	token := s.SignUp(t, email, "talker_1")
	if _, err := db.Pool.Exec(ctx, `UPDATE teams SET captain_user_id = (SELECT id FROM users WHERE email = $1)
		WHERE letter = 'A' AND tournament_id = (SELECT id FROM tournaments WHERE name = 'PPL7')`, email); err != nil {
		t.Fatal(err)
	}
	for i := range room.Burst {
		if r := s.Do(t, "POST", "/api/tournaments/PPL7/captains/messages", token, map[string]string{"text": fmt.Sprint("line ", i)}); r.Status != 201 {
			t.Fatalf("message %d: %d %s", i, r.Status, r.Message())
		}
	}
	r := s.Do(t, "POST", "/api/tournaments/PPL7/captains/messages", token, map[string]string{"text": "one too many"})
	if r.Status != 429 || !strings.HasPrefix(r.Message(), "Slow down") || r.Header.Get("Retry-After") == "" {
		t.Fatalf("message %d: %d %q (Retry-After %q)", room.Burst+1, r.Status, r.Message(), r.Header.Get("Retry-After"))
	}
	// The bid's own bucket: refused for the phase (409), not for the pace.
	if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", token, map[string]int{"lotId": 1, "amount": 1100}); r.Status == 429 {
		t.Fatalf("a bid after the room's pace was used up: %d %s", r.Status, r.Message())
	}
}
