package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

// totpApp is an authenticator app enrolled on an account: its code at a
// time, the recovery codes that came with it and the enrolment's answer.
type totpApp struct {
	code     func(at time.Time) string
	recovery []string
	enrolled *testkit.Resp
}

// enrolTOTP sets up an authenticator app on the account of tok, whose
// session then counts as having used it.
func enrolTOTP(t *testing.T, s *testkit.Server, tok string) totpApp {
	t.Helper()
	r := s.Do(t, "POST", "/api/me/2fa/totp", tok, map[string]string{"password": testkit.Password})
	secret, _ := r.JSON["secret"].(string)
	if r.Status != 200 || secret == "" {
		t.Fatalf("begin TOTP: %d %s", r.Status, r.Body)
	}
	app := totpApp{code: func(at time.Time) string {
		c, err := auth.TOTPCode(secret, at)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}}
	r = s.Do(t, "POST", "/api/me/2fa/totp/confirm", tok, map[string]string{"code": app.code(time.Now())})
	codes, _ := r.JSON["recovery_codes"].([]any)
	if r.Status != 200 || len(codes) == 0 {
		t.Fatalf("confirm TOTP: %d %s", r.Status, r.Body)
	}
	for _, c := range codes {
		app.recovery = append(app.recovery, c.(string))
	}
	app.enrolled = r
	return app
}

// bearerFrom sends a JSON request as the client at ip with the session of
// tok and the browser's cookies.
func bearerFrom(t *testing.T, s *testkit.Server, ip, tok, method, path string, body any, cookies ...*http.Cookie) *testkit.Resp {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(toJSON(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	req.Header.Set("Authorization", "Bearer "+tok)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	return s.Send(t, req)
}

// cookiesOf are the cookies an answer sets.
func cookiesOf(r *testkit.Resp) []*http.Cookie { return (&http.Response{Header: r.Header}).Cookies() }

// A reset's code is for an address, not for an account: once the account
// moves to another address, the code mailed to the old one confirms
// nothing (for either address), and so does every other code the old
// address got: the bot's code to link Discord too.
func TestCodesDieWhenTheAddressChanges(t *testing.T) {
	s := newServer(t, testkit.Options{})
	old, next := testkit.UniqueEmail("before"), testkit.UniqueEmail("after")
	tok := s.SignUp(t, old, "moving_racer")
	if r := s.Do(t, "POST", "/api/auth/password-reset/request", "", map[string]string{"email": old}); r.Status != 202 {
		t.Fatalf("reset request: %d %s", r.Status, r.Body)
	}
	resetCode := s.Mail.Code(t, old, 2)
	member := accounts.DiscordIdentity{ID: "80351110224678912", Username: "mover"}
	if err := s.App.Server.Accounts.RequestDiscordCode(t.Context(), member, old, nil); err != nil {
		t.Fatal(err)
	}
	discordCode := s.Mail.Code(t, old, 3)

	if r := s.Do(t, "POST", "/api/me/email", tok, map[string]string{"email": next, "password": testkit.Password}); r.Status != 202 {
		t.Fatalf("change request: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", "/api/me/email/confirm", tok, map[string]string{"code": s.Mail.Code(t, next, 1)}); r.Status != 200 {
		t.Fatalf("change confirm: %d %s", r.Status, r.Body)
	}

	for _, addr := range []string{old, next} {
		r := s.Do(t, "POST", "/api/auth/password-reset/confirm", "", map[string]string{"email": addr, "code": resetCode, "password": "taken-over-pass-1"})
		if r.Status != 400 || r.JSON["token"] != nil {
			t.Errorf("the old address's reset code given for %s: %d %s, want 400", addr, r.Status, r.Body)
		}
	}
	s.Login(t, next, testkit.Password) // the password is the owner's still
	if u, err := s.App.Server.Accounts.VerifyDiscordCode(t.Context(), member, discordCode); err == nil {
		t.Errorf("the old address's Discord code linked %q", u.DiscordUsername)
	}
}

// Once an account has a second factor, a session that has not used it
// cannot change the password, move the address or delete the account (it
// already could not remove the factor): 403 with what to do, until the
// session uses it.
func TestSecondFactorGuardsTheAccount(t *testing.T) {
	admin := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{admin}, Configure: func(c *config.Config) { c.AdminRequire2FA = true }})
	first := s.SignUp(t, admin, "organiser_dc")
	app := enrolTOTP(t, s, first)
	other := s.Login(t, admin, testkit.Password) // the password alone
	next := testkit.UniqueEmail("organiser-new")
	refused := func(t *testing.T, what string, r *testkit.Resp) {
		t.Helper()
		if r.Status != 403 || r.Message() != accounts.MsgUseSecondFactorFirst {
			t.Fatalf("%s without the second factor: %d %q, want 403 %q", what, r.Status, r.Message(), accounts.MsgUseSecondFactorFirst)
		}
	}
	changePassword := func(tok string) *testkit.Resp {
		return s.Do(t, "POST", "/api/auth/change-password", tok, map[string]string{
			"currentPassword": testkit.Password, "newPassword": "another-pass-12", "confirmPassword": "another-pass-12"})
	}

	t.Run("ErrWithThePasswordAlone", func(t *testing.T) {
		refused(t, "change-password", changePassword(other))
		refused(t, "an e-mail change", s.Do(t, "POST", "/api/me/email", other, map[string]string{"email": next, "password": testkit.Password}))
		refused(t, "deletion", s.Do(t, "DELETE", "/api/me", other, map[string]string{"password": testkit.Password}))
		// A change asked for in the session that used the factor is not
		// confirmed from one that did not.
		if r := s.Do(t, "POST", "/api/me/email", first, map[string]string{"email": next, "password": testkit.Password}); r.Status != 202 {
			t.Fatalf("change request with the factor: %d %s", r.Status, r.Body)
		}
		refused(t, "an e-mail change's confirmation", s.Do(t, "POST", "/api/me/email/confirm", other, map[string]string{"code": s.Mail.Code(t, next, 1)}))
		if l := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": admin, "password": testkit.Password}); l.Status != 200 {
			t.Fatalf("nothing changed, the address signs in: %d", l.Status)
		}
	})
	t.Run("OKOnceTheSessionUsedIt", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/auth/2fa/verify", other, map[string]string{"code": app.recovery[0]}); r.Status != 200 {
			t.Fatalf("verify: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", "/api/me/email/confirm", other, map[string]string{"code": s.Mail.Code(t, next, 1)}); r.Status != 200 {
			t.Fatalf("confirm: %d %s", r.Status, r.Body)
		}
		if r := changePassword(other); r.Status != 200 {
			t.Fatalf("change-password: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "DELETE", "/api/me", other, map[string]string{"password": "another-pass-12"}); r.Status != 200 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
	})
}

// Requests to move accounts to one address share the address's mail
// cooldown: five accounts asking at once send it one mail, whether the
// address is free (a code) or another account's (a notice).
func TestEmailChangeMailsShareTheAddressCooldown(t *testing.T) {
	s := newServer(t, testkit.Options{})
	victim := testkit.UniqueEmail("victim")
	s.SignUp(t, victim, "victim_racer")
	free := testkit.UniqueEmail("free")
	var movers []string
	for i := range 5 {
		movers = append(movers, s.SignUp(t, testkit.UniqueEmail(fmt.Sprintf("mover%d", i)), fmt.Sprintf("mover_%d", i)))
	}
	for _, to := range []string{victim, free} {
		s.MailSettled(t)
		before := s.Mail.Count(to)
		statuses := map[int]int{}
		for _, tok := range movers {
			r := s.Do(t, "POST", "/api/me/email", tok, map[string]string{"email": to, "password": testkit.Password})
			statuses[r.Status]++
			if r.Status == 429 && r.Header.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After")
			}
		}
		s.MailSettled(t)
		if got := s.Mail.Count(to) - before; got != 1 || statuses[202] != 1 || statuses[429] != 4 {
			t.Fatalf("%s: %d mails and answers %v, want one mail, one 202 and four 429", strings.SplitN(to, "-", 2)[0], got, statuses)
		}
	}
}

// Wrong second-factor codes are counted per session, per client address
// and, for browsers that never used the account's factor, per account: a
// stranger who has the password cannot lock the organiser out of their own
// browser, and still cannot guess faster than before.
func TestSecondFactorTriesDoNotLockTheOwnerOut(t *testing.T) {
	admin := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{admin}, RateLimitScale: 1, Configure: func(c *config.Config) {
		behindProxy(c)
		c.AdminRequire2FA = true
	}})
	const ownerIP, strangerIP, otherIP = "198.51.100.7", "203.0.113.66", "192.0.2.44"
	app := enrolTOTP(t, s, s.SignUp(t, admin, "organiser_dc"))
	browser := cookiesOf(app.enrolled) // the owner's browser, which used the factor
	login := func(ip string, cookies ...*http.Cookie) string {
		r := doFrom(t, s, ip, "POST", "/api/auth/login", map[string]string{"email": admin, "password": testkit.Password}, cookies...)
		if r.Status != 200 {
			t.Fatalf("login: %d %s", r.Status, r.Body)
		}
		return r.JSON["token"].(string)
	}
	wrong := fmt.Sprintf("%06d", (atoi(app.code(time.Now()))+500_000)%1_000_000)
	stranger := login(strangerIP)
	tries := 0
	for ; tries <= 10; tries++ {
		r := bearerFrom(t, s, strangerIP, stranger, "POST", "/api/auth/2fa/verify", map[string]string{"code": wrong})
		if r.Status == 429 {
			break
		}
		if r.Status != 400 {
			t.Fatalf("wrong code %d: %d %s", tries+1, r.Status, r.Body)
		}
	}
	if tries > 10 {
		t.Fatalf("the stranger's session was not stopped after %d wrong codes", tries)
	}
	t.Run("ErrAnotherStrangerSessionElsewhere", func(t *testing.T) {
		again := login(otherIP)
		if r := bearerFrom(t, s, otherIP, again, "POST", "/api/auth/2fa/verify", map[string]string{"code": wrong}); r.Status != 429 {
			t.Fatalf("a new session from another address, in a browser that never used the factor: %d, want 429", r.Status)
		}
	})
	t.Run("OwnersBrowserKeepsWorking", func(t *testing.T) {
		owner := login(ownerIP, browser...)
		r := bearerFrom(t, s, ownerIP, owner, "POST", "/api/auth/2fa/verify",
			map[string]string{"code": app.code(time.Now().Add(auth.TOTPPeriod * time.Second))}, browser...)
		if r.Status != 200 {
			t.Fatalf("the owner's right code: %d %s, want 200", r.Status, r.Body)
		}
	})
}

// An address is compared in Unicode's composed form (NFC): "jäger" typed
// with a combining diaeresis is the same account as with "ä". Characters
// that turn the direction of text are refused in an address.
func TestAddressesAreComparedComposed(t *testing.T) {
	s := newServer(t, testkit.Options{})
	tag := strings.TrimSuffix(testkit.UniqueEmail("x"), "@example.com")
	composed := "jäger-" + tag + "@example.com"
	decomposed := norm.NFD.String(composed)
	if composed == decomposed {
		t.Fatal("the test's two forms are one")
	}
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(composed, testkit.Password, testkit.Password, "jaeger")); r.Status != 201 {
		t.Fatalf("signup: %d %s", r.Status, r.Body)
	}
	if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE users SET email_verified = true WHERE email = $1`, composed); err != nil {
		t.Fatal(err)
	}
	if r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": decomposed, "password": testkit.Password}); r.Status != 200 {
		t.Fatalf("login with the decomposed form: %d %s", r.Status, r.Body)
	}
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(decomposed, "another-pass-1", "another-pass-1", "jaeger_two"))
	var n int
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE normalize(email, NFC) = $1`, composed).Scan(&n); err != nil || n != 1 {
		t.Fatalf("accounts of the address: %d (%v), want 1", n, err)
	}
	for _, bad := range []string{"ace\u202e@example.com", "\u2066ace@example.com", "a\u200fce@example.com", "ace\u061c@example.com"} {
		r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(bad, testkit.Password, testkit.Password, "racer"))
		if r.Status != 400 || r.Message() != accounts.MsgAddressInvisible {
			t.Errorf("sign-up with %+q: %d %q, want 400 %q", bad, r.Status, r.Message(), accounts.MsgAddressInvisible)
		}
	}
}

// "Sign out everywhere" turns the account's calendar feed's address off
// too: it is a key like a session's, on every device that subscribed.
func TestSignOutEverywhereRotatesTheCalendarFeed(t *testing.T) {
	s := newServer(t, testkit.Options{})
	tok := s.SignUp(t, testkit.UniqueEmail("feeder"), "feed_racer")
	feed := func() string {
		r := s.Do(t, "GET", "/api/auth/calendar", tok, nil)
		if r.Status != 200 {
			t.Fatalf("calendar link: %d %s", r.Status, r.Body)
		}
		return r.JSON["url"].(string)
	}
	before := feed()
	path := before[strings.Index(before, "/api/"):]
	if r := s.Do(t, "GET", path, "", nil); r.Status != 200 {
		t.Fatalf("the feed: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/auth/sessions/revoke", tok, map[string]bool{"others": true}); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "GET", path, "", nil); r.Status != 404 {
		t.Fatalf("the old feed after signing out everywhere: %d, want 404", r.Status)
	}
	if after := feed(); after == before {
		t.Fatal("the feed's address did not change")
	}
}

// Signing up with an address that has an account answers as a new sign-up
// does (nobody learns which addresses have accounts); the owner is mailed a
// notice to sign in or reset the password instead of a code, within the
// address's cooldown like any mail to it.
func TestSignupOverAnAccountAnswersAsANewOne(t *testing.T) {
	s := newServer(t, testkit.Options{})
	owner, fresh := testkit.UniqueEmail("owner"), testkit.UniqueEmail("fresh")
	s.SignUp(t, owner, "owner_racer")
	s.Age(t, owner, time.Hour)
	s.MailSettled(t)
	before := s.Mail.Count(owner)
	got := see(s.Do(t, "POST", "/api/auth/signup", "", signupBody(strings.ToUpper(owner), "stranger-pass-1", "stranger-pass-1", "stranger")))
	want := see(s.Do(t, "POST", "/api/auth/signup", "", signupBody(fresh, "stranger-pass-1", "stranger-pass-1", "stranger")))
	if got != want || got.Status != 201 || got.Message != accounts.MsgAccountCreated {
		t.Fatalf("sign-up over an account: %+v, a fresh sign-up: %+v", got, want)
	}
	s.MailSettled(t)
	if n := s.Mail.Count(owner) - before; n != 1 || !strings.Contains(s.Mail.Last(owner), "reset your password") ||
		strings.Contains(s.Mail.Last(owner), "verification code is") {
		t.Fatalf("the owner got %d mails, last %q; want one notice", n, s.Mail.Last(owner))
	}
	// Again within the minute: the same answer, no second notice.
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(owner, "stranger-pass-1", "stranger-pass-1", "stranger")); r.Status != 201 {
		t.Fatalf("again: %d %s", r.Status, r.Body)
	}
	s.MailSettled(t)
	if n := s.Mail.Count(owner) - before; n != 1 {
		t.Fatalf("the owner got %d notices within the cooldown", n)
	}
	if r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": owner, "password": "stranger-pass-1"}); r.Status != 401 {
		t.Fatalf("the stranger's password: %d", r.Status)
	}
	s.Login(t, owner, testkit.Password)
}
