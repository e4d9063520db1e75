package accounts

import (
	"time"

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

// An address is kept and compared composed (NFC): the same letters typed
// either way are one address. Characters that turn the direction of text
// are refused, so no address reads as another.
func TestNormalizeEmailComposesAndRefusesDirectionControls(t *testing.T) {
	composed, err1 := NormalizeEmail("J\u00e4ger@example.com")
	decomposed, err2 := NormalizeEmail("ja\u0308ger@example.com")
	if err1 != nil || err2 != nil || composed != decomposed || composed != "j\u00e4ger@example.com" {
		t.Fatalf("composed %q (%v), decomposed %q (%v)", composed, err1, decomposed, err2)
	}
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c} {
		bad := "ace" + string(r) + "@example.com"
		if _, err := NormalizeEmail(bad); errs.MessageOf(err) != MsgAddressInvisible {
			t.Errorf("NormalizeEmail(%+q): %v, want %q", bad, err, MsgAddressInvisible)
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

// A typed name is shown to others (cards, the audit log): characters that
// are not shown as themselves, such as a right-to-left override that makes
// "league.organiser" out of other letters, are refused with a reason.
func TestNormalizeDiscordRefusesInvisibleCharacters(t *testing.T) {
	for _, bad := range []string{
		"resinagro.eugael\u202e", // RIGHT-TO-LEFT OVERRIDE (Cf)
		"\u2067racer\u2069",      // RIGHT-TO-LEFT ISOLATE ... POP (Cf)
		"league\u200b.organiser", // ZERO WIDTH SPACE (Cf)
		"ace\u0085racer",         // NEXT LINE (Cc)
		"ace\u2028racer",         // LINE SEPARATOR
		"\ufeffracer",            // BOM (Cf)
		"ace\xffracer",           // not UTF-8
	} {
		d, err := NormalizeDiscord(bad)
		if errs.KindOf(err) != errs.Invalid || errs.MessageOf(err) != MsgNameInvisible {
			t.Errorf("NormalizeDiscord(%q) = %q, %v", bad, d, err)
		}
	}
	for _, good := range []string{"league.organiser", "Åsa_ÿ", "レーサー", "racer#1234"} {
		if _, err := NormalizeDiscord(good); err != nil {
			t.Errorf("refused %q: %v", good, err)
		}
	}
	if got := CleanName(" Ana\u202e Lima\u200b "); got != "Ana Lima" {
		t.Fatalf("CleanName: %q", got)
	}
}

func TestSignupRules(t *testing.T) {
	in := SignupInput{Email: "a@b.co", Password: "12345678", ConfirmPassword: "12345679", DiscordUsername: "ace"}
	if err := in.Validate(); errs.MessageOf(err) != MsgPasswordsDiffer {
		t.Fatalf("%v", err)
	}
}

// The cooldown between codes to one address rises with the codes of the
// day instead of stopping them: whoever asks, the owner waits at most two
// hours for a code, and an address gets at most a couple of dozen mails a
// day however hard someone presses.
func TestCooldownBoundsMailsAndTheWait(t *testing.T) {
	var day time.Duration
	mails, longest := 0, time.Duration(0)
	for n := 1; day < 24*time.Hour; n++ {
		mails++
		longest = max(longest, Cooldown(n))
		day += Cooldown(n)
	}
	if longest > 2*time.Hour {
		t.Fatalf("the longest wait is %v", longest)
	}
	if mails > 25 {
		t.Fatalf("%d mails a day to one address", mails)
	}
	if Cooldown(1) != time.Minute || Cooldown(3) != time.Minute {
		t.Fatalf("the first codes wait %v, %v; want a minute", Cooldown(1), Cooldown(3))
	}
}
