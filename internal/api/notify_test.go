package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/testkit"
)

// pushLeague is the demo league at phase, served with VAPID keys and
// allowed to post to the fake push service.
func pushLeague(t *testing.T, phase string) (*testkit.Server, *testkit.PushService, func(string) string) {
	t.Helper()
	ps := testkit.NewPushService(t)
	s, login := leagueServerWith(t, phase, func(c *config.Config) {
		c.VAPIDPublicKey, c.VAPIDPrivateKey, c.VAPIDSubject = ps.VAPIDPublic, ps.VAPIDPrivate, "mailto:league@example.com"
		c.PushEndpointHosts = []string{ps.Host()}
	})
	return s, ps, login
}

func choose(kind string, push bool) map[string]any {
	return map[string]any{"kinds": []map[string]any{{"kind": kind, "push": push}}}
}

func kindOn(settings map[string]any, kind string) bool {
	for _, k := range settings["kinds"].([]any) {
		if c := k.(map[string]any); c["kind"] == kind {
			return c["push"] == true
		}
	}
	return false
}

// A player's notification settings are theirs alone: anonymous callers are
// refused, one player's choice changes nobody else's, and push needs keys
// on the server and a known push service.
func TestNotificationSettingsAreYourOwn(t *testing.T) {
	s := newServer(t, testkit.Options{})
	if r := s.Do(t, "GET", "/api/me/notifications", "", nil); r.Status != 401 {
		t.Fatalf("anonymous: %d", r.Status)
	}
	a, b := s.SignUp(t, testkit.UniqueEmail("a"), "racer_a"), s.SignUp(t, testkit.UniqueEmail("b"), "racer_b")
	r := s.Do(t, "PUT", "/api/me/notifications", a, choose(notify.KindOutbid, true))
	if r.Status != 200 || !kindOn(r.JSON, notify.KindOutbid) {
		t.Fatalf("choose: %d %s", r.Status, r.Body)
	}
	if r.JSON["push"].(map[string]any)["available"] != false {
		t.Fatalf("push is available without VAPID keys: %s", r.Body)
	}
	if got := s.Do(t, "GET", "/api/me/notifications", b, nil); got.Status != 200 || kindOn(got.JSON, notify.KindOutbid) {
		t.Fatalf("another player's settings changed: %s", got.Body)
	}
	if r := s.Do(t, "PUT", "/api/me/notifications", a, choose("everything", true)); r.Status != 400 {
		t.Errorf("unknown kind: %d", r.Status)
	}
	sub := map[string]any{"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": map[string]string{"p256dh": "x", "auth": "y"}}
	if r := s.Do(t, "POST", "/api/me/notifications/push", a, sub); r.Status != 409 {
		t.Errorf("subscribe with push off: %d %q, want 409", r.Status, r.Message())
	}
}

// On the demo league, the home captain who turned "report waiting" on gets
// a push, once, when the away captain reports: the real sender posts to a
// push service that checks its VAPID JWT and decrypts it; the push service
// failing first has the job retried; the message's link turns the kind off
// without signing in; a subscription the push service forgot is dropped.
func TestPushWhenTheOpponentReports(t *testing.T) {
	s, ps, login := pushLeague(t, "matches")
	admin := login(demo.AdminEmail)
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	m := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil).JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	home, away := m["team1"].(map[string]any)["id"].(string), m["team2"].(map[string]any)["id"].(string)
	id := int(m["id"].(float64))
	homeTok, awayTok := login(demo.CaptainEmail(home)), login(demo.CaptainEmail(away))

	browser := ps.Browser(t)
	if r := s.Do(t, "POST", "/api/me/notifications/push", homeTok, map[string]any{"endpoint": "http://" + ps.Host() + ".evil/x",
		"keys": browser.Keys}); r.Status != 422 {
		t.Errorf("an endpoint on no allowed push service: %d %q, want 422", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", "/api/me/notifications/push", homeTok, browser); r.Status != 201 {
		t.Fatalf("subscribe: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "PUT", "/api/me/notifications", homeTok, choose(notify.KindReportWaiting, true)); r.Status != 200 ||
		r.JSON["push"].(map[string]any)["devices"] != 1.0 || r.JSON["push"].(map[string]any)["public_key"] != ps.VAPIDPublic {
		t.Fatalf("choose: %d %s", r.Status, r.Body)
	}

	ps.Fail(1) // the first try fails: river tries again
	report(t, s, id, away, awayTok, home)
	got := ps.WaitMessages(t, 1, 20*time.Second)[0]
	if got.Endpoint != browser.Endpoint || got.Subject != "mailto:league@example.com" ||
		!strings.Contains(got.Message.Title, fmt.Sprintf("Match %d", id)) || got.Message.Kind != notify.KindReportWaiting ||
		!strings.HasSuffix(got.Message.URL, fmt.Sprintf("/matches/%d", id)) {
		t.Fatalf("message %+v", got)
	}

	// Once: the event read again writes nothing new.
	var topic string
	var seq int64
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT topic, seq FROM outbox WHERE event = 'match.updated'
		AND data->'match'->>'status' = 'reported' ORDER BY id DESC LIMIT 1`).Scan(&topic, &seq); err != nil {
		t.Fatal(err)
	}
	if err := s.App.Server.Notify.FanoutDue(context.Background(), notify.Fanout{Topic: topic, Seq: seq}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if n := len(ps.Messages()); n != 1 {
		t.Fatalf("%d messages after the event was read again, want 1", n)
	}

	// The unsubscribe link turns the kind off, signed in or not; a forged one does nothing.
	u, err := url.Parse(got.Message.Unsubscribe)
	if err != nil || u.Path != "/notifications/off" {
		t.Fatalf("unsubscribe link %q", got.Message.Unsubscribe)
	}
	token := u.Query().Get("token")
	forged := strings.Replace(token, ".report_waiting.", ".outbid.", 1)
	if r := s.Do(t, "POST", "/api/notifications/off", "", map[string]string{"token": forged}); r.Status != 400 {
		t.Errorf("forged token: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/notifications/off", "", map[string]string{"token": token}); r.Status != 200 {
		t.Fatalf("off: %d %s", r.Status, r.Body)
	}
	if kindOn(s.Do(t, "GET", "/api/me/notifications", homeTok, nil).JSON, notify.KindReportWaiting) {
		t.Fatal("the kind is still on after its unsubscribe link")
	}

	// A subscription the push service no longer knows is dropped at the next message.
	if r := s.Do(t, "PUT", "/api/me/notifications", homeTok, choose(notify.KindDisputeRuled, true)); r.Status != 200 {
		t.Fatal(r.Status)
	}
	ps.Forget(browser.Endpoint)
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/dispute", id), homeTok, map[string]string{"reason": "wrong winner"}); r.Status != 200 {
		t.Fatalf("dispute: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/admin/matches/%d/resolve", id), admin, map[string]string{"winner": home}); r.Status != 200 {
		t.Fatalf("resolve: %d %q", r.Status, r.Message())
	}
	deadline := time.Now().Add(15 * time.Second)
	for s.Do(t, "GET", "/api/me/notifications", homeTok, nil).JSON["push"].(map[string]any)["devices"] != 0.0 {
		if time.Now().After(deadline) {
			t.Fatal("the forgotten subscription is still kept")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// uploadProof uploads an end-of-match screenshot (a real PNG) for match id
// and answers its id.
func uploadProof(t *testing.T, s *testkit.Server, id int, token string) any {
	t.Helper()
	var shot bytes.Buffer
	png.Encode(&shot, image.NewRGBA(image.Rect(0, 0, 200, 120)))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("screenshot", "end.png")
	fw.Write(shot.Bytes())
	mw.Close()
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/matches/%d/proof", s.URL, id), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	proof := s.Send(t, req)
	if proof.Status != 201 {
		t.Fatalf("proof: %d %s", proof.Status, proof.Body)
	}
	return proof.JSON["screenshotId"]
}

// report has side report the match with a proof, naming two players a side.
func report(t *testing.T, s *testkit.Server, id int, side, token, other string) {
	t.Helper()
	screenshot := uploadProof(t, s, id, token)
	match := s.Do(t, "GET", fmt.Sprintf("/api/matches/%d", id), "", nil).JSON["match"].(map[string]any)
	var players []map[string]int
	place := 1
	for _, letter := range []string{side, other} {
		for _, p := range match["members"].(map[string]any)[letter].([]any)[:2] {
			players = append(players, map[string]int{"userId": int(p.(map[string]any)["user_id"].(float64)), "kills": 10, "deaths": 3, "placement": place})
			place++
		}
	}
	r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/report", id), token,
		map[string]any{"winner": side, "players": players, "screenshotId": screenshot})
	if r.Status != 200 {
		t.Fatalf("report: %d %q", r.Status, r.Message())
	}
}
