package accounts

import (
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
)

func TestNormalizeEmail(t *testing.T) {
	ok := map[string]string{" Ace@Example.COM ": "ace@example.com", "a.b+c@league.gg": "a.b+c@league.gg"}
	for in, want := range ok {
		if got, err := NormalizeEmail(in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "ace", "ace@", "Ace <ace@example.com>", "ace@localhost", "a@b@c.com"} {
		if _, err := NormalizeEmail(bad); errs.KindOf(err) != errs.Invalid {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestNormalizeDiscord(t *testing.T) {
	if _, err := NormalizeDiscord("   "); errs.MessageOf(err) != MsgDiscordRequired {
		t.Fatalf("%v", err)
	}
	for _, bad := range []string{"a", "@everyone", "x`y", "bad\nname"} {
		if _, err := NormalizeDiscord(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if d, err := NormalizeDiscord(" ace_racer "); err != nil || d != "ace_racer" {
		t.Fatalf("%q %v", d, err)
	}
}

func TestSignupRules(t *testing.T) {
	in := SignupInput{Email: "a@b.co", Password: "12345678", ConfirmPassword: "12345679", DiscordUsername: "ace"}
	if err := in.Validate(); errs.MessageOf(err) != MsgPasswordsDiffer {
		t.Fatalf("%v", err)
	}
}
