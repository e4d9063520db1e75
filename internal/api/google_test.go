package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/testkit"
)

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
