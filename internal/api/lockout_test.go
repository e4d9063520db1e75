package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

// doFrom sends a JSON request as the client at ip (the test server trusts
// loopback's X-Forwarded-For).
func doFrom(t *testing.T, s *testkit.Server, ip, method, path string, body any, cookies ...*http.Cookie) *testkit.Resp {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(toJSON(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	return s.Send(t, req)
}

func behindProxy(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1/32", "::1/128"} }

// hoursPass makes h hours pass for the codes of email within its day: the
// cooldown and the code run out, the day's count stays.
func hoursPass(t *testing.T, s *testkit.Server, email string, h int) {
	t.Helper()
	if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE email_codes SET sent_at = sent_at - make_interval(hours => $2),
		expires_at = expires_at - make_interval(hours => $2) WHERE address_mac = $1`, s.Address(email), h); err != nil {
		t.Fatal(err)
	}
}

// A stranger who signs up with someone's address and asks for code after
// code cannot keep its owner from signing up: there is no daily stop after
// which no code comes, only a cooldown that rises with the codes of the day
// (so mail-bombing stays bounded) and never exceeds two hours; any code the
// address receives verifies the owner's own sign-up with the owner's own
// password; and the per-address request limits count per client.
func TestStrangerCannotLockTheOwnerOutOfSignup(t *testing.T) {
	s := newServer(t, testkit.Options{Configure: behindProxy})
	const stranger, owner = "203.0.113.66", "198.51.100.7"
	ownerPW := "owner-pass-123"
	signup := func(ip, email, pw, discord string) *testkit.Resp {
		return doFrom(t, s, ip, "POST", "/api/auth/signup", signupBody(email, pw, pw, discord))
	}
	// flood is the stranger's attack: sign up with email, then a resend
	// whenever the cooldown allows, a day's worth of codes. Each code's
	// mail is let arrive before the next is asked for: the server's mail
	// workers send side by side, and two codes in flight together could
	// reach the mailbox in either order, its last then not the live one.
	flood := func(email string) {
		if r := signup(stranger, email, "stranger-pass-1", "stranger_dc"); r.Status != 201 {
			t.Fatalf("stranger's sign-up: %d %s", r.Status, r.Body)
		}
		for range 12 {
			s.MailSettled(t)
			hoursPass(t, s, email, 3)
			doFrom(t, s, stranger, "POST", "/api/auth/resend-otp", map[string]string{"email": email})
		}
		s.MailSettled(t)
	}

	t.Run("OwnerGetsACodeAfterTheStrangerStops", func(t *testing.T) {
		email := testkit.UniqueEmail("quiet")
		flood(email)
		hoursPass(t, s, email, 3) // the stranger's last code has run out
		before := s.Mail.Count(email)
		r := signup(owner, email, ownerPW, "owner_dc")
		if r.Status != 201 {
			t.Fatalf("owner's sign-up: %d %s", r.Status, r.Body)
		}
		code := s.Mail.OTP(t, email, before+1) // fails if no code comes
		if r := doFrom(t, s, owner, "POST", "/api/auth/verify-otp", map[string]string{"email": email, "otp": code, "password": ownerPW}); r.Status != 200 {
			t.Fatalf("owner's verification: %d %s", r.Status, r.Body)
		}
		if s.Login(t, email, ownerPW) == "" {
			t.Fatal("no token")
		}
	})

	t.Run("OwnerVerifiesWithAnyCodeTheAddressGot", func(t *testing.T) {
		// The stranger's code is live when the owner signs up: it is in the
		// owner's mailbox, and with the owner's password it verifies the
		// owner, dropping what the stranger chose.
		email := testkit.UniqueEmail("racing")
		flood(email)
		if r := signup(owner, email, ownerPW, "owner_dc"); r.Status != 201 {
			t.Fatalf("owner's sign-up: %d %s", r.Status, r.Body)
		}
		s.MailSettled(t)
		code := s.Mail.OTP(t, email, s.Mail.Count(email))
		r := doFrom(t, s, owner, "POST", "/api/auth/verify-otp", map[string]string{"email": email, "otp": code, "password": ownerPW})
		if r.Status != 200 {
			t.Fatalf("owner's verification with the address's latest code: %d %s", r.Status, r.Body)
		}
		tok := s.Login(t, email, ownerPW)
		p := s.Do(t, "GET", "/api/auth/profile", tok, nil).JSON["user"].(map[string]any)
		if p["discord_username"] == "stranger_dc" || p["discord_verified"] == true {
			t.Fatalf("the owner's account carries the stranger's Discord name: %v", p)
		}
		if st := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": "stranger-pass-1"}).Status; st != 401 {
			t.Fatalf("the stranger's password: %d, want 401", st)
		}
	})

	t.Run("CooldownIsBoundedAndSaidInTheAnswer", func(t *testing.T) {
		email := testkit.UniqueEmail("waiting")
		flood(email)
		r := doFrom(t, s, owner, "POST", "/api/auth/resend-otp", map[string]string{"email": email})
		wait, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != 429 || wait <= 0 || wait > 2*3600 {
			t.Fatalf("owner's resend after the flood: %d, Retry-After %q; want 429 within two hours", r.Status, r.Header.Get("Retry-After"))
		}
		// Mail-bombing stays bounded: the flood (13 requests over 36 hours
		// of cooldowns) got a mail for each, and the cooldown rose with them.
		if n := s.Mail.Count(email); n > 13 {
			t.Fatalf("%d mails", n)
		}
	})

	t.Run("RequestLimitsCountPerClient", func(t *testing.T) {
		s := newServer(t, testkit.Options{RateLimitScale: 1, Configure: behindProxy})
		email := testkit.UniqueEmail("limits")
		for range 12 {
			doFrom(t, s, stranger, "POST", "/api/auth/signup", signupBody(email, "stranger-pass-1", "stranger-pass-1", "stranger_dc"))
			doFrom(t, s, stranger, "POST", "/api/auth/resend-otp", map[string]string{"email": email})
			doFrom(t, s, stranger, "POST", "/api/auth/verify-otp", map[string]string{"email": email, "otp": "123456"})
		}
		if r := doFrom(t, s, stranger, "POST", "/api/auth/signup", signupBody(email, "stranger-pass-1", "stranger-pass-1", "x1")); r.Status != 429 {
			t.Fatalf("the stranger's 13th sign-up: %d, want 429", r.Status)
		}
		if r := doFrom(t, s, owner, "POST", "/api/auth/signup", signupBody(email, ownerPW, ownerPW, "owner_dc")); r.Status != 201 {
			t.Fatalf("owner's sign-up: %d %s", r.Status, r.Body)
		}
		r := doFrom(t, s, owner, "POST", "/api/auth/resend-otp", map[string]string{"email": email})
		if r.Status != 429 || r.Message() == "Too many requests. Please try again later." {
			t.Fatalf("owner's resend: %d %q, want the address's cooldown, not the stranger's request limit", r.Status, r.Message())
		}
		if r := doFrom(t, s, owner, "POST", "/api/auth/verify-otp", map[string]string{"email": email, "otp": "123456"}); r.Status == 429 && r.Message() == "Too many requests. Please try again later." {
			t.Fatal("owner's verification is refused by the stranger's request limit")
		}
	})
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Wrong passwords from a stranger must not lock the owner out. Guessing is
// limited per account and client (10 in 5 minutes); the account's own limit
// across all clients (30 in 15 minutes) applies only to browsers the account
// has not signed in from, so a stranger, even from many addresses, never
// locks the owner out of a browser they signed in with before.
func TestStrangerCannotLockTheOwnerOutOfLogin(t *testing.T) {
	s := newServer(t, testkit.Options{RateLimitScale: 1, Configure: behindProxy})
	owner, strangerEmail := testkit.UniqueEmail("owner"), testkit.UniqueEmail("stranger")
	s.SignUp(t, owner, "owner_dc")
	s.SignUp(t, strangerEmail, "stranger_dc")
	login := func(ip, email, pw string, cookies ...*http.Cookie) *testkit.Resp {
		return doFrom(t, s, ip, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw}, cookies...)
	}
	deviceOf := func(r *testkit.Resp) *http.Cookie {
		t.Helper()
		for _, c := range (&http.Response{Header: r.Header}).Cookies() {
			if c.Name == "pitlane_device" && c.HttpOnly && c.Value != "" {
				return c
			}
		}
		t.Fatalf("no device cookie in %v", r.Header)
		return nil
	}
	r := login("198.51.100.7", owner, testkit.Password)
	if r.Status != 200 {
		t.Fatalf("owner's login: %d", r.Status)
	}
	ownerDevice := deviceOf(r)
	strangerDevice := deviceOf(login("203.0.113.1", strangerEmail, testkit.Password))

	t.Run("OneClientLocksOnlyItself", func(t *testing.T) {
		var last *testkit.Resp
		for range 12 {
			last = login("203.0.113.1", owner, "wrong-password")
		}
		if last.Status != 429 {
			t.Fatalf("the stranger's 12th wrong password: %d, want 429", last.Status)
		}
		if r := login("198.51.100.8", owner, testkit.Password); r.Status != 200 {
			t.Fatalf("the owner from another address: %d %s", r.Status, r.Body)
		}
	})
	t.Run("ManyClientsNeverLockTheOwnersBrowser", func(t *testing.T) {
		for i := 2; i <= 6; i++ {
			for range 10 {
				login(fmt.Sprintf("203.0.113.%d", i), owner, "wrong-password", strangerDevice)
			}
		}
		if r := login("203.0.113.99", owner, "wrong-password"); r.Status != 429 {
			t.Fatalf("a new client after 50 wrong passwords on the account: %d, want 429", r.Status)
		}
		if r := login("203.0.113.98", owner, testkit.Password, strangerDevice); r.Status != 429 {
			t.Fatalf("another account's device cookie: %d, want 429", r.Status)
		}
		forged := *ownerDevice
		forged.Value = strings.Replace(forged.Value, ".", ".A", 1)[:len(forged.Value)]
		if r := login("203.0.113.97", owner, testkit.Password, &forged); r.Status != 429 {
			t.Fatalf("a forged device cookie: %d, want 429", r.Status)
		}
		// The owner's browser, even behind one of the stranger's addresses.
		if r := login("203.0.113.2", owner, testkit.Password, ownerDevice); r.Status != 200 {
			t.Fatalf("the owner's browser: %d %s", r.Status, r.Body)
		}
	})
}
