package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

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
