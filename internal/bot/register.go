package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// MsgCodeInPublic answers a code given where others could read it: it is
// dead, so whoever read it cannot use it.
const MsgCodeInPublic = "Codes go in a direct message to me only. That one was shown in the channel, so it no longer works: " +
	"ask for a new one with `!register <email>` and send it to me in a DM."

// register links the member (by a mailed code) and then registers them
// for the current tournament when the rules allow, with the seed's messages.
func (c *call) register(ctx context.Context) Reply {
	switch {
	case len(c.args) == 0:
		if !c.linked {
			return usage("register")
		}
		return c.enter(ctx, "")
	case len(c.args) > 1:
		return usage("register")
	case auth.ValidOTPFormat(c.args[0]):
		return c.verify(ctx) // `!register 123456` is `!verify 123456`
	}
	email, err := accounts.NormalizeEmail(c.args[0])
	if err != nil {
		return Reply{Text: "Please enter a valid email address. " + usage("register").Text}
	}
	if c.linked {
		if email != c.user.Email {
			return Reply{Text: "Your Discord account is already linked to another Pitlane account. " +
				"To link a different one, unlink it on your profile first.", Private: true}
		}
		return c.enter(ctx, "")
	}
	d := accounts.DiscordIdentity{ID: c.req.Member.ID, Username: c.req.Member.Username}
	if err := c.Accounts.RequestDiscordCode(ctx, d, email, c.codeLimit(email)); err != nil {
		rep := c.fail(err)
		rep.Private = true
		return rep
	}
	return Reply{Text: fmt.Sprintf(accounts.MsgDiscordCodeSent, email, int(accounts.DiscordCodeTTL.Minutes())), Private: true}
}

// codeLimit bounds the link codes the member gets for email, per address and
// member: a stranger asking for the owner's address uses up their own
// limit, never the owner's. The accounts service asks it only once the
// member's cooldown has passed, so only codes issued count.
func (c *call) codeLimit(email string) accounts.CodeGate {
	if c.Limits == nil {
		return nil
	}
	return func(ctx context.Context) error {
		ok, wait := c.Limits.Allow(ctx, ratelimit.BotCodeEmailMember, email+"|discord:"+c.req.Member.ID)
		if ok {
			return nil
		}
		return errs.Limited(int(wait.Seconds()), "Too many codes for this address from your Discord account. Please try again in %d minutes.",
			int(wait.Minutes())+1)
	}
}

// verify takes the mailed code back, in private only, then registers.
func (c *call) verify(ctx context.Context) Reply {
	if len(c.args) != 1 {
		return usage("verify")
	}
	code := strings.TrimSpace(c.args[0])
	if !c.req.Where.Private() {
		if err := c.Accounts.BurnDiscordCode(ctx, c.req.Member.ID); err != nil {
			return c.fail(err)
		}
		return Reply{Text: MsgCodeInPublic, Private: true}
	}
	d := accounts.DiscordIdentity{ID: c.req.Member.ID, Username: c.req.Member.Username}
	u, err := c.Accounts.VerifyDiscordCode(ctx, d, code)
	if err != nil {
		rep := c.fail(err)
		rep.Private = true
		return rep
	}
	a, _, linked, err := c.Accounts.DiscordActor(ctx, d.ID)
	if err != nil || !linked {
		return Reply{Text: accounts.MsgDiscordLinked, Private: true}
	}
	c.actor, c.user, c.linked = a, u, true
	return c.enter(ctx, accounts.MsgDiscordLinked+" ")
}

// enter registers the linked member for the current tournament.
func (c *call) enter(ctx context.Context, prefix string) Reply {
	t, err := c.Tournaments.Find(ctx, "")
	if err != nil {
		return c.fail(err)
	}
	e, err := c.Tournaments.Register(ctx, c.actor, t.Name)
	switch {
	case err == nil && e.Status == tournament.Waitlisted:
		return Reply{Text: prefix + e.Message + " " + c.url("/tournament?tab=reg")}
	case err == nil:
		return Reply{Text: prefix + tournament.MsgRegistered + " (" + t.DisplayName() + ") See you at " + c.url("/tournament") + "."}
	case errs.KindOf(err) == errs.Invalid && strings.Contains(err.Error(), tournament.MsgNoStats):
		return Reply{Text: prefix + tournament.MsgNoStats + " Upload them at " + c.url("/?showStatsUpload=true") + "."}
	}
	rep := c.fail(err)
	rep.Text = prefix + rep.Text
	return rep
}
