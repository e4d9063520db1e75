package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// With ADMIN_REQUIRE_2FA an organiser's password alone signs them in as a
// player: the organiser's powers come once the session has used a second
// factor (an authenticator app's code or a recovery code), and only in that
// session.
func TestOrganiserNeedsASecondFactor(t *testing.T) {
	s, login := leagueServerWith(t, "matches", func(c *config.Config) { c.AdminRequire2FA = true })
	admin := login(demo.AdminEmail)
	security := func(tok string) map[string]any {
		t.Helper()
		p := s.Do(t, "GET", "/api/auth/profile", tok, nil)
		if p.Status != 200 {
			t.Fatalf("profile: %d", p.Status)
		}
		return p.JSON["user"].(map[string]any)["security"].(map[string]any)
	}
	organiserRead := func(tok string) int {
		return s.Do(t, "GET", "/api/admin/audit?limit=1", tok, nil).Status
	}

	if got := organiserRead(admin); got != 403 {
		t.Fatalf("organiser read with a password alone: %d, want 403", got)
	}
	if sec := security(admin); sec["organiser_locked"] != true || sec["second_factor_available"] != true {
		t.Fatalf("security: %v", sec)
	}
	t.Run("ErrPlayersCannotEnrol", func(t *testing.T) {
		player := login(demo.CaptainEmail("C"))
		if r := s.Do(t, "POST", "/api/me/2fa/totp", player, map[string]string{"password": testkit.Password}); r.Status != 403 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("ErrEnrolNeedsThePassword", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/me/2fa/totp", admin, map[string]string{"password": "wrong-password"}); r.Status != 400 {
			t.Fatalf("%d", r.Status)
		}
	})
	r := s.Do(t, "POST", "/api/me/2fa/totp", admin, map[string]string{"password": testkit.Password})
	secret, _ := r.JSON["secret"].(string)
	if r.Status != 200 || secret == "" || !strings.HasPrefix(r.JSON["qr"].(string), "data:image/png;base64,") {
		t.Fatalf("begin: %d %s", r.Status, r.Body)
	}
	code := func(at time.Time) string {
		c, err := auth.TOTPCode(secret, at)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	wrong := fmt.Sprintf("%06d", (atoi(code(time.Now()))+500_000)%1_000_000)
	if r := s.Do(t, "POST", "/api/me/2fa/totp/confirm", admin, map[string]string{"code": wrong}); r.Status != 400 {
		t.Fatalf("wrong first code: %d", r.Status)
	}
	first := code(time.Now())
	r = s.Do(t, "POST", "/api/me/2fa/totp/confirm", admin, map[string]string{"code": first})
	codes, _ := r.JSON["recovery_codes"].([]any)
	if r.Status != 200 || len(codes) != auth.RecoveryCodeCount {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	if got := organiserRead(admin); got != 200 {
		t.Fatalf("the enrolling session acts as organiser: %d", got)
	}

	t.Run("ANewSessionNeedsItAgain", func(t *testing.T) {
		other := login(demo.AdminEmail)
		if got := organiserRead(other); got != 403 {
			t.Fatalf("before: %d", got)
		}
		// The code used to enrol is spent (whether or not its step has
		// passed meanwhile): the next step's is taken.
		if r := s.Do(t, "POST", "/api/auth/2fa/verify", other, map[string]string{"code": first}); r.Status != 400 {
			t.Fatalf("a code used twice: %d", r.Status)
		}
		r := s.Do(t, "POST", "/api/auth/2fa/verify", other, map[string]string{"code": code(time.Now().Add(auth.TOTPPeriod * time.Second))})
		if r.Status != 200 || r.JSON["user"].(map[string]any)["role"] != "admin" {
			t.Fatalf("verify: %d %s", r.Status, r.Body)
		}
		if got := organiserRead(other); got != 200 {
			t.Fatalf("after: %d", got)
		}
	})
	t.Run("ARecoveryCodeWorksOnce", func(t *testing.T) {
		third, fourth := login(demo.AdminEmail), login(demo.AdminEmail)
		rc := codes[0].(string)
		if r := s.Do(t, "POST", "/api/auth/2fa/verify", third, map[string]string{"code": strings.ToUpper(rc)}); r.Status != 200 {
			t.Fatalf("recovery code: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", "/api/auth/2fa/verify", fourth, map[string]string{"code": rc}); r.Status != 400 {
			t.Fatalf("recovery code reused: %d", r.Status)
		}
	})
	t.Run("ErrTheBotCannotActAsOrganiser", func(t *testing.T) {
		a, err := s.App.Server.Accounts.FindByDiscordID(t.Context(), demo.AdminDiscordID)
		if err != nil {
			t.Skip("the demo organiser has no Discord link")
		}
		actor, err := s.App.Server.Accounts.Actor(t.Context(), a)
		if err != nil || actor.Admin {
			t.Fatalf("bot actor admin=%v (%v)", actor.Admin, err)
		}
	})
}
