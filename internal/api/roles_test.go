package api_test

import (
	"context"
	"testing"

	"github.com/pitlane/pitlane/internal/testkit"
)

// Roles as docs/api.md ("Accounts") states them, worked out in one place: admin is
// ADMIN_EMAILS and nothing else (there is no role column to go stale),
// captain is whoever captains a team.
func TestRolesComeFromAdminEmailsAndTeams(t *testing.T) {
	admin, stale, captain := testkit.UniqueEmail("admin"), testkit.UniqueEmail("stale"), testkit.UniqueEmail("captain")
	s := newServer(t, testkit.Options{Admins: []string{admin}})
	role := func(token string) any {
		t.Helper()
		r := s.Do(t, "GET", "/api/auth/profile", token, nil)
		if r.Status != 200 {
			t.Fatalf("profile: %d", r.Status)
		}
		return r.JSON["user"].(map[string]any)["role"]
	}
	ctx := context.Background()
	adminTok, staleTok, captainTok := s.SignUp(t, admin, "the_admin"), s.SignUp(t, stale, "was_admin"), s.SignUp(t, captain, "the_captain")
	if _, err := s.DB.Pool.Exec(ctx, `
		WITH tour AS (INSERT INTO tournaments (name, scoring) VALUES ($2, '{"win": 3, "loss": 0, "kills_per_point": 50}') RETURNING id)
		INSERT INTO teams (tournament_id, letter, name, captain_user_id)
		SELECT tour.id, 'A', 'Team A', u.id FROM tour, users u WHERE u.email = $1`, captain, "ROLES-"+captain[8:16]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		who, token, want string
	}{{"listed admin", adminTok, "admin"}, {"anyone else", staleTok, "user"}, {"team captain", captainTok, "captain"}} {
		if got := role(c.token); got != c.want {
			t.Errorf("%s: role %v, want %s", c.who, got, c.want)
		}
	}
}

// The four resume cases of seed section 4, as profile shows them.
func TestProfileResumeCases(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("resume")
	r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": s.Google.Sign(t, s.Google.Claims("sub-"+email, email))})
	if r.Status != 200 {
		t.Fatalf("google login: %d %s", r.Status, r.Body)
	}
	token := r.JSON["token"].(string)
	profile := func() map[string]any {
		r := s.Do(t, "GET", "/api/auth/profile", token, nil)
		if r.Status != 200 {
			t.Fatalf("profile: %d", r.Status)
		}
		return r.JSON["user"].(map[string]any)
	}
	step := func(t *testing.T, want map[string]bool) {
		p := profile()
		for k, v := range want {
			if p[k] != v {
				t.Fatalf("%s = %v, want %v (profile %v)", k, p[k], v, p)
			}
		}
	}
	t.Run("Case1ResumeAtDiscord", func(t *testing.T) {
		step(t, map[string]bool{"email_verified": true, "discord_verified": false, "sk_stats_uploaded": false, "tournament_registered": false})
	})
	t.Run("Case2ResumeAtStats", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/auth/update-discord-username", token, map[string]string{"discordUsername": "resume_racer"}); r.Status != 200 {
			t.Fatalf("discord: %d %q", r.Status, r.Message())
		}
		// A typed name is the step's answer, but it proves nothing: it stays unverified.
		step(t, map[string]bool{"discord_verified": false, "sk_stats_uploaded": false, "tournament_registered": false})
	})
	t.Run("Case3ResumeAtRegistration", func(t *testing.T) {
		s.SaveStats(t, token)
		step(t, map[string]bool{"sk_stats_uploaded": true, "tournament_registered": false})
	})
	t.Run("Case4FullyRegistered", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("register: %d %q", r.Status, r.Message())
		}
		step(t, map[string]bool{"email_verified": true, "discord_verified": false, "sk_stats_uploaded": true, "tournament_registered": true})
	})
	t.Run("ErrBlankDiscord", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/update-discord-username", token, map[string]string{"discordUsername": "  "})
		if r.Status != 400 || r.Message() != "Please enter your Discord username" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
}
