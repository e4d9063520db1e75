package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

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
		// An address with an account answers as a new one (its owner is
		// mailed a notice): the form tells nobody who has an account.
		{"VerifiedEmailAnswersAsANewOne", signupBody(strings.ToUpper(verified), "hunter22pw", "hunter22pw", "racer"), 201,
			"Account created! Please check your email for OTP verification."},
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
	testkit.FullPasswordCost(t) // PasswordsAreBcryptCost12 reads a stored hash
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
	var other jwt.MapClaims
	jwt.NewParser().ParseUnverified(s.SignUp(t, testkit.UniqueEmail("other"), "other_racer"), &other)
	otherSession := other["sid"]

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
		// A token signed with the right key still needs its session: none,
		// or another account's, is refused.
		{"ErrNoSession", sign(jwt.SigningMethodHS256, secret, with("sid", nil)), 401},
		{"ErrAnotherAccountsSession", sign(jwt.SigningMethodHS256, secret, with("sid", otherSession)), 401},
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
	t.Run("PasswordChangeEndsTheOtherSessions", func(t *testing.T) {
		elsewhere := s.Login(t, email, testkit.Password)
		r := s.Do(t, "POST", "/api/auth/change-password", token, map[string]string{
			"currentPassword": testkit.Password, "newPassword": "brand-new-password", "confirmPassword": "brand-new-password"})
		if r.Status != 200 {
			t.Fatalf("change: %d %q", r.Status, r.Message())
		}
		if r := s.Do(t, "GET", "/api/auth/profile", elsewhere, nil); r.Status != 401 {
			t.Fatalf("the other session: %d", r.Status)
		}
		if r2 := s.Do(t, "GET", "/api/auth/profile", r.JSON["token"].(string), nil); r2.Status != 200 || r.JSON["token"] != token {
			t.Fatalf("this session goes on with its token: %d", r2.Status)
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
