package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

func signupBody(email, pw, confirm, discord string) map[string]string {
	return map[string]string{"email": email, "password": pw, "confirmPassword": confirm, "discordUsername": discord}
}

func TestSignup(t *testing.T) {
	s := newServer(t, testkit.Options{})
	verified := testkit.UniqueEmail("verified")
	s.SignUp(t, verified, "verified_racer")

	tests := []struct {
		name    string
		body    any
		status  int
		message string
	}{
		{"Created", signupBody(testkit.UniqueEmail("new"), "hunter22pw", "hunter22pw", "racer"), 201,
			"Account created! Please check your email for OTP verification."},
		{"ErrPasswordsDoNotMatch", signupBody(testkit.UniqueEmail("a"), "hunter22pw", "hunter23pw", "racer"), 400, "Passwords do not match"},
		{"ErrFieldsRequired", signupBody(testkit.UniqueEmail("a"), "hunter22pw", "hunter22pw", ""), 400, "All fields are required"},
		{"ErrBadEmail", signupBody("not-an-email", "hunter22pw", "hunter22pw", "racer"), 400, "Please enter a valid email address"},
		{"ErrShortPassword", signupBody(testkit.UniqueEmail("a"), "short", "short", "racer"), 400, "Password must be at least 8 characters"},
		{"ErrUnknownField", `{"email":"a@b.co","password":"x","confirmPassword":"x","discordUsername":"d","admin":true}`, 400, `Unknown field "admin"`},
		{"ErrWrongType", `{"email":42}`, 400, `Field "email" must be a string`},
		{"ErrNotJSON", `{"email":`, 400, "Request body is not valid JSON"},
		{"ErrVerifiedEmailExists", signupBody(strings.ToUpper(verified), "hunter22pw", "hunter22pw", "racer"), 409,
			"An account with this email already exists. Please login."},
		{"ErrBodyTooLarge", `{"email":"` + strings.Repeat("a", 1<<20) + `"}`, 413, "Request body must be at most 1 MB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(t, "POST", "/api/auth/signup", "", tc.body)
			if r.Status != tc.status || r.Message() != tc.message {
				t.Fatalf("got %d %q, want %d %q", r.Status, r.Message(), tc.status, tc.message)
			}
		})
	}
	t.Run("ErrWrongContentType", func(t *testing.T) {
		req, _ := http.NewRequest("POST", s.URL+"/api/auth/signup", strings.NewReader("email=a"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if r := s.Send(t, req); r.Status != 415 {
			t.Fatalf("got %d, want 415", r.Status)
		}
	})
	t.Run("UnverifiedEmailGetsFreshSignup", func(t *testing.T) {
		email := testkit.UniqueEmail("again")
		body := signupBody(email, "hunter22pw", "hunter22pw", "racer")
		if r := s.Do(t, "POST", "/api/auth/signup", "", body); r.Status != 201 {
			t.Fatalf("first: %d", r.Status)
		}
		// Within the resend cooldown the first code stays valid: 201, no second mail.
		if r := s.Do(t, "POST", "/api/auth/signup", "", body); r.Status != 201 {
			t.Fatalf("second: %d %s", r.Status, r.Body)
		}
		s.MailSettled(t)
		if n := s.Mail.Count(email); n != 1 {
			t.Fatalf("%d mails, want 1", n)
		}
	})
}

func TestSignupIsAtomic(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("parallel")
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, "hunter22pw", "hunter22pw", "racer")).Status
		}()
	}
	wg.Wait()
	s.MailSettled(t)
	for i, st := range statuses {
		if st != 201 {
			t.Errorf("signup %d: status %d", i, st)
		}
	}
	var users, codes int
	s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users WHERE email = $1`, email).Scan(&users)
	s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM email_codes WHERE address_mac = $1 AND code_mac IS NOT NULL`, s.Address(email)).Scan(&codes)
	if users != 1 || codes != 1 || s.Mail.Count(email) != 1 {
		t.Fatalf("users=%d codes=%d mails=%d, want 1 each", users, codes, s.Mail.Count(email))
	}
}

func TestVerifyOTP(t *testing.T) {
	s := newServer(t, testkit.Options{})
	signup := func(t *testing.T) string {
		email := testkit.UniqueEmail("otp")
		if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, "hunter22pw", "hunter22pw", "racer")); r.Status != 201 {
			t.Fatal(r.Status)
		}
		return email
	}
	verify := func(t *testing.T, email, code string) *testkit.Resp {
		return s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code})
	}
	wrong := func(code string) string {
		if code == "000000" {
			return "000001"
		}
		return "000000"
	}

	t.Run("OK", func(t *testing.T) {
		email := signup(t)
		r := verify(t, email, s.Mail.OTP(t, email, 1))
		if r.Status != 200 || r.Message() != "Email verified successfully! You can now login." {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrCodeIsSingleUse", func(t *testing.T) {
		email := signup(t)
		code := s.Mail.OTP(t, email, 1)
		verify(t, email, code)
		if r := verify(t, email, code); r.Status != 400 {
			t.Fatalf("second use: %d %q", r.Status, r.Message())
		}
	})
	for _, bad := range []string{"12345", "1234567", "12a456", "", "١٢٣٤٥٦"} {
		t.Run("ErrNotSixDigits/"+bad, func(t *testing.T) {
			r := verify(t, "someone@example.com", bad)
			if r.Status != 400 || r.Message() != "Please enter a valid 6-digit OTP" {
				t.Fatalf("%d %q", r.Status, r.Message())
			}
		})
	}
	t.Run("ErrWrongCode", func(t *testing.T) {
		email := signup(t)
		r := verify(t, email, wrong(s.Mail.OTP(t, email, 1)))
		if r.Status != 400 || r.Message() != "Invalid or expired OTP. 4 tries left." {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrDeadAfterFiveWrongTries", func(t *testing.T) {
		email := signup(t)
		code := s.Mail.OTP(t, email, 1)
		for i := 0; i < 5; i++ {
			if r := verify(t, email, wrong(code)); r.Status != 400 {
				t.Fatalf("try %d: %d", i+1, r.Status)
			}
		}
		r := verify(t, email, code)
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("right code after 5 wrong: %d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		email := signup(t)
		code := s.Mail.OTP(t, email, 1)
		s.Age(t, email, 10*time.Minute+time.Second)
		r := verify(t, email, code)
		if r.Status != 400 || r.Message() != "Invalid or expired OTP. 4 tries left." {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("StoredHashedNotPlain", func(t *testing.T) {
		email := signup(t)
		code := s.Mail.OTP(t, email, 1)
		var stored []byte
		s.DB.Pool.QueryRow(context.Background(), `SELECT code_mac FROM email_codes WHERE address_mac = $1`, s.Address(email)).Scan(&stored)
		if len(stored) != 32 || strings.Contains(string(stored), code) {
			t.Fatalf("stored %x for code %s", stored, code)
		}
	})
}

func TestResendOTP(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("resend")
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, "hunter22pw", "hunter22pw", "racer"))
	first := s.Mail.OTP(t, email, 1)

	t.Run("ErrWithinCooldown", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("%d %q retry-after=%q", r.Status, r.Message(), r.Header.Get("Retry-After"))
		}
	})
	t.Run("OKAfterCooldown", func(t *testing.T) {
		s.Age(t, email, 61*time.Second)
		r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
		if r.Status != 200 || r.Message() != "OTP sent successfully!" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		second := s.Mail.OTP(t, email, 2)
		if first != second {
			// The old code died with the new one.
			if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": first}); r.Status != 400 {
				t.Fatalf("old code: %d", r.Status)
			}
		}
		if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": second}); r.Status != 200 {
			t.Fatalf("new code: %d %q", r.Status, r.Message())
		}
	})
	t.Run("UnknownEmailAnswersAlike", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": testkit.UniqueEmail("nobody")})
		if r.Status != 200 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("VerifiedEmailAnswersAlike", func(t *testing.T) {
		// No 409 that would tell a stranger the account exists; its owner
		// gets a notice instead of a code.
		s.Age(t, email, 61*time.Second)
		r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
		if r.Status != 200 || r.Message() != "OTP sent successfully!" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		deadline := time.Now().Add(5 * time.Second)
		for s.Mail.Count(email) < 3 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := s.Mail.Count(email); n != 3 {
			t.Fatalf("mails to the verified address: %d, want the notice as the third", n)
		}
	})
}

func TestLogin(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("login")
	s.SignUp(t, email, "login_racer")
	unverified := testkit.UniqueEmail("unverified")
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(unverified, "hunter22pw", "hunter22pw", "racer"))

	tests := []struct {
		name, email, password string
		status                int
	}{
		{"OK", email, testkit.Password, 200},
		{"OKAnyCase", strings.ToUpper(email), testkit.Password, 200},
		{"ErrWrongPassword", email, "wrong-password", 401},
		{"ErrUnknownEmail", testkit.UniqueEmail("ghost"), "whatever1", 401},
		{"ErrUnverified", unverified, "hunter22pw", 403},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": tc.email, "password": tc.password})
			if r.Status != tc.status {
				t.Fatalf("got %d %q, want %d", r.Status, r.Message(), tc.status)
			}
			if tc.status == 200 {
				user := r.JSON["user"].(map[string]any)
				if r.JSON["token"] == "" || user["email"] != email || user["email_verified"] != true {
					t.Fatalf("answer %s", r.Body)
				}
			}
		})
	}
	t.Run("PasswordsAreBcryptCost12", func(t *testing.T) {
		var hash string
		s.DB.Pool.QueryRow(context.Background(), `SELECT password_hash FROM users WHERE email = $1`, email).Scan(&hash)
		if !strings.HasPrefix(hash, "$2a$12$") {
			t.Fatalf("hash %q", hash[:7])
		}
	})
}

func TestTokens(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("tokens")
	token := s.SignUp(t, email, "token_racer")
	parts := strings.Split(token, ".")
	var claims jwt.MapClaims
	jwt.NewParser().ParseUnverified(token, &claims)
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		tok, _ := jwt.NewWithClaims(m, c).SignedString(key)
		return tok
	}
	with := func(k string, v any) jwt.MapClaims {
		c := jwt.MapClaims{}
		for kk, vv := range claims {
			c[kk] = vv
		}
		c[k] = v
		return c
	}
	secret := []byte(s.Config.JWTSecret)

	tests := []struct {
		name   string
		token  string
		status int
	}{
		{"OK", token, 200},
		{"ErrNoToken", "", 401},
		{"ErrAlgNone", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims), 401},
		{"ErrWrongKey", sign(jwt.SigningMethodHS256, []byte("another-secret-of-at-least-32-bytes!!"), claims), 401},
		{"ErrHS512", sign(jwt.SigningMethodHS512, secret, claims), 401},
		{"ErrExpired", sign(jwt.SigningMethodHS256, secret, with("exp", time.Now().Add(-time.Minute).Unix())), 401},
		{"ErrNoExpiry", sign(jwt.SigningMethodHS256, secret, with("exp", nil)), 401},
		{"ErrWrongIssuer", sign(jwt.SigningMethodHS256, secret, with("iss", "evil")), 401},
		{"ErrWrongAudience", sign(jwt.SigningMethodHS256, secret, with("aud", "other-app")), 401},
		{"ErrTamperedPayload", parts[0] + "." + strings.TrimRight(parts[1], "=") + "x." + parts[2], 401},
		{"ErrGarbage", "not.a.token", 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if r := s.Do(t, "GET", "/api/auth/profile", tc.token, nil); r.Status != tc.status {
				t.Fatalf("got %d %q, want %d", r.Status, r.Message(), tc.status)
			}
		})
	}
	t.Run("ErrWrongCurrentPasswordKeepsTheSession", func(t *testing.T) {
		// A typo in the current password is bad input (400), not a lost
		// session (401): the app must not sign the player out for it.
		r := s.Do(t, "POST", "/api/auth/change-password", token, map[string]string{
			"currentPassword": "not-my-password", "newPassword": "brand-new-password", "confirmPassword": "brand-new-password"})
		if r.Status != 400 || r.Message() != "Current password is incorrect" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		if p := s.Do(t, "GET", "/api/auth/profile", token, nil); p.Status != 200 || p.JSON["user"].(map[string]any)["has_password"] != true {
			t.Fatalf("profile: %d %s", p.Status, p.Body)
		}
	})
	t.Run("PasswordChangeEndsOlderTokens", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/change-password", token, map[string]string{
			"currentPassword": testkit.Password, "newPassword": "brand-new-password", "confirmPassword": "brand-new-password"})
		if r.Status != 200 {
			t.Fatalf("change: %d %q", r.Status, r.Message())
		}
		if r := s.Do(t, "GET", "/api/auth/profile", token, nil); r.Status != 401 {
			t.Fatalf("old token: %d", r.Status)
		}
		if r2 := s.Do(t, "GET", "/api/auth/profile", r.JSON["token"].(string), nil); r2.Status != 200 {
			t.Fatalf("new token: %d", r2.Status)
		}
	})
	t.Run("ErrGoogleAccountGetsNoPasswordByToken", func(t *testing.T) {
		email := testkit.UniqueEmail("googleonly")
		r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": s.Google.Sign(t, s.Google.Claims("sub-"+email, email))})
		if r.Status != 200 {
			t.Fatalf("google login: %d", r.Status)
		}
		r = s.Do(t, "POST", "/api/auth/change-password", r.JSON["token"].(string), map[string]string{
			"currentPassword": "", "newPassword": "attacker-pass-1", "confirmPassword": "attacker-pass-1"})
		if r.Status != 403 {
			t.Fatalf("set a first password with a token alone: %d %q, want 403", r.Status, r.Message())
		}
	})
}

func TestGoogleLogin(t *testing.T) {
	s := newServer(t, testkit.Options{})
	g := s.Google
	email := testkit.UniqueEmail("google")
	claims := g.Claims("google-sub-"+email, email)
	with := func(k string, v any) map[string]any {
		c := map[string]any{}
		for kk, vv := range claims {
			c[kk] = vv
		}
		c[k] = v
		return c
	}
	tests := []struct {
		name       string
		credential string
		status     int
		message    string
	}{
		{"OK", g.Sign(t, claims), 200, "Google login successful!"},
		{"OKShortIssuer", g.Sign(t, with("iss", "accounts.google.com")), 200, "Google login successful!"},
		{"ErrWrongAudience", g.Sign(t, with("aud", "someone-else.apps.googleusercontent.com")), 401, "Google authentication failed"},
		{"ErrWrongIssuer", g.Sign(t, with("iss", "https://evil.example.com")), 401, "Google authentication failed"},
		{"ErrUnverifiedEmail", g.Sign(t, with("email_verified", false)), 401, "Google authentication failed"},
		{"ErrExpired", g.Sign(t, with("exp", time.Now().Add(-time.Hour).Unix())), 401, "Google authentication failed"},
		{"ErrOtherKey", g.SignWithOtherKey(t, claims), 401, "Google authentication failed"},
		{"ErrNoCredential", "", 401, "Google authentication failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": tc.credential})
			if r.Status != tc.status || r.Message() != tc.message {
				t.Fatalf("got %d %q, want %d %q", r.Status, r.Message(), tc.status, tc.message)
			}
		})
	}
	t.Run("ErrBareGoogleIDIsNotTrusted", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"email": email, "googleId": "google-sub-" + email, "name": "x", "picture": ""})
		if r.Status != 401 {
			t.Fatalf("got %d", r.Status)
		}
	})
}

// Google's key set out of reach is Google's outage, not a bad token: 502,
// and sign-in works again once it is back.
func TestGoogleLoginDuringGoogleOutage(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("googledown")
	credential := s.Google.Sign(t, s.Google.Claims("sub-"+email, email))
	s.Google.Down(true)
	r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": credential})
	if r.Status != 502 || r.Message() != "Google sign-in is unavailable right now. Please try again shortly." {
		t.Fatalf("during the outage: %d %q", r.Status, r.Message())
	}
	s.Google.Down(false)
	if r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": credential}); r.Status != 200 {
		t.Fatalf("after the outage: %d %q", r.Status, r.Message())
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

func TestRateLimits(t *testing.T) {
	s := newServer(t, testkit.Options{RateLimitScale: 1})
	email := testkit.UniqueEmail("limited")
	var last *testkit.Resp
	for i := 0; i < 11; i++ {
		last = s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": "wrong-password"})
	}
	if last.Status != 429 || last.Header.Get("Retry-After") == "" {
		t.Fatalf("11th login for one e-mail: %d retry-after=%q", last.Status, last.Header.Get("Retry-After"))
	}
	// Another e-mail from the same address still gets through (until the IP limit).
	if r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": testkit.UniqueEmail("other"), "password": "wrong-password"}); r.Status != 401 {
		t.Fatalf("other e-mail: %d", r.Status)
	}
}

// A mail server in trouble costs the player nothing but the wait: the
// answer cannot tell (mails go out in the background, so that it takes as
// long for every address), the failure is logged, and the unsent code holds
// no cooldown, so the player's retry once the server is back sends a code
// at once, and the code verifies.
func TestSignupRecoversWhenMailServerReturns(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("mailfail")
	body := signupBody(email, "hunter22pw", "hunter22pw", "racer")

	s.Mail.Refuse(true)
	if r := s.Do(t, "POST", "/api/auth/signup", "", body); r.Status != 201 {
		t.Fatalf("signup with the mail server refusing: %d %q", r.Status, r.Message())
	}
	s.MailSettled(t)
	s.Mail.Refuse(false)
	if r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email}); r.Status != 200 {
		t.Fatalf("resend once the mail server is back: %d %q, want 200 (the unsent code held no cooldown)", r.Status, r.Message())
	}
	code := s.Mail.OTP(t, email, 1)
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code}); r.Status != 200 {
		t.Fatalf("verify: %d %q", r.Status, r.Message())
	}
}

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

// Nobody can slip their own password under a player: only the address's
// mailbox sees its codes, so a verification's password is the one that
// counts. While a code is live, signing up again for its address changes
// nothing; a code two sign-ups claimed verifies only with a password; and
// a code entered with another password than the pending sign-up's verifies
// the one who entered it, dropping what the pending sign-up chose.
func TestSignupCannotBeTakenOverBeforeVerification(t *testing.T) {
	s := newServer(t, testkit.Options{})
	victimPW, attackerPW := "victim-pass-1", "attacker-pass-1"
	login := func(email, pw string) int {
		return s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": pw}).Status
	}
	discordOf := func(email, pw string) any {
		tok := s.Login(t, email, pw)
		return s.Do(t, "GET", "/api/auth/profile", tok, nil).JSON["user"].(map[string]any)["discord_username"]
	}

	email := testkit.UniqueEmail("victim")
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, victimPW, victimPW, "victim")); r.Status != 201 {
		t.Fatalf("victim signup: %d", r.Status)
	}
	code := s.Mail.OTP(t, email, 1)
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, attackerPW, attackerPW, "attacker")); r.Status != 201 {
		t.Fatalf("second signup: %d %q (must look like any sign-up)", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code}); r.Status != 409 ||
		r.Message() != "Two sign-ups claim this email. Enter the code together with the password you signed up with." {
		t.Fatalf("contested code without a password: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code, "password": victimPW}); r.Status != 200 {
		t.Fatalf("victim verify: %d %q", r.Status, r.Message())
	}
	if login(email, victimPW) != 200 || login(email, attackerPW) != 401 || discordOf(email, victimPW) != "victim" {
		t.Fatalf("logins: victim %d, attacker %d", login(email, victimPW), login(email, attackerPW))
	}

	// The other order: a stranger signs up first, the owner second. The
	// code (in the owner's mailbox) verifies the owner with the owner's
	// password, and the stranger's Discord name goes.
	owner := testkit.UniqueEmail("owner")
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(owner, attackerPW, attackerPW, "stranger"))
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(owner, victimPW, victimPW, "owner"))
	ownerCode := s.Mail.OTP(t, owner, 1)
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": owner, "otp": ownerCode, "password": victimPW}); r.Status != 200 {
		t.Fatalf("the owner's verification: %d %q", r.Status, r.Message())
	}
	if login(owner, victimPW) != 200 || login(owner, attackerPW) != 401 || discordOf(owner, victimPW) != "" {
		t.Fatalf("after the owner's verification: owner %d, stranger %d, Discord %v", login(owner, victimPW), login(owner, attackerPW), discordOf(owner, victimPW))
	}

	// A sign-up whose code expired unused is abandoned: a new one takes over.
	other := testkit.UniqueEmail("abandoned")
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(other, "first-pass-1", "first-pass-1", "first"))
	s.Mail.OTP(t, other, 1)
	s.Age(t, other, 11*time.Minute)
	s.Do(t, "POST", "/api/auth/signup", "", signupBody(other, "second-pass-1", "second-pass-1", "second"))
	code = s.Mail.OTP(t, other, 2)
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": other, "otp": code}); r.Status != 200 {
		t.Fatalf("verify the new sign-up: %d %q", r.Status, r.Message())
	}
	if login(other, "second-pass-1") != 200 {
		t.Fatal("the new sign-up's password does not log in")
	}
}

// Signed-in changes are limited per user (a stolen token cannot guess the
// current password for ever), and an IPv6 client is one client per /64.
func TestRateLimitsPerUserAndPerIPv6Network(t *testing.T) {
	s := newServer(t, testkit.Options{RateLimitScale: 1, Configure: func(c *config.Config) {
		c.TrustedProxies = []string{"127.0.0.1/32", "::1/128"}
	}})
	token := s.SignUp(t, testkit.UniqueEmail("guesser"), "guesser")
	var last *testkit.Resp
	for i := 0; i < 6; i++ {
		last = s.Do(t, "POST", "/api/auth/change-password", token,
			map[string]string{"currentPassword": "guess-" + strconv.Itoa(i), "newPassword": "new-pass-123", "confirmPassword": "new-pass-123"})
	}
	if last.Status != 429 {
		t.Fatalf("6th wrong change-password: %d %q, want 429", last.Status, last.Message())
	}

	subscribe := func(from string) int {
		req, _ := http.NewRequest("POST", s.URL+"/api/newsletter", strings.NewReader(`{"email":"`+testkit.UniqueEmail("fan")+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", from)
		return s.Send(t, req).Status
	}
	for i := 1; i <= 5; i++ {
		if st := subscribe(fmt.Sprintf("2001:db8:1:2::%x", i)); st != 201 {
			t.Fatalf("subscription %d: %d", i, st)
		}
	}
	if st := subscribe("2001:db8:1:2::ffff"); st != 429 {
		t.Fatalf("6th subscription from the same /64: %d, want 429", st)
	}
	if st := subscribe("2001:db8:1:3::1"); st != 201 {
		t.Fatalf("another /64: %d, want 201", st)
	}
}

// The cooldown between codes to an address rises with the day's codes
// (accounts.Cooldown), whoever asks; requests that send no code do not
// count, and the answers say when the next code may be asked for.
func TestCodesPerAddressCooldownRises(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("daily")
	r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(email, "hunter22pw", "hunter22pw", "racer"))
	if r.Status != 201 || r.JSON["resend_after"] != float64(60) {
		t.Fatalf("signup: %d %s, want resend_after 60", r.Status, r.Body)
	}
	s.Mail.OTP(t, email, 1)
	// Within the cooldown: refused, not counted.
	for i := 0; i < 5; i++ {
		r = s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
		if wait, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.Status != 429 || wait < 55 || wait > 60 {
			t.Fatalf("resend within the cooldown: %d, Retry-After %q", r.Status, r.Header.Get("Retry-After"))
		}
	}
	var count int
	s.DB.Pool.QueryRow(context.Background(), `SELECT day_count FROM email_codes WHERE address_mac = $1`, s.Address(email)).Scan(&count)
	if count != 1 {
		t.Fatalf("codes counted after one sent and five refused: %d", count)
	}
	s.DB.Pool.Exec(context.Background(), `UPDATE email_codes SET day_count = 9, sent_at = now() - interval '2 minutes'
		WHERE address_mac = $1`, s.Address(email))
	r = s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
	if wait, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.Status != 429 || wait < 64*60-120-5 || wait > 64*60-120 {
		t.Fatalf("after nine codes: %d, Retry-After %q, want 64 minutes less the two gone", r.Status, r.Header.Get("Retry-After"))
	}
	s.DB.Pool.Exec(context.Background(), `UPDATE email_codes SET sent_at = now() - interval '65 minutes' WHERE address_mac = $1`, s.Address(email))
	r = s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
	if r.Status != 200 || r.JSON["resend_after"] != float64(7200) {
		t.Fatalf("the tenth code: %d %s, want 200 with resend_after 7200", r.Status, r.Body)
	}
}

// An address in ADMIN_EMAILS that has no verified account is reserved: no
// code is ever mailed to it (guessing one would make a stranger an
// organiser), only Google sign-in claims it. Sign-up and resend answer as
// for any address, and its owner is mailed a notice instead.
func TestAdminAddressesAreReservedForGoogle(t *testing.T) {
	admin, pending, ordinary := testkit.UniqueEmail("admin"), testkit.UniqueEmail("pending"), testkit.UniqueEmail("ordinary")
	s := newServer(t, testkit.Options{Admins: []string{admin}})
	// pending signed up before it was listed (as after a restart with a
	// longer ADMIN_EMAILS).
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(pending, "stranger-pass-1", "stranger-pass-1", "stranger")); r.Status != 201 {
		t.Fatalf("signup: %d", r.Status)
	}
	oldCode := s.Mail.OTP(t, pending, 1)
	s.App.Server.Accounts.Admins[pending] = true
	// Its code, mailed before it was listed, no longer verifies it.
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": pending, "otp": oldCode}); r.Status != 400 {
		t.Fatalf("an old code for a reserved address: %d %s", r.Status, r.Body)
	}

	answers := map[string]seen{}
	for _, e := range []string{admin, ordinary} {
		answers[e] = see(s.Do(t, "POST", "/api/auth/signup", "", signupBody(e, "stranger-pass-1", "stranger-pass-1", "stranger")))
	}
	if answers[admin] != answers[ordinary] {
		t.Fatalf("sign-up of a reserved address %+v, of another %+v", answers[admin], answers[ordinary])
	}
	s.Age(t, pending, time.Hour)
	if r := s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": pending}); r.Status != 200 {
		t.Fatalf("resend for the pending listed address: %d %s", r.Status, r.Body)
	}
	s.MailSettled(t)
	for e, n := range map[string]int{admin: 1, pending: 2} {
		if got := s.Mail.Count(e); got != n {
			t.Fatalf("%d mails to %s, want %d (the last the notice)", got, e, n)
		}
		if body := s.Mail.Last(e); strings.Contains(body, "verification code is") || !strings.Contains(body, "Google") {
			t.Fatalf("the mail to a reserved address:\n%s", body)
		}
	}
	for _, e := range []string{admin, pending} {
		r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": s.Google.Sign(t, s.Google.Claims("sub-"+e, e))})
		if r.Status != 200 || r.JSON["user"].(map[string]any)["role"] != "admin" {
			t.Fatalf("Google sign-in of a listed address: %d %s", r.Status, r.Body)
		}
	}
}
