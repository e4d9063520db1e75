package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/testkit"
)

// Every organiser action and every account security event is in the audit
// log with who, what, on what and when; organisers read it newest first,
// for one tournament or all, and it names no e-mail address.
func TestAuditLog(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{organiser}})
	adminTok := s.SignUp(t, organiser, "the_organiser")
	playerEmail := testkit.UniqueEmail("audited")
	playerTok := s.SignUp(t, playerEmail, "audited_racer")

	steps := []struct {
		method, path, token string
		body                any
		status              int
	}{
		{"POST", "/api/auth/login", "", map[string]string{"email": playerEmail, "password": "wrong-password-1"}, 401},
		{"POST", "/api/auth/update-discord-username", playerTok, map[string]string{"discordUsername": "renamed_racer"}, 200},
		{"POST", "/api/admin/tournaments/PPL7/status", adminTok, map[string]any{"status": "auction", "force": true}, 200},
		{"POST", "/api/deck", adminTok, map[string]int{"slide": 4}, 200},
		{"POST", "/api/admin/tournaments/PPL7/status", adminTok, map[string]string{"status": "registration"}, 200},
		{"POST", "/api/auth/change-password", playerTok, map[string]string{"currentPassword": testkit.Password,
			"newPassword": "another-pass-42", "confirmPassword": "another-pass-42"}, 200},
	}
	for _, st := range steps {
		if r := s.Do(t, st.method, st.path, st.token, st.body); r.Status != st.status {
			t.Fatalf("%s %s: %d %q, want %d", st.method, st.path, r.Status, r.Message(), st.status)
		}
	}

	r := s.Do(t, "GET", "/api/admin/audit?limit=50", adminTok, nil)
	if r.Status != 200 {
		t.Fatalf("audit: %d %q", r.Status, r.Message())
	}
	if strings.Contains(string(r.Body), "@") {
		t.Fatalf("the audit log shows an e-mail address: %s", r.Body)
	}
	entries := r.JSON["entries"].([]any)
	var actions []string
	for _, e := range entries {
		actions = append(actions, e.(map[string]any)["action"].(string))
	}
	want := []string{"account.password_changed", "tournament.status", "deck.move", "tournament.status",
		"account.discord_named", "account.login_failed", "account.login", "account.verified", "account.login"}
	if len(actions) < len(want) || strings.Join(actions[:len(want)], ",") != strings.Join(want, ",") {
		t.Fatalf("actions newest first:\n got %v\nwant %v...", actions, want)
	}
	status := entries[1].(map[string]any)
	actor := status["actor"].(map[string]any)
	data := status["data"].(map[string]any)
	if actor["name"] != "the_organiser (unverified)" || actor["discord_verified"] != false || actor["user_id"] == nil || status["target"] != "PPL7" ||
		data["from"] != "auction" || data["to"] != "registration" || status["at"] == "" {
		t.Fatalf("status entry: %v", status)
	}
	if failed := entries[5].(map[string]any); failed["actor"].(map[string]any)["user_id"] != nil || failed["actor"].(map[string]any)["name"] != "anonymous" ||
		!strings.Contains(failed["target"].(string), "audited_racer") {
		t.Fatalf("failed login entry: %v", failed)
	}

	t.Run("OneTournament", func(t *testing.T) {
		r := s.Do(t, "GET", fmt.Sprintf("/api/admin/audit?tournament=PPL7&actor=%d", userID(t, s, adminTok)), adminTok, nil)
		for _, e := range r.JSON["entries"].([]any) {
			if a := e.(map[string]any)["action"]; a != "tournament.status" {
				t.Fatalf("entry %v is not about PPL7", e)
			}
		}
		if n := len(r.JSON["entries"].([]any)); n != 2 {
			t.Fatalf("%d entries for PPL7, want 2", n)
		}
	})
	t.Run("Limit", func(t *testing.T) {
		if r := s.Do(t, "GET", "/api/admin/audit?limit=2", adminTok, nil); len(r.JSON["entries"].([]any)) != 2 {
			t.Fatalf("%s", r.Body)
		}
	})
	for _, bad := range []struct {
		query, token string
		status       int
	}{
		{"limit=0", adminTok, 400}, {"limit=ten", adminTok, 400}, {"limit=501", adminTok, 400},
		{"tournament=NOPE", adminTok, 404}, {"", "", 401},
	} {
		if r := s.Do(t, "GET", "/api/admin/audit?"+bad.query, bad.token, nil); r.Status != bad.status {
			t.Errorf("?%s: %d %q, want %d", bad.query, r.Status, r.Message(), bad.status)
		}
	}
}
