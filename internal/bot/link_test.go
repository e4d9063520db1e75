package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// say sends one command as member, in a DM (private) or a guild channel,
// and returns the reply.
func say(t *testing.T, r *bot.Router, m bot.Member, private bool, text string) bot.Reply {
	t.Helper()
	where := bot.InChannel
	if private {
		where = bot.InDM
	}
	return sayIn(t, r, m, where, text)
}

// sayIn sends one command as member from where.
func sayIn(t *testing.T, r *bot.Router, m bot.Member, where bot.Place, text string) bot.Reply {
	t.Helper()
	return r.Handle(context.Background(), bot.Request{Member: m, Text: text, Where: where})
}

func wantText(t *testing.T, rep bot.Reply, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(rep.Text, p) {
			t.Fatalf("reply %q does not say %q", rep.Text, p)
		}
	}
}

// ageCode moves a Discord account's code and cooldown into the past.
func ageCode(t *testing.T, s *testkit.Server, discordID string) {
	t.Helper()
	if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE discord_codes SET sent_at = sent_at - interval '2 minutes'
		WHERE discord_id = $1`, discordID); err != nil {
		t.Fatal(err)
	}
}

func profile(t *testing.T, s *testkit.Server, token string) map[string]any {
	t.Helper()
	r := s.Do(t, "GET", "/api/auth/profile", token, nil)
	if r.Status != 200 {
		t.Fatalf("profile: %d %s", r.Status, r.Body)
	}
	return r.JSON["user"].(map[string]any)
}

// TestLinkByMailedCode runs `!register <email>` and `!verify <code>` against
// the real services, with every way to take an account that is not yours.
func TestLinkByMailedCode(t *testing.T) {
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{})
	r := s.App.Bot
	emailA, emailB := testkit.UniqueEmail("owner-a"), testkit.UniqueEmail("owner-b")
	tokenA := s.SignUp(t, emailA, "typed_a")
	tokenB := s.SignUp(t, emailB, "typed_b")
	d1 := bot.Member{ID: "100000000000000001", Username: "racer.one"}
	d2 := bot.Member{ID: "100000000000000002", Username: "intruder"}

	t.Run("TypedNameStaysUnverified", func(t *testing.T) {
		p := profile(t, s, tokenA)
		if p["discord_verified"] != false || p["discord_username"] != "typed_a" || p["discord_id"] != "" {
			t.Fatalf("profile after sign-up: %v", p)
		}
	})
	t.Run("AnonymousIsAskedToLink", func(t *testing.T) {
		wantText(t, say(t, r, d1, true, "!profile"), "Link your Discord first")
		wantText(t, say(t, r, d1, true, "!matches"), "Link your Discord first")
	})
	t.Run("ErrBadArguments", func(t *testing.T) {
		wantText(t, say(t, r, d1, true, "!register"), "Usage: `!register <email>`")
		wantText(t, say(t, r, d1, true, "!register not-an-email"), "Please enter a valid email address")
		wantText(t, say(t, r, d1, true, "!verify"), "Usage: `!verify <code>`")
		wantText(t, say(t, r, d1, true, "!verify 12ab"), accounts.MsgBadOTP)
		wantText(t, say(t, r, d1, true, "!fly"), "Unknown command `!fly`")
	})
	var code string
	t.Run("CodeIsMailedToTheOwner", func(t *testing.T) {
		rep := say(t, r, d1, false, "!register "+strings.ToUpper(emailA))
		wantText(t, rep, "a 6-digit code is on its way")
		if !rep.Private {
			t.Fatal("the answer about a code should go to the member alone")
		}
		code = s.Mail.OTP(t, emailA, 2) // the sign-up's code was the first
		if !strings.Contains(s.Mail.Last(emailA), "racer.one") {
			t.Fatalf("the mail does not say which Discord account asks:\n%s", s.Mail.Last(emailA))
		}
	})
	t.Run("ErrWrongCode", func(t *testing.T) {
		wrong := "000000"
		if code == wrong {
			wrong = "000001"
		}
		wantText(t, say(t, r, d1, true, "!verify "+wrong), "Invalid or expired code. 4 tries left.")
	})
	t.Run("ErrCodeInPublicDiesWithIt", func(t *testing.T) {
		wantText(t, say(t, r, d1, false, "!verify "+code), "no longer works")
		wantText(t, say(t, r, d1, true, "!verify "+code), "Invalid or expired code")
	})
	t.Run("ErrCooldown", func(t *testing.T) {
		wantText(t, say(t, r, d1, true, "!register "+emailA), "Please wait")
	})
	t.Run("OK", func(t *testing.T) {
		ageCode(t, s, d1.ID)
		before := s.Mail.Count(emailA)
		say(t, r, d1, true, "!register "+emailA)
		code = s.Mail.OTP(t, emailA, before+1)
		rep := say(t, r, d1, true, "!register "+code) // !register <code> is !verify <code>
		wantText(t, rep, accounts.MsgDiscordLinked, tournament.MsgNoStats)
		p := profile(t, s, tokenA)
		if p["discord_verified"] != true || p["discord_id"] != d1.ID || p["discord_username"] != "racer.one" {
			t.Fatalf("profile after the link: %v", p)
		}
	})
	t.Run("ErrCodeIsSingleUse", func(t *testing.T) {
		wantText(t, say(t, r, d2, true, "!verify "+code), "Invalid or expired code")
	})
	t.Run("RegistersWhenTheRulesAllow", func(t *testing.T) {
		s.SaveStats(t, tokenA)
		wantText(t, say(t, r, d1, true, "!register"), tournament.MsgRegistered)
		wantText(t, say(t, r, d1, true, "!register "+emailA), tournament.MsgAlreadyRegistered)
	})
	t.Run("ErrTypingANameOverAProvenLink", func(t *testing.T) {
		res := s.Do(t, "POST", "/api/auth/update-discord-username", tokenA, map[string]string{"discordUsername": "someone_else"})
		if res.Status != 409 || res.Message() != accounts.MsgDiscordNameLocked {
			t.Fatalf("%d %q", res.Status, res.Message())
		}
	})
	t.Run("ErrSomeoneElsesEmailWithoutTheCode", func(t *testing.T) {
		before := s.Mail.Count(emailB)
		wantText(t, say(t, r, d2, true, "!register "+emailB), "a 6-digit code is on its way")
		owners := s.Mail.OTP(t, emailB, before+1) // only B's mailbox has it
		for i, wrong := 0, 0; wrong < 5; i++ {
			guess := "12345" + string(rune('0'+i))
			if guess == owners {
				continue
			}
			say(t, r, d2, true, "!verify "+guess)
			wrong++
		}
		wantText(t, say(t, r, d2, true, "!verify "+owners), "Too many wrong attempts")
		if p := profile(t, s, tokenB); p["discord_verified"] != false {
			t.Fatalf("B was linked without its code: %v", p)
		}
	})
	t.Run("ErrSecondDiscordOnOneAccount", func(t *testing.T) {
		// Even with the owner's code, A keeps its link until A unlinks.
		ageCode(t, s, d2.ID)
		if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE discord_codes SET attempts = 0 WHERE discord_id = $1`, d2.ID); err != nil {
			t.Fatal(err)
		}
		before := s.Mail.Count(emailA)
		say(t, r, d2, true, "!register "+emailA)
		wantText(t, say(t, r, d2, true, "!verify "+s.Mail.OTP(t, emailA, before+1)), accounts.MsgDiscordOtherLinked)
		if p := profile(t, s, tokenA); p["discord_id"] != d1.ID {
			t.Fatalf("A's link moved: %v", p)
		}
	})
	t.Run("ErrDiscordLinkedToAnotherAccount", func(t *testing.T) {
		wantText(t, say(t, r, d1, true, "!register "+emailB), "already linked to another Pitlane account")
		// And the store refuses it whatever the caller checked.
		_, err := s.App.Server.Accounts.Discord.LinkDiscord(context.Background(), int64(profile(t, s, tokenB)["id"].(float64)),
			accounts.DiscordIdentity{ID: d1.ID, Username: d1.Username})
		if err == nil || !strings.Contains(err.Error(), accounts.MsgDiscordTaken) {
			t.Fatalf("linking d1 to B: %v", err)
		}
	})
	t.Run("UnknownAddressAnswersAlike", func(t *testing.T) {
		d3 := bot.Member{ID: "100000000000000003", Username: "nobody"}
		nobody := testkit.UniqueEmail("nobody")
		wantText(t, say(t, r, d3, true, "!register "+nobody), "a 6-digit code is on its way")
		s.MailSettled(t)
		if n := s.Mail.Count(nobody); n != 0 {
			t.Fatalf("%d mails to an address without an account", n)
		}
	})
	t.Run("UnlinkThenLinkAnother", func(t *testing.T) {
		res := s.Do(t, "DELETE", "/api/auth/discord", tokenA, nil)
		if res.Status != 200 || res.Message() != accounts.MsgDiscordUnlinked {
			t.Fatalf("unlink: %d %s", res.Status, res.Body)
		}
		u := res.JSON["user"].(map[string]any)
		if u["discord_verified"] != false || u["discord_id"] != "" || u["discord_username"] != "racer.one" {
			t.Fatalf("after unlink: %v", u)
		}
		if res := s.Do(t, "DELETE", "/api/auth/discord", tokenA, nil); res.Status != 409 {
			t.Fatalf("unlinking nothing: %d", res.Status)
		}
		wantText(t, say(t, r, d1, true, "!profile"), "Link your Discord first")
		ageCode(t, s, d2.ID)
		before := s.Mail.Count(emailA)
		say(t, r, d2, true, "!register "+emailA)
		wantText(t, say(t, r, d2, true, "!verify "+s.Mail.OTP(t, emailA, before+1)), accounts.MsgDiscordLinked)
	})
	t.Run("EveryLinkIsAudited", func(t *testing.T) {
		var links, unlinks int
		err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE action = 'account.discord_linked'),
			count(*) FILTER (WHERE action = 'account.discord_unlinked') FROM audit_log
			WHERE data->>'discord_id' IN ($1, $2)`, d1.ID, d2.ID).Scan(&links, &unlinks)
		if err != nil {
			t.Fatal(err)
		}
		if links != 2 || unlinks != 1 {
			t.Fatalf("audit: %d links, %d unlinks", links, unlinks)
		}
	})
	t.Run("OTPFormat", func(t *testing.T) {
		if !auth.ValidOTPFormat("123456") {
			t.Fatal("format")
		}
	})
}

// TestConsole feeds lines to the router as `pitlane bot console` does and
// reads the answers back.
func TestConsole(t *testing.T) {
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{})
	var out strings.Builder
	in := strings.NewReader("# a comment\n!help\n\nbracket\n!fly\n!profile\n")
	if err := bot.Console(context.Background(), s.App.Bot, bot.Member{ID: "555555555555555555", Username: "console"}, in, &out, true); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"> !help\n**Pitlane bot**", "> !bracket\n", "PPLS-6.0 bracket", "No fixtures yet", "Unknown command `!fly`", "Link your Discord first"} {
		if !strings.Contains(got, want) {
			t.Fatalf("console output lacks %q:\n%s", want, got)
		}
	}
}
