package bot_test

import (
	"testing"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/testkit"
)

// Anyone may type anyone's address after `!register`, so the limits on link
// codes count per address and Discord account, and only codes that went out
// (a request the member's cooldown refused costs nothing): a stranger's
// requests never keep the owner from linking their own Discord, and the
// owner's own requests stay limited.
func TestLinkCodeLimitsNeverLockTheOwnerOut(t *testing.T) {
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{})
	r := *s.App.Bot
	r.Limits = ratelimit.New(nil, "t:", []byte("x"), 1, nil, ratelimit.Bot...)
	limit := ratelimit.BotCodeEmailMember.Limit
	email := testkit.UniqueEmail("owner")
	s.SignUp(t, email, "the_owner")
	stranger := bot.Member{ID: "200000000000000001", Username: "stranger"}
	owner := bot.Member{ID: "200000000000000002", Username: "the.owner"}

	t.Run("RefusedByTheCooldownDoesNotCount", func(t *testing.T) {
		wantText(t, say(t, &r, stranger, true, "!register "+email), "a 6-digit code is on its way")
		for range 2 * limit {
			wantText(t, say(t, &r, stranger, true, "!register "+email), "Please wait")
		}
		for range limit - 1 {
			ageCode(t, s, stranger.ID)
			wantText(t, say(t, &r, stranger, true, "!register "+email), "a 6-digit code is on its way")
		}
	})
	t.Run("ErrStrangersOwnLimit", func(t *testing.T) {
		ageCode(t, s, stranger.ID)
		wantText(t, say(t, &r, stranger, true, "!register "+email), "Too many codes")
	})
	s.MailSettled(t)
	before := s.Mail.Count(email)
	t.Run("OwnerStillGetsACode", func(t *testing.T) {
		wantText(t, say(t, &r, owner, true, "!register "+email), "a 6-digit code is on its way")
		s.Mail.OTP(t, email, before+1)
	})
	t.Run("ErrOwnersOwnLimit", func(t *testing.T) {
		for range limit - 1 {
			// Each code's mail arrives before the next is asked for: sent
			// side by side, two could reach the mailbox swapped, and the
			// last to arrive would not be the live code.
			s.MailSettled(t)
			ageCode(t, s, owner.ID)
			wantText(t, say(t, &r, owner, true, "!register "+email), "a 6-digit code is on its way")
		}
		ageCode(t, s, owner.ID)
		wantText(t, say(t, &r, owner, true, "!register "+email), "Too many codes")
	})
	t.Run("OwnerLinksWithTheLastCode", func(t *testing.T) {
		code := s.Mail.OTP(t, email, before+limit)
		wantText(t, say(t, &r, owner, true, "!verify "+code), accounts.MsgDiscordLinked)
		s.MailSettled(t)
		if n := s.Mail.Count(email) - before; n != limit {
			t.Fatalf("%d codes mailed to the owner's requests, want %d", n, limit)
		}
	})
}
