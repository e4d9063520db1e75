package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// The stats step says how the figures were taken: read by Gemini and
// saved, read and held for the player then confirmed by their save, or
// typed.
func TestFunnelCountsHowStatsWereTaken(t *testing.T) {
	gemini := testkit.NewGemini(t, `{"userName":"Sure","level":30,"kills":900,"deaths":450,"kd":2,"skId":"31","gamesPlayed":300}`)
	organiser := testkit.UniqueEmail("organiser")
	s := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{Admins: []string{organiser}, Configure: gemini.Configure})
	admin := s.SignUp(t, organiser, "stats.organiser")
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 320, 200)), nil)

	read := s.SignUp(t, testkit.UniqueEmail("read"), "read_by_gemini")
	if r := upload(t, s, read, "stats.png", jpg.Bytes()); r.JSON["saved"] != true {
		t.Fatalf("a sure reading: %d %s, want saved", r.Status, r.Body)
	}
	confirmed := s.SignUp(t, testkit.UniqueEmail("held"), "held_then_confirmed")
	gemini.Answer(`{"userName":"Held","level":45,"kills":737,"deaths":8390,"kd":1.60,"gamesPlayed":3500}`)
	if r := upload(t, s, confirmed, "stats.png", jpg.Bytes()); r.JSON["saved"] != false {
		t.Fatalf("a doubtful reading: %d %s, want held", r.Status, r.Body)
	}
	s.SaveStats(t, confirmed) // the player's confirmation
	typed := s.SignUp(t, testkit.UniqueEmail("typed"), "typed_it")
	s.SaveStats(t, typed)

	d, _ := readDashboard(t, s, admin, "")
	if _, _, detail := d.step("stats"); detail["gemini"] != 1 || detail["confirmed"] != 1 || detail["typed"] != 1 {
		t.Fatalf("stats: %v, want 1 read by Gemini, 1 confirmed, 1 typed", detail)
	}
	// A second typed save is typed: the held reading was used up.
	s.SaveStats(t, confirmed)
	d, _ = readDashboard(t, s, admin, "")
	if _, _, detail := d.step("stats"); detail["confirmed"] != 0 || detail["typed"] != 2 {
		t.Fatalf("stats after a later save: %v, want 2 typed", detail)
	}
}

// The night's live view: the spectators every instance holds (this one
// here), the events a second, and the bids of each lot.
func TestLiveNightView(t *testing.T) {
	s, login := leagueServer(t, "auction")
	admin, capA, capB := login(demo.AdminEmail), login(demo.CaptainEmail("A")), login(demo.CaptainEmail("B"))
	for i := 0; i < 3; i++ {
		ws := testkit.DialWS(t, s.URL, "")
		ws.Subscribe(nil, "teams")
	}
	pool := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil).JSON["pool"].([]any)
	player := int(pool[0].(map[string]any)["user_id"].(float64))
	r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/lots", admin, map[string]int{"userId": player, "basePrice": 1500})
	if r.Status != 201 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	lot := int(r.JSON["lot"].(map[string]any)["id"].(float64))
	for i, c := range []string{capA, capB, capA} {
		if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", c, map[string]int{"lotId": lot, "amount": 1500 + 100*i}); r.Status != 200 {
			t.Fatalf("bid %d: %d %s", i, r.Status, r.Body)
		}
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/tournaments/PPL7/auction/lots/%d/close", lot), admin, nil); r.Status != 200 {
		t.Fatalf("close: %d %s", r.Status, r.Body)
	}
	r = s.Do(t, "GET", "/api/admin/metrics/live", admin, nil)
	if r.Status != 200 {
		t.Fatalf("live: %d %s", r.Status, r.Body)
	}
	live := r.JSON
	if live["spectators"].(float64) < 3 {
		t.Errorf("spectators: %v, want the 3 websockets open", live["spectators"])
	}
	// The demo's auction sold lots before this one: the newest comes first.
	lots := live["lots"].([]any)
	if first := lots[0].(map[string]any); first["id"] != float64(lot) || first["bids"] != 3.0 || first["status"] != "sold" {
		t.Errorf("the newest lot: %v, want lot %d sold after 3 bids", first, lot)
	}
	var mean float64
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT round(avg(n)::numeric, 1)::float8 FROM (SELECT count(b.id) AS n
		FROM auction_lots l LEFT JOIN auction_bids b ON b.lot_id = l.id WHERE l.status IN ('sold', 'unsold') GROUP BY l.id) x`).Scan(&mean); err != nil {
		t.Fatal(err)
	}
	if live["bids_per_lot"] != mean {
		t.Errorf("bids per lot: %v, want %v", live["bids_per_lot"], mean)
	}
	if live["events_per_second"].(float64) <= 0 {
		t.Errorf("events a second: %v, want the auction's", live["events_per_second"])
	}
	if r := s.Do(t, "GET", "/api/admin/metrics/live", capA, nil); r.Status != 403 {
		t.Errorf("a captain reads the live view: %d, want 403", r.Status)
	}
}

// A reminder also goes by push to the browsers of a player who chose
// reminders there, and says so.
func TestRemindersGoByPushWhenChosen(t *testing.T) {
	s, ps, login := pushLeague(t, "registration")
	admin := login(demo.AdminEmail)
	email := testkit.UniqueEmail("pushed")
	player := s.SignUp(t, email, "pushed_racer")
	browser := ps.Browser(t)
	if r := s.Do(t, "POST", "/api/me/notifications/push", player, browser); r.Status != 201 {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "PUT", "/api/me/notifications", player, choose(notify.KindReminder, true)); r.Status != 200 || !kindOn(r.JSON, notify.KindReminder) {
		t.Fatalf("choose reminders: %d %s", r.Status, r.Body)
	}
	var id int64
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT id FROM users WHERE email = $1`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	r := s.Do(t, "POST", "/api/admin/metrics/reminders", admin, map[string]any{"step": "stats", "user_ids": []int64{id}})
	sent, _ := r.JSON["sent"].([]any)
	if r.Status != 200 || len(sent) != 1 || fmt.Sprint(sent[0].(map[string]any)["channels"]) != "[push email]" {
		t.Fatalf("remind: %d %s, want it sent by push and e-mail", r.Status, r.Body)
	}
	got := ps.WaitMessages(t, 1, 20*time.Second)[0]
	if got.Endpoint != browser.Endpoint || got.Message.Kind != notify.KindReminder || !strings.Contains(got.Message.URL, "showStatsUpload") ||
		!strings.Contains(got.Message.Body, "PPL7") {
		t.Fatalf("push: %+v", got)
	}
}
