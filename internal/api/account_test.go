package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// A forgotten password comes back by a mailed code: the request answers
// alike for every address, the code works once, and the reset ends every
// session of the account.
func TestPasswordReset(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("forgot")
	old := s.SignUp(t, email, "forgetful_racer")
	elsewhere := s.Login(t, email, testkit.Password)
	pending := testkit.UniqueEmail("pending")
	if r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{"email": pending, "password": testkit.Password,
		"confirmPassword": testkit.Password, "discordUsername": "pending_racer"}); r.Status != 201 {
		t.Fatalf("signup: %d", r.Status)
	}

	t.Run("TheSameAnswerForEveryAddress", func(t *testing.T) {
		var answers []string
		for _, addr := range []string{email, pending, testkit.UniqueEmail("nobody")} {
			r := s.Do(t, "POST", "/api/auth/password-reset/request", "", map[string]string{"email": addr})
			if r.Status != 202 {
				t.Fatalf("%s: %d %s", addr, r.Status, r.Body)
			}
			answers = append(answers, string(r.Body))
		}
		if answers[0] != answers[1] || answers[1] != answers[2] {
			t.Fatalf("answers differ:\n%s", strings.Join(answers, "\n"))
		}
	})
	code := s.Mail.Code(t, email, 2) // the sign-up's code, then the reset's
	s.MailSettled(t)
	if n := s.Mail.Count(pending); n != 2 || !strings.Contains(s.Mail.Last(pending), "never") {
		t.Fatalf("the pending sign-up gets a notice, not a code: %d mails, last %q", n, s.Mail.Last(pending))
	}

	confirm := func(code, password string) *testkit.Resp {
		return s.Do(t, "POST", "/api/auth/password-reset/confirm", "", map[string]string{
			"email": email, "code": code, "password": password})
	}
	t.Run("ErrWrongCode", func(t *testing.T) {
		wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1_000_000)
		if r := confirm(wrong, "a-new-password-1"); r.Status != 400 || !strings.Contains(r.Message(), "4 tries left") {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("OKEndsEverySession", func(t *testing.T) {
		r := confirm(code, "a-new-password-1")
		if r.Status != 200 || r.JSON["token"] == nil {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		for name, tok := range map[string]string{"the token used before": old, "another browser's": elsewhere} {
			if p := s.Do(t, "GET", "/api/auth/profile", tok, nil); p.Status != 401 {
				t.Errorf("%s: %d, want 401", name, p.Status)
			}
		}
		if p := s.Do(t, "GET", "/api/auth/profile", r.JSON["token"].(string), nil); p.Status != 200 {
			t.Errorf("the reset's own session: %d", p.Status)
		}
		if l := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}); l.Status != 401 {
			t.Errorf("old password: %d", l.Status)
		}
		s.Login(t, email, "a-new-password-1")
	})
	t.Run("ErrCodeWorksOnce", func(t *testing.T) {
		if r := confirm(code, "yet-another-pass-2"); r.Status != 400 {
			t.Fatalf("second use: %d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrUnknownAddressLooksLikeAWrongCode", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/password-reset/confirm", "", map[string]string{
			"email": testkit.UniqueEmail("ghost"), "code": "123456", "password": "a-new-password-1"})
		if r.Status != 400 || r.Message() != "Invalid or expired OTP. 4 tries left." {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
}

func atoi(s string) int {
	n := 0
	fmt.Sscanf(s, "%d", &n)
	return n
}

// A player sees their sessions and ends them: one, every other one, or
// all; a session that ends stops its token and closes its websocket at
// once.
func TestSessions(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("sessions")
	here := s.SignUp(t, email, "session_racer")
	phone := s.Login(t, email, testkit.Password)
	laptop := s.Login(t, email, testkit.Password)

	r := s.Do(t, "GET", "/api/auth/sessions", here, nil)
	list, _ := r.JSON["sessions"].([]any)
	if r.Status != 200 || len(list) != 3 {
		t.Fatalf("sessions: %d %s", r.Status, r.Body)
	}
	current := 0
	for _, x := range list {
		if x.(map[string]any)["current"] == true {
			current++
		}
	}
	if current != 1 {
		t.Fatalf("%d sessions marked current", current)
	}
	phoneID := sessionID(t, s, phone)

	t.Run("EndOneClosesItsSocketAtOnce", func(t *testing.T) {
		ws := testkit.DialWS(t, s.URL, phone)
		ws.Subscribe(nil, "user")
		ws.Sync()
		if r := s.Do(t, "DELETE", fmt.Sprintf("/api/auth/sessions/%d", phoneID), here, nil); r.Status != 200 {
			t.Fatalf("end: %d %s", r.Status, r.Body)
		}
		ws.ExpectClose(websocket.StatusPolicyViolation, 3*time.Second)
		if p := s.Do(t, "GET", "/api/auth/profile", phone, nil); p.Status != 401 {
			t.Fatalf("ended token: %d", p.Status)
		}
	})
	t.Run("ErrAnotherAccountsSession", func(t *testing.T) {
		stranger := s.SignUp(t, testkit.UniqueEmail("stranger"), "stranger_racer")
		if r := s.Do(t, "DELETE", fmt.Sprintf("/api/auth/sessions/%d", sessionID(t, s, laptop)), stranger, nil); r.Status != 404 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("OthersKeepsThisOne", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/sessions/revoke", here, map[string]bool{"others": true})
		if r.Status != 200 || r.JSON["ended"] != float64(1) {
			t.Fatalf("revoke others: %d %s", r.Status, r.Body)
		}
		if p := s.Do(t, "GET", "/api/auth/profile", laptop, nil); p.Status != 401 {
			t.Fatalf("laptop: %d", p.Status)
		}
		if p := s.Do(t, "GET", "/api/auth/profile", here, nil); p.Status != 200 {
			t.Fatalf("here: %d", p.Status)
		}
	})
	t.Run("EverywhereEndsThisOneToo", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/auth/sessions/revoke", here, nil); r.Status != 200 {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		if p := s.Do(t, "GET", "/api/auth/profile", here, nil); p.Status != 401 {
			t.Fatalf("here: %d", p.Status)
		}
	})
}

func sessionID(t *testing.T, s *testkit.Server, token string) int64 {
	t.Helper()
	p := s.Do(t, "GET", "/api/auth/profile", token, nil)
	if p.Status != 200 {
		t.Fatalf("profile: %d", p.Status)
	}
	return int64(p.JSON["user"].(map[string]any)["security"].(map[string]any)["session_id"].(float64))
}

// A player moves the account to a new address with the code sent there;
// the old address is told, and an address another account holds never
// gets a code.
func TestEmailChange(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email, next := testkit.UniqueEmail("moving"), testkit.UniqueEmail("moved")
	token := s.SignUp(t, email, "moving_racer")

	t.Run("ErrStaleSessionNeedsThePassword", func(t *testing.T) {
		if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE sessions SET created_at = now() - interval '1 hour'
			WHERE user_id = (SELECT id FROM users WHERE email = $1)`, email); err != nil {
			t.Fatal(err)
		}
		if r := s.Do(t, "POST", "/api/me/email", token, map[string]string{"email": next}); r.Status != 400 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	if r := s.Do(t, "POST", "/api/me/email", token, map[string]string{"email": next, "password": testkit.Password}); r.Status != 202 {
		t.Fatalf("request: %d %s", r.Status, r.Body)
	}
	code := s.Mail.Code(t, next, 1)
	if r := s.Do(t, "POST", "/api/me/email/confirm", token, map[string]string{"code": fmt.Sprintf("%06d", (atoi(code)+7)%1_000_000)}); r.Status != 400 {
		t.Fatalf("wrong code: %d", r.Status)
	}
	r := s.Do(t, "POST", "/api/me/email/confirm", token, map[string]string{"code": code})
	if r.Status != 200 || r.JSON["user"].(map[string]any)["email"] != next {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	s.MailSettled(t)
	if !strings.Contains(s.Mail.Last(email), "now uses another address") {
		t.Fatalf("the old address is not told: %q", s.Mail.Last(email))
	}
	s.Login(t, next, testkit.Password)
	if l := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}); l.Status != 401 {
		t.Fatalf("old address still signs in: %d", l.Status)
	}

	t.Run("TakenAddressGetsANoticeNotACode", func(t *testing.T) {
		other := testkit.UniqueEmail("holder")
		s.SignUp(t, other, "holder_racer")
		before := s.Mail.Count(other)
		fresh := s.Login(t, next, testkit.Password)
		if r := s.Do(t, "POST", "/api/me/email", fresh, map[string]string{"email": other}); r.Status != 202 {
			t.Fatalf("request: %d %s", r.Status, r.Body)
		}
		s.MailSettled(t)
		if s.Mail.Count(other) != before+1 || strings.Contains(s.Mail.Last(other), "code") {
			t.Fatalf("the holder should get a notice: %q", s.Mail.Last(other))
		}
	})
}

// Deleting an account erases what is personal at once and keeps the
// league's records whole under a pseudonym: the bracket and the standings
// read as before.
func TestDeleteAccountKeepsTheLeagueWhole(t *testing.T) {
	s, login := leagueServerOf(t, "completed", demo.Options{Players: 60, Captains: true, Password: testkit.Password, PlayersSignIn: true}, nil)
	ctx := context.Background()
	var (
		victim int64
		email  string
		name   string
	)
	// A player of a finished season who scored.
	if err := s.DB.Pool.QueryRow(ctx, `SELECT u.id, u.email, coalesce(nullif(st.player_name, ''), u.discord_username)
		FROM match_lines l JOIN users u ON u.id = l.user_id LEFT JOIN stats st ON st.user_id = u.id
		WHERE NOT EXISTS (SELECT 1 FROM teams WHERE captain_user_id = u.id) ORDER BY l.kills DESC LIMIT 1`).Scan(&victim, &email, &name); err != nil {
		t.Fatal(err)
	}
	token := login(email)
	before := map[string]string{}
	reads := []string{"/api/tournaments/PPL7/bracket", "/api/tournaments/PPL7/standings", "/api/tournaments/PPL7/red-cap"}
	for _, p := range reads {
		before[p] = string(s.Do(t, "GET", p, "", nil).Body)
	}

	if r := s.Do(t, "DELETE", "/api/me", token, map[string]string{"password": "not-it"}); r.Status != 400 {
		t.Fatalf("wrong password: %d", r.Status)
	}
	exp := s.Do(t, "GET", "/api/me/export", token, nil)
	if exp.Status != 200 || !strings.Contains(string(exp.Body), email) || !strings.Contains(string(exp.Body), `"match_lines"`) ||
		!strings.Contains(string(exp.Body), `"stats_history"`) {
		t.Fatalf("export: %d %.300s", exp.Status, exp.Body)
	}
	if r := s.Do(t, "DELETE", "/api/me", token, map[string]string{"password": testkit.Password}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if p := s.Do(t, "GET", "/api/auth/profile", token, nil); p.Status != 401 {
		t.Fatalf("token after deletion: %d", p.Status)
	}
	if l := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}); l.Status != 401 {
		t.Fatalf("login after deletion: %d", l.Status)
	}
	regs := string(s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil).Body)
	if strings.Contains(regs, name) || !strings.Contains(regs, fmt.Sprintf("Deleted player %d", victim)) {
		t.Fatalf("registrations still name %q, or lack the pseudonym", name)
	}
	for _, p := range reads {
		after := string(s.Do(t, "GET", p, "", nil).Body)
		if strings.Contains(after, name) {
			t.Errorf("%s still names %q", p, name)
		}
		if normalise(after, name, victim) != normalise(before[p], name, victim) {
			t.Errorf("%s changed beyond the name:\nbefore %.400s\nafter  %.400s", p, before[p], after)
		}
	}
	var left int
	if err := s.DB.Pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM users WHERE id = $1 AND (email IS NOT NULL OR password_hash IS NOT NULL OR discord_id IS NOT NULL))
		+ (SELECT count(*) FROM stats WHERE user_id = $1 AND (player_name <> '' OR sk_id <> '' OR cart_image_id IS NOT NULL))
		+ (SELECT count(*) FROM sessions WHERE user_id = $1)
		+ (SELECT count(*) FROM audit_log WHERE target = $2 OR actor_name = $2)`, victim, name).Scan(&left); err != nil || left != 0 {
		t.Fatalf("personal data left: %d rows (%v)", left, err)
	}
	if r := s.Do(t, "POST", "/api/auth/password-reset/request", "", map[string]string{"email": email}); r.Status != 202 {
		t.Fatalf("reset of a deleted address: %d", r.Status)
	}
}

// normalise puts the pseudonym where the name stood, so two reads of a
// page compare equal when nothing but the name changed.
func normalise(body, name string, id int64) string {
	var v any
	if json.Unmarshal([]byte(body), &v) == nil {
		b, _ := json.Marshal(v)
		body = string(b)
	}
	return strings.ReplaceAll(strings.ReplaceAll(body, name, "X"), fmt.Sprintf("Deleted player %d", id), "X")
}

// A captain of a season still running cannot leave it without a captain.
func TestDeleteRefusedToARunningSeasonsCaptain(t *testing.T) {
	s, login := leagueServer(t, "matches")
	tok := login(demo.CaptainEmail("B"))
	r := s.Do(t, "DELETE", "/api/me", tok, map[string]string{"password": testkit.Password})
	if r.Status != 409 || !strings.Contains(r.Message(), "team B of PPL7") {
		t.Fatalf("%d %q", r.Status, r.Message())
	}
	if p := s.Do(t, "GET", "/api/auth/profile", tok, nil); p.Status != 200 {
		t.Fatalf("the refused deletion ended the session: %d", p.Status)
	}
}

// A player of a season still registering leaves its list when the account
// goes (the first waiting player takes the place).
func TestDeleteLeavesAnOpenSeason(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("leaver")
	tok := s.SignUp(t, email, "leaving_racer")
	s.SaveStats(t, tok)
	if r := s.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "DELETE", "/api/me", tok, map[string]string{"password": testkit.Password}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	regs := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil)
	if strings.Contains(string(regs.Body), "leaving_racer") || strings.Contains(string(regs.Body), "Deleted player") {
		t.Fatalf("still listed: %s", regs.Body)
	}
}
