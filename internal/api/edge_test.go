package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// A control character (a NUL above all, which PostgreSQL cannot store) or
// bytes that are not UTF-8 never reach the database: a name in the path is
// unknown (404), a query parameter or a JSON string with one is invalid
// (400), whoever asks. Free text keeps its tabs and newlines.
func TestControlCharactersAreRefusedAtTheEdge(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	player := s.SignUp(t, testkit.UniqueEmail("nul"), "nul_racer")
	s.SaveStats(t, player)

	// A match the away side reported, for its home side to dispute; a
	// substitute asked for, for an organiser to refuse.
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	m := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil).JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	home, away := m["team1"].(map[string]any)["id"].(string), m["team2"].(map[string]any)["id"].(string)
	match := int(m["id"].(float64))
	homeTok := login(demo.CaptainEmail(home))
	report(t, s, match, away, login(demo.CaptainEmail(away)), home)
	bench := s.Do(t, "GET", "/api/tournaments/PPL7/substitutes", "", nil).JSON["pool"].([]any)
	ask := s.Do(t, "POST", "/api/tournaments/PPL7/substitutes", capA, map[string]any{"userId": bench[0].(map[string]any)["user_id"]})
	if ask.Status != 201 {
		t.Fatalf("ask a substitute: %d %q", ask.Status, ask.Message())
	}
	request := int(ask.JSON["request"].(map[string]any)["id"].(float64))

	dispute := fmt.Sprintf("/api/matches/%d/dispute", match)
	refuse := fmt.Sprintf("/api/admin/tournaments/PPL7/substitutes/%d/refuse", request)
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		want                      int
	}{
		{"TournamentInPath", "GET", "/api/tournaments/ab%00cd", "", nil, 404},
		{"TeamInPath", "GET", "/api/tournaments/PPL7/teams/A%00/calendar", capA, nil, 404},
		{"NotUTF8InPath", "GET", "/api/tournaments/ab%FFcd", "", nil, 404},
		{"RegistrationsQuery", "GET", "/api/tournament/registrations?tournamentName=ab%00cd", "", nil, 400},
		{"NotUTF8InQuery", "GET", "/api/tournament/registrations?tournamentName=ab%FFcd", "", nil, 400},
		{"AuditQuery", "GET", "/api/admin/audit?tournament=ab%00cd", admin, nil, 400},
		{"AuditActionQuery", "GET", "/api/admin/audit?action=x%07y", admin, nil, 400},
		{"RegisterBody", "POST", "/api/tournament/register", player, `{"tournamentName":"ab\u0000cd"}`, 400},
		{"UnsubscribeBody", "DELETE", "/api/me/notifications/push", player, `{"endpoint":"https://fcm.googleapis.com/x\u0000"}`, 400},
		{"DisputeReason", "POST", dispute, homeTok, `{"reason":"wrong\u0000 winner"}`, 400},
		{"DisputeReasonBell", "POST", dispute, homeTok, `{"reason":"wrong\u0007 winner"}`, 400},
		{"RefusalReason", "POST", refuse, admin, `{"reason":"too \u0000late"}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.Do(t, c.method, c.path, c.token, c.body)
			if r.Status != c.want || r.Message() == "" || strings.Contains(r.Message(), "Internal") {
				t.Fatalf("%d %q, want %d with a message", r.Status, r.Message(), c.want)
			}
		})
	}
	t.Run("ReasonsKeepTabsAndNewlines", func(t *testing.T) {
		r := s.Do(t, "POST", dispute, homeTok, `{"reason":"wrong winner:\n\tsee the\r\nscreenshot"}`)
		if r.Status != http.StatusOK || r.JSON["match"].(map[string]any)["dispute_reason"] != "wrong winner:\n\tsee the\r\nscreenshot" {
			t.Fatalf("dispute: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", refuse, admin, `{"reason":"too late,\n\tsorry"}`); r.Status != http.StatusOK {
			t.Fatalf("refuse: %d %s", r.Status, r.Body)
		}
	})
}

// A message that quotes what the caller sent quotes at most 64 characters
// of it, and a time that does not parse is explained without Go's layout.
func TestErrorsEchoLittleOfTheInput(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{organiser}})
	tok, admin := s.SignUp(t, testkit.UniqueEmail("echo"), "echo_racer"), s.SignUp(t, organiser, "echo_organiser")
	long := strings.Repeat("a", 10_000)
	for _, c := range []struct {
		name, method, path string
		admin              bool
		body               any
		want               int
	}{
		{"TournamentName", "GET", "/api/tournaments/" + long, false, nil, 404},
		{"TournamentNameInQuery", "GET", "/api/tournament/registrations?tournamentName=" + long, false, nil, 404},
		{"TeamLetter", "PUT", "/api/admin/tournaments/PPL7/teams/" + long + "/captain", true, map[string]any{"userId": 1}, 404},
		{"NotificationKind", "PUT", "/api/me/notifications", false, map[string]any{"kinds": []map[string]any{{"kind": long, "push": true}}}, 400},
		{"UnknownField", "PUT", "/api/me/notifications", false, `{"` + long + `": 1}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			token := tok
			if c.admin {
				token = admin
			}
			r := s.Do(t, c.method, c.path, token, c.body)
			if r.Status != c.want || len(r.Message()) > 200 || !strings.Contains(r.Message(), strings.Repeat("a", 64)+"…") {
				t.Fatalf("%d, want %d; message of %d bytes: %.300q", r.Status, c.want, len(r.Message()), r.Message())
			}
		})
	}
	for _, body := range []string{`{"at":"x"}`, `{"at":"2026-11-28T20:00:00"}`, `{"at":"2026-13-28T20:00:00Z"}`, `{"at":5}`} {
		r := s.Do(t, "POST", "/api/matches/1/time", tok, body)
		if r.Status != 400 || strings.Contains(r.Message(), "2006") || !strings.Contains(r.Message(), `"at" must be a time like 2026-11-28T20:00:00Z`) {
			t.Errorf("%s: %d %q", body, r.Status, r.Message())
		}
	}
	r := s.Do(t, "POST", "/api/matches/1/proposal", tok, `{"times":["2026-11-28T20:00:00Z","soon"]}`)
	if r.Status != 400 || !strings.Contains(r.Message(), `"times" must be times like 2026-11-28T20:00:00Z`) {
		t.Errorf("proposal: %d %q", r.Status, r.Message())
	}
}
