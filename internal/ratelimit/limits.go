package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/httprate"
	"github.com/redis/go-redis/v9"
)

// Rule is one limit: Limit requests per Window for one key.
type Rule struct {
	Name   string
	Limit  int
	Window time.Duration
}

// Rules of Pitlane: per client IP, and per e-mail and client on every
// credential form. A limit per e-mail alone would let anyone lock an
// address's owner out by using it up; what one address may cost is bounded
// by the account rules instead (codes: a rising cooldown and five tries
// each).
var (
	SignupIP          = Rule{"signup-ip", 10, 10 * time.Minute}
	SignupEmailClient = Rule{"signup-email-client", 5, 10 * time.Minute}
	LoginIP           = Rule{"login-ip", 30, 5 * time.Minute}
	LoginEmailClient  = Rule{"login-email-client", 10, 5 * time.Minute}
	// LoginEmail is the account's own limit across all clients, looser, and
	// applied only to browsers without the account's device cookie: it
	// bounds guessing from many addresses without locking the owner out.
	LoginEmail        = Rule{"login-email", 30, 15 * time.Minute}
	VerifyIP          = Rule{"verify-ip", 30, 5 * time.Minute}
	VerifyEmailClient = Rule{"verify-email-client", 10, 5 * time.Minute}
	ResendIP          = Rule{"resend-ip", 10, 10 * time.Minute}
	ResendEmailClient = Rule{"resend-email-client", 5, 10 * time.Minute}
	GoogleIP          = Rule{"google-ip", 30, 5 * time.Minute}
	ExtractIP         = Rule{"extract-ip", 10, 10 * time.Minute}
	ExtractUser       = Rule{"extract-user", 30, time.Hour}
	NewsletterIP      = Rule{"newsletter-ip", 5, 10 * time.Minute}
	NewsletterEmail   = Rule{"newsletter-email", 3, time.Hour}
	// Signed-in changes, per user: each bcrypt check or roster change costs
	// CPU and a broadcast to every open client.
	PasswordUser = Rule{"password-user", 5, 15 * time.Minute}
	DiscordUser  = Rule{"discord-user", 10, time.Hour}
	SaveUser     = Rule{"save-user", 30, time.Hour}
	RegisterUser = Rule{"register-user", 20, time.Hour}
	// Password resets: asked for and confirmed per client address, and per
	// address and client, as sign-up's codes are (the address's own
	// cooldown is kept with its code).
	ResetIP           = Rule{"reset-ip", 10, 10 * time.Minute}
	ResetEmailClient  = Rule{"reset-email-client", 5, 10 * time.Minute}
	ResetConfirmIP    = Rule{"reset-confirm-ip", 30, 5 * time.Minute}
	ResetConfirmEmail = Rule{"reset-confirm-email-client", 10, 5 * time.Minute}
	// Account changes of a signed-in user: an e-mail change's codes and
	// tries, the codes confirming a new second factor, deletion and export.
	EmailChangeUser  = Rule{"email-change-user", 5, time.Hour}
	SecondFactorUser = Rule{"second-factor-user", 10, 15 * time.Minute}
	AccountUser      = Rule{"account-user", 10, time.Hour}
	// A session's second step (a six-digit code): per session, per client
	// address across accounts, and per account across the browsers that
	// never used its factor, which bounds a guess as before (10 tries in 15
	// minutes) while the owner's own browser, spared the account's limit,
	// is never locked out by a stranger who has the password.
	SecondFactorSession = Rule{"second-factor-session", 10, 15 * time.Minute}
	SecondFactorIP      = Rule{"second-factor-ip", 30, 15 * time.Minute}
	SecondFactorAccount = Rule{"second-factor-account", 10, 15 * time.Minute}
	// RUMIP bounds the page timings a client address sends: a page load
	// sends one beacon, rarely two, and a LAN party shares one address.
	RUMIP = Rule{"rum-ip", 60, time.Minute}
	// ReminderAdmin bounds an organiser's reminder requests (each up to
	// metrics.MaxReminded players, each player once a week per step).
	ReminderAdmin = Rule{"reminder-admin", 20, time.Hour}
)

// Limiters holds one httprate limiter per rule.
type Limiters struct {
	rdb   *redis.Client
	scale float64
	log   *slog.Logger
	m     map[string]*httprate.RateLimiter
}

// New builds the limiters; rdb may be nil (memory only); prefix starts their keys. scale multiplies
// every limit (load tests raise it).
func New(rdb *redis.Client, prefix string, secret []byte, scale float64, log *slog.Logger, rules ...Rule) *Limiters {
	l := &Limiters{rdb: rdb, scale: scale, log: log, m: map[string]*httprate.RateLimiter{}}
	for _, r := range rules {
		limit := int(math.Max(1, math.Round(float64(r.Limit)*scale)))
		opts := []httprate.Option{}
		if rdb != nil {
			opts = append(opts, httprate.WithLimitCounter(NewRedisCounter(rdb, prefix+r.Name+":", secret, log)))
		}
		l.m[r.Name] = httprate.NewRateLimiter(limit, r.Window, opts...)
	}
	return l
}

// All is every rule, for New.
var All = []Rule{SignupIP, SignupEmailClient, LoginIP, LoginEmailClient, LoginEmail, VerifyIP, VerifyEmailClient, ResendIP, ResendEmailClient,
	GoogleIP, ExtractIP, ExtractUser, NewsletterIP, NewsletterEmail,
	PasswordUser, DiscordUser, SaveUser, RegisterUser,
	ResetIP, ResetEmailClient, ResetConfirmIP, ResetConfirmEmail, EmailChangeUser, SecondFactorUser, AccountUser,
	SecondFactorSession, SecondFactorIP, SecondFactorAccount,
	RUMIP, ReminderAdmin}

// Exceeded counts one request for key under rule and reports whether it is
// over the limit; httprate sets Retry-After and the X-RateLimit headers.
func (l *Limiters) Exceeded(w http.ResponseWriter, r *http.Request, rule Rule, key string) bool {
	rl := l.limiter(rule)
	if key == "" {
		return false
	}
	return rl.OnLimit(w, r, key)
}

// Allow counts one action for key under rule outside HTTP (the Discord bot)
// and reports whether it may go ahead, else how long to wait.
func (l *Limiters) Allow(ctx context.Context, rule Rule, key string) (bool, time.Duration) {
	rl := l.limiter(rule)
	if key == "" {
		return true, 0
	}
	w := headerOnly(http.Header{})
	r := (&http.Request{Header: http.Header{}}).WithContext(ctx)
	if !rl.OnLimit(w, r, key) {
		return true, 0
	}
	secs, err := strconv.Atoi(w.Header().Get("Retry-After"))
	if err != nil || secs <= 0 {
		secs = int(rule.Window.Seconds())
	}
	return false, time.Duration(secs) * time.Second
}

// limiter is rule's limiter. A rule New was not given is a mistake in the
// wiring, and is not taken to mean "no limit": it panics, which the tests of
// every route and command find.
func (l *Limiters) limiter(rule Rule) *httprate.RateLimiter {
	rl, ok := l.m[rule.Name]
	if !ok {
		panic(fmt.Sprintf("ratelimit: rule %q was not given to New", rule.Name))
	}
	return rl
}

// headerOnly is a ResponseWriter that keeps the limiter's headers only.
type headerOnly http.Header

func (h headerOnly) Header() http.Header         { return http.Header(h) }
func (h headerOnly) Write(b []byte) (int, error) { return len(b), nil }
func (h headerOnly) WriteHeader(int)             {}

// Pace is rule as a service's pace: how long userID must wait before the
// next action, 0 to go ahead (the action is counted).
func (l *Limiters) Pace(rule Rule) func(ctx context.Context, userID int64) time.Duration {
	l.limiter(rule) // a rule New was not given fails at wiring, not at the first use
	return func(ctx context.Context, userID int64) time.Duration {
		if ok, wait := l.Allow(ctx, rule, "user:"+strconv.FormatInt(userID, 10)); !ok {
			return max(wait, time.Second)
		}
		return 0
	}
}
