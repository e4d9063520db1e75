package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/testkit"
)

// seen is what a client can tell of one answer.
type seen struct {
	Status     int
	Message    string
	RetryAfter bool
	Keys       string
}

func see(r *testkit.Resp) seen {
	var keys []string
	for k := range r.JSON {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return seen{r.Status, r.Message(), r.Header.Get("Retry-After") != "", strings.Join(keys, ",")}
}

// verify-otp and resend-otp answer alike whether an address has no
// account, waits for its code or is verified: the same status, message and
// fields for the same requests, and in the same time, since mails go out in
// the background. (Sign-up answers a verified address as a new one too:
// TestSignupOverAnAccountAnswersAsANewOne.)
func TestCodeAnswersDoNotTellAccountsApart(t *testing.T) {
	testkit.FullPasswordCost(t) // a bcrypt of the server's cost must show in WrongCodeTakesTheSameTime
	s := newServer(t, testkit.Options{})
	unknown, unverified, verified := testkit.UniqueEmail("unknown"), testkit.UniqueEmail("unverified"), testkit.UniqueEmail("verified")
	s.SignUp(t, verified, "verified_racer")
	if r := s.Do(t, "POST", "/api/auth/signup", "", signupBody(unverified, "hunter22pw", "hunter22pw", "racer")); r.Status != 201 {
		t.Fatalf("signup: %d", r.Status)
	}
	wrong := "000000"
	if s.Mail.OTP(t, unverified, 1) == wrong {
		wrong = "000001"
	}
	addresses := []string{unknown, unverified, verified}
	alike := func(t *testing.T, what string, call func(email string) *testkit.Resp) seen {
		t.Helper()
		first := see(call(addresses[0]))
		for _, e := range addresses[1:] {
			if got := see(call(e)); got != first {
				t.Fatalf("%s: %s answers %+v, an unknown address %+v", what, strings.SplitN(e, "-", 2)[0], got, first)
			}
		}
		return first
	}
	verify := func(password string) func(string) *testkit.Resp {
		return func(email string) *testkit.Resp {
			body := map[string]string{"email": email, "otp": wrong}
			if password != "" {
				body["password"] = password
			}
			return s.Do(t, "POST", "/api/auth/verify-otp", "", body)
		}
	}
	resend := func(email string) *testkit.Resp {
		return s.Do(t, "POST", "/api/auth/resend-otp", "", map[string]string{"email": email})
	}
	// later makes an hour pass for every address's codes.
	later := func() {
		for _, e := range addresses {
			s.Age(t, e, time.Hour)
		}
	}

	t.Run("WrongCode", func(t *testing.T) {
		a := alike(t, "a wrong code", verify(""))
		if a.Status != 400 || !strings.Contains(a.Message, "4 tries left") {
			t.Fatalf("a wrong code: %+v, want 400 saying 4 tries are left", a)
		}
		alike(t, "a wrong code with a password", verify("some-password-1"))
	})
	t.Run("WrongCodeTakesTheSameTime", func(t *testing.T) {
		// A password is checked only with a code that matches: bcrypt for a
		// pending sign-up's password and none for an unknown address would
		// tell them apart.
		var took []time.Duration
		for _, e := range addresses {
			best := time.Hour
			for range 2 {
				start := time.Now()
				verify("some-password-1")(e)
				best = min(best, time.Since(start))
			}
			took = append(took, best)
		}
		if slices.Max(took)-slices.Min(took) > 100*time.Millisecond {
			t.Fatalf("a wrong code takes %v (unknown, pending, verified address)", took)
		}
	})
	t.Run("DeadAfterFiveWrongTries", func(t *testing.T) {
		if a := alike(t, "a fifth wrong code", verify("")); a.Status != 400 || !strings.Contains(a.Message, "No tries left") {
			t.Fatalf("the fifth wrong code: %+v, want 400 saying no tries are left", a)
		}
		if a := alike(t, "a sixth code", verify("")); a.Status != 429 || !a.RetryAfter {
			t.Fatalf("after five wrong codes: %+v, want 429 with Retry-After", a)
		}
	})
	t.Run("Resend", func(t *testing.T) {
		later()
		if a := alike(t, "a resend", resend); a.Status != 200 || a.Message != "OTP sent successfully!" {
			t.Fatalf("resend: %+v", a)
		}
		if a := alike(t, "a second resend", resend); a.Status != 429 || !a.RetryAfter {
			t.Fatalf("resend within the cooldown: %+v", a)
		}
		if a := alike(t, "a wrong code after the resend", verify("")); a.Status != 400 || !strings.Contains(a.Message, "4 tries left") {
			t.Fatalf("a new code gives five tries again: %+v", a)
		}
	})
	t.Run("ResendTakesTheSameTime", func(t *testing.T) {
		later()
		s.Mail.Delay(1500 * time.Millisecond)
		defer s.Mail.Delay(0)
		for _, e := range addresses {
			start := time.Now()
			if r := resend(e); r.Status != http.StatusOK {
				t.Fatalf("resend: %d %s", r.Status, r.Body)
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("resend for %s took %v: it waits for the mail server", e, d)
			}
		}
	})
}
