// Package bot holds the Discord bot's command router: one set of commands
// (`!help`, `!register`, `!verify`, `!checkin`, `!profile`, `!matches`,
// `!bracket`, `!admin ...`) that Discord messages, slash commands and the console all
// feed. It resolves the member to the Pitlane account of their proven
// Discord link and calls the league's services as that actor, so the
// services' own rules decide what they may do. It also announces the
// league's live events to a channel (Announcer).
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Member is who wrote to the bot, as Discord names them.
type Member struct {
	ID       string // the Discord user id (snowflake)
	Username string
}

// Place is where a command was given, which decides what its answer may
// show: a guild channel is read by everyone in it, the rest by the member
// alone.
type Place int

// Places of a command. InChannel is the zero value, so a request that does
// not say where it came from is answered as in public.
const (
	InChannel Place = iota // a message in a guild channel
	InDM                   // a direct message to the bot
	InSlash                // a slash command: a Private reply is ephemeral (only the member sees it)
	InConsole              // `pitlane bot console`: the operator at the terminal
)

// Private tells whether only the member and the bot see the request, and an
// answer marked Private: codes are accepted, and room codes shown, only there.
func (p Place) Private() bool { return p != InChannel }

// Request is one command.
type Request struct {
	Member Member
	// Text is the command as typed ("!profile <@123>"); slash commands are
	// turned into the same text.
	Text  string
	Where Place
}

// Reply is the bot's answer.
type Reply struct {
	Text  string
	Embed *Embed
	// Private asks the transport to answer the member alone (a DM, an
	// ephemeral interaction reply): a reply to a command given in a channel
	// goes to a DM, a slash command's reply is ephemeral.
	Private bool
	// Mentions are the Discord users the message may ping (a match
	// thread's members, who join the thread so); no other mention pings.
	Mentions []string
}

// Embed is a Discord embed, kept transport-free.
type Embed struct {
	Title       string
	Description string
	URL         string
	Color       int
	Fields      []Field
	Footer      string
}

// Field is one name/value line of an embed.
type Field struct {
	Name, Value string
	Inline      bool
}

// Limiter bounds how often a member may use the bot (ratelimit.Limiters).
type Limiter interface {
	Allow(ctx context.Context, rule ratelimit.Rule, key string) (bool, time.Duration)
}

// Poster posts to the announcement channel.
type Poster interface {
	Post(ctx context.Context, r Reply) error
}

// Router answers commands.
type Router struct {
	Accounts    *accounts.Service
	Tournaments *tournament.Service
	Stats       *stats.Service
	Auction     *auction.Service
	Matches     *matches.Service
	Audit       core.AuditLog
	Tx          core.Transactor
	Limits      Limiter // nil: no limits
	// Channel posts `!admin announce`; nil when no channel is configured.
	Channel   Poster
	PublicURL string
	Log       *slog.Logger
}

// Prefix starts every command typed in a message.
const Prefix = "!"

// Command usages, one line each: the answer to bad arguments.
var usages = map[string]string{
	"help":     "`!help` — what I can do",
	"register": "`!register <email>` — link your Discord to your Pitlane account (I mail you a code), then register for the tournament; `!register` once linked",
	"verify":   "`!verify <code>` — in a DM: the 6-digit code I mailed you",
	"checkin":  "`!checkin` — check in for the tournament while its check-in is open; a captain checks in for their next match in the hour before it",
	"profile":  "`!profile [@member]` — a player's stats card",
	"matches":  "`!matches` — your team's next and last matches",
	"bracket":  "`!bracket` — where the tournament stands",
	"admin": "`!admin status <registration|auction|matches|completed> [force]` · `!admin announce <text>` · `!admin resolve <match> <team>` · " +
		"`!admin captain <team> @member` · `!admin pause` · `!admin resume` · `!admin undo` (the last sale) · `!admin bracket [single_elimination|double_elimination|swiss|round_robin|league_then_playoffs] " +
		"[rounds=N cut=N | reset=on|off]` · `!admin reset [force]` (the fixtures) · `!admin withdraw <team|@member> [reason]` — organisers only",
}

var order = []string{"help", "register", "verify", "checkin", "profile", "matches", "bracket", "admin"}

// Names lists the commands in the order `!help` gives them.
func Names() []string { return slices.Clone(order) }

func usage(cmd string) Reply { return Reply{Text: "Usage: " + usages[cmd]} }

// IsCommand tells a message meant for the bot from chat.
func IsCommand(text string) bool {
	text = strings.TrimSpace(text)
	return strings.HasPrefix(text, Prefix) && len(text) > len(Prefix)
}

// Handle answers one command. It never fails: every refusal is an answer.
func (r *Router) Handle(ctx context.Context, req Request) Reply {
	text := strings.TrimSpace(req.Text)
	text = strings.TrimPrefix(text, Prefix)
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Reply{Text: "Unknown command. Try `!help`."}
	}
	cmd, args := strings.ToLower(fields[0]), fields[1:]
	if _, ok := usages[cmd]; !ok {
		return Reply{Text: fmt.Sprintf("Unknown command `!%s`. Try `!help`.", truncate(cmd, 32))}
	}
	if r.Limits != nil {
		if ok, wait := r.Limits.Allow(ctx, ratelimit.BotMember, "discord:"+req.Member.ID); !ok {
			return Reply{Text: fmt.Sprintf("Slow down: try again in %d seconds.", int(wait.Seconds())), Private: true}
		}
	}
	actor, user, linked, err := r.Accounts.DiscordActor(ctx, req.Member.ID)
	if err != nil {
		return r.fail(err)
	}
	c := call{Router: r, req: req, actor: actor, user: user, linked: linked, args: args}
	// After the command word, the rest as typed (for announce's text).
	c.rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), fields[0]))
	var rep Reply
	switch cmd {
	case "help":
		rep = c.help()
	case "register":
		rep = c.register(ctx)
	case "verify":
		rep = c.verify(ctx)
	case "checkin":
		rep = c.checkin(ctx)
	case "profile":
		rep = c.profile(ctx)
	case "matches":
		rep = c.matches(ctx)
	case "bracket":
		rep = c.bracket(ctx)
	case "admin":
		rep = c.admin(ctx)
	}
	return rep
}

// call is one command being answered.
type call struct {
	*Router
	req    Request
	actor  core.Actor
	user   accounts.User
	linked bool
	args   []string
	rest   string
}

func (c *call) help() Reply {
	var b strings.Builder
	b.WriteString("**Pitlane bot** — commands work as `!command` or as slash commands:\n")
	for _, cmd := range order {
		b.WriteString("• " + usages[cmd] + "\n")
	}
	if !c.linked {
		b.WriteString("Your Discord is not linked yet: `!register <email>`, or **Link Discord** on your profile at " + c.url("/") + ".")
	}
	return Reply{Text: strings.TrimRight(b.String(), "\n")}
}

// fail turns a service's refusal into its message; what is not a refusal
// is logged and answered without internals.
func (r *Router) fail(err error) Reply {
	var e *errs.Error
	if errors.As(err, &e) && e.Kind != errs.Internal {
		if e.Kind == errs.Unauthorized {
			return Reply{Text: "Link your Discord first: `!register <email>`, or **Link Discord** on your profile at " + r.url("/") + "."}
		}
		text := e.Message
		for _, p := range e.Problems {
			text += "\n• " + p
		}
		return Reply{Text: truncate(text, 1900)}
	}
	r.log().Error("bot command failed", slog.Any("err", err))
	return Reply{Text: "Something went wrong on our side. Please try again later."}
}

func (r *Router) log() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}

func (r *Router) url(path string) string {
	base := strings.TrimRight(r.PublicURL, "/")
	if base == "" {
		base = "http://localhost:8080"
	}
	return base + path
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// mentionID reads a member mention (<@123>, <@!123>) or a bare id.
func mentionID(s string) (string, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<@"), ">")
	s = strings.TrimPrefix(s, "!")
	if len(s) < 5 || len(s) > 25 {
		return "", false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return s, true
}
