package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// A Discord link is proven in one of two ways, and only these set
// discord_verified: Discord's OAuth2 on the site (the member signs in to
// Discord), or a code mailed to the Pitlane account's address that the
// member gives back to the bot (they own the mailbox). A typed name stays a
// name.

// Lifetimes and limits of the two proofs.
const (
	DiscordStateTTL     = 10 * time.Minute
	DiscordCodeTTL      = OTPTTL
	DiscordCodeCooldown = OTPCooldown
)

// Messages of the Discord link.
const (
	MsgDiscordLinked        = "Discord account linked and verified!"
	MsgDiscordUnlinked      = "Discord account unlinked."
	MsgDiscordTaken         = "This Discord account is already linked to another Pitlane account."
	MsgDiscordOtherLinked   = "Your Pitlane account is already linked to another Discord account. Unlink it first."
	MsgDiscordNameLocked    = "Your Discord account is linked and verified. Unlink it before typing another name."
	MsgDiscordNotConfigured = "Linking Discord is not configured on this site."
	MsgDiscordStateBad      = "This Discord link request is unknown or has expired. Please start again from your profile."
	MsgDiscordFailed        = "Discord did not confirm the account. Please try again."
	MsgDiscordNotLinked     = "No Discord account is linked."
)

// DiscordIdentity is a Discord account as Discord itself told us.
type DiscordIdentity struct {
	ID       string // the snowflake
	Username string
}

// DiscordOAuth is Discord's OAuth2 (internal/discord): the authorize URL
// of a state with its PKCE verifier, and the identity a code stands for.
type DiscordOAuth interface {
	AuthCodeURL(state, verifier string) string
	Identify(ctx context.Context, code, verifier string) (DiscordIdentity, error)
}

// DiscordStore is what the Discord link needs from the database.
type DiscordStore interface {
	FindUserByDiscordID(ctx context.Context, discordID string) (User, error)
	// LinkDiscord makes the proven link. A Discord account on another
	// Pitlane account, or another Discord account on this one, is a
	// Conflict (with the Msg above); the same link again refreshes the name.
	LinkDiscord(ctx context.Context, userID int64, d DiscordIdentity) (User, error)
	// UnlinkDiscord drops the link; the name stays, unverified.
	UnlinkDiscord(ctx context.Context, userID int64) (User, error)
	SaveDiscordState(ctx context.Context, stateMAC []byte, userID int64, verifier string, ttl time.Duration) error
	// TakeDiscordState spends a live state: NotFound when unknown, spent or expired.
	TakeDiscordState(ctx context.Context, stateMAC []byte) (userID int64, verifier string, err error)
	// IssueDiscordCode records the code about to be mailed for the Discord
	// account (userID 0, mac nil: nothing is mailed, the cooldown runs all
	// the same) unless its cooldown runs; then it returns the wait. Once the
	// cooldown has passed, and under the Discord account's lock, it asks
	// gate (when not nil): an error from it is returned and nothing issued.
	IssueDiscordCode(ctx context.Context, d DiscordIdentity, userID int64, mac []byte, ttl, cooldown time.Duration,
		gate CodeGate) (time.Duration, error)
	// CheckDiscordCode runs one try of the Discord account's code.
	CheckDiscordCode(ctx context.Context, discordID string, maxAttempts int, match func(userID int64, mac []byte) bool) (DiscordCodeResult, error)
	// BurnDiscordCode kills the Discord account's code (it was shown in public).
	BurnDiscordCode(ctx context.Context, discordID string) error
}

// CodeGate is a limit on link codes asked just before one is issued, once
// the member's cooldown has let the request through: an error refuses it,
// nil lets it go and counts it. So a request the cooldown refused costs the
// member nothing.
type CodeGate func(ctx context.Context) error

// DiscordCodeResult is how a try went: Outcome as CheckCode's, UserID the
// account the code links when it matched.
type DiscordCodeResult struct {
	Outcome CodeOutcome
	Left    int
	UserID  int64
}

func (s *Service) discordStore() (DiscordStore, error) {
	if s.Discord == nil {
		return nil, errs.E(errs.Unavailable, "Discord linking is unavailable")
	}
	return s.Discord, nil
}

// StartDiscordLink begins the site's OAuth2 flow for the signed-in user: it
// returns Discord's authorize URL and the state, which the browser keeps too
// (a cookie), so the flow finishes only in the browser and for the account
// that started it.
func (s *Service) StartDiscordLink(ctx context.Context, a core.Actor) (authURL, state string, err error) {
	if err := a.MustBeUser(); err != nil {
		return "", "", err
	}
	if s.DiscordOAuth == nil {
		return "", "", errs.E(errs.Unavailable, MsgDiscordNotConfigured)
	}
	store, err := s.discordStore()
	if err != nil {
		return "", "", err
	}
	state, verifier := randomToken(), randomToken()+randomToken()
	if err := store.SaveDiscordState(ctx, s.stateMAC(state), a.UserID, verifier, DiscordStateTTL); err != nil {
		return "", "", err
	}
	return s.DiscordOAuth.AuthCodeURL(state, verifier), state, nil
}

// FinishDiscordLink ends the OAuth2 flow: state must be the live one the
// browser holds (browserState), code is Discord's. It links the Discord
// account Discord names to the account that started the flow.
func (s *Service) FinishDiscordLink(ctx context.Context, state, browserState, code string) (User, error) {
	if s.DiscordOAuth == nil {
		return User{}, errs.E(errs.Unavailable, MsgDiscordNotConfigured)
	}
	store, err := s.discordStore()
	if err != nil {
		return User{}, err
	}
	if state == "" || len(state) > 128 || !hmac.Equal([]byte(state), []byte(browserState)) {
		return User{}, errs.E(errs.Invalid, MsgDiscordStateBad)
	}
	userID, verifier, err := store.TakeDiscordState(ctx, s.stateMAC(state))
	if errs.KindOf(err) == errs.NotFound {
		return User{}, errs.E(errs.Invalid, MsgDiscordStateBad)
	} else if err != nil {
		return User{}, err
	}
	if code == "" || len(code) > 512 {
		return User{}, errs.E(errs.Unauthorized, MsgDiscordFailed)
	}
	id, err := s.DiscordOAuth.Identify(ctx, code, verifier)
	if err != nil {
		s.Log.Warn("discord oauth: identify failed", slog.Int64("user_id", userID), slog.Any("err", err))
		if errs.KindOf(err) == errs.Upstream {
			return User{}, err
		}
		return User{}, errs.E(errs.Unauthorized, MsgDiscordFailed)
	}
	return s.linkDiscord(ctx, userID, id, "oauth")
}

// linkDiscord makes the link with its audit entry, and tells the lists the
// player is on (their card shows the name and the tick).
func (s *Service) linkDiscord(ctx context.Context, userID int64, d DiscordIdentity, method string) (User, error) {
	d.Username = CleanName(d.Username) // Discord's rules allow none, but it is shown as the player's name
	var u User
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if u, err = s.Discord.LinkDiscord(ctx, userID, d); err != nil {
			return err
		}
		a, err := s.Actor(ctx, u)
		if err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionDiscordLinked, 0, userTarget(u),
			map[string]any{"discord_id": d.ID, "discord": d.Username, "method": method, "verified": true}); err != nil {
			return err
		}
		if s.Changed != nil {
			return s.Changed(ctx, u.ID)
		}
		return nil
	})
	return u, err
}

// UnlinkDiscord drops the signed-in user's proven Discord link: another
// Discord account may then be linked. The name stays, shown unverified.
func (s *Service) UnlinkDiscord(ctx context.Context, a core.Actor) (User, error) {
	if err := a.MustBeUser(); err != nil {
		return User{}, err
	}
	store, err := s.discordStore()
	if err != nil {
		return User{}, err
	}
	var u User
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		before, err := s.Store.FindUserByID(ctx, a.UserID)
		if err != nil {
			return err
		}
		if before.DiscordID == "" {
			return errs.E(errs.Conflict, MsgDiscordNotLinked)
		}
		if u, err = store.UnlinkDiscord(ctx, a.UserID); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionDiscordUnlinked, 0, userTarget(u),
			map[string]any{"discord_id": before.DiscordID, "discord": before.DiscordUsername}); err != nil {
			return err
		}
		if s.Changed != nil {
			return s.Changed(ctx, u.ID)
		}
		return nil
	})
	return u, err
}

// MsgDiscordCodeSent answers `!register <email>` alike whether or not the
// address has an account (nobody learns who plays from the bot).
const MsgDiscordCodeSent = "If %s belongs to a verified Pitlane account, a 6-digit code is on its way to it. " +
	"Send it to me in a direct message: `!verify 123456` (valid %d minutes)."

// RequestDiscordCode mails a code that links the Discord account d to the
// Pitlane account of email, if a verified one exists; the answer is the same
// either way. The code is bound to both accounts, single use, expires and
// allows auth.OTPMaxAttempts tries. The member's cooldown is checked first,
// then gate (nil: none), which counts the codes it lets through, whether or
// not a mail goes out, so its answer tells nothing about the address.
func (s *Service) RequestDiscordCode(ctx context.Context, d DiscordIdentity, email string, gate CodeGate) error {
	store, err := s.discordStore()
	if err != nil {
		return err
	}
	email, err = NormalizeEmail(email)
	if err != nil {
		return err
	}
	var (
		userID int64
		mac    []byte
		code   string
		to     User
	)
	u, err := s.Store.FindUserByEmail(ctx, email)
	switch {
	case err == nil && u.EmailVerified:
		if code, err = auth.NewOTP(); err != nil {
			return err
		}
		userID, mac, to = u.ID, s.discordCodeMAC(u.ID, d.ID, code), u
	case err != nil && errs.KindOf(err) != errs.NotFound:
		return err
	}
	wait, err := store.IssueDiscordCode(ctx, d, userID, mac, DiscordCodeTTL, DiscordCodeCooldown, gate)
	if err != nil {
		return err
	}
	if wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		return errs.Limited(secs, "Please wait %d seconds before asking for another code.", secs)
	}
	if mac == nil {
		return nil
	}
	s.Mail.Post(core.Message{To: to.Email, Subject: "Your Pitlane code to link Discord",
		Text: fmt.Sprintf("The Discord account %q asked to be linked to your Pitlane account.\n\n"+
			"Your verification code is %s. Send it to the Pitlane bot in a direct message: !verify %s\n\n"+
			"It is valid for %d minutes. If this was not you, ignore this e-mail: nothing is linked without the code.\n",
			d.Username, code, code, int(DiscordCodeTTL.Minutes()))}, nil)
	return nil
}

// VerifyDiscordCode links d to the account its mailed code was for.
func (s *Service) VerifyDiscordCode(ctx context.Context, d DiscordIdentity, code string) (User, error) {
	store, err := s.discordStore()
	if err != nil {
		return User{}, err
	}
	code = strings.TrimSpace(code)
	if !auth.ValidOTPFormat(code) {
		return User{}, errs.E(errs.Invalid, MsgBadOTP)
	}
	res, err := store.CheckDiscordCode(ctx, d.ID, auth.OTPMaxAttempts, func(userID int64, mac []byte) bool {
		return hmac.Equal(mac, s.discordCodeMAC(userID, d.ID, code))
	})
	if err != nil {
		return User{}, err
	}
	switch res.Outcome {
	case CodeDead:
		return User{}, errs.Limited(int(DiscordCodeCooldown.Seconds()), "Too many wrong attempts. Please ask for a new code with `!register <email>`.")
	case CodeWrong:
		return User{}, errs.E(errs.Invalid, "%s", strings.ReplaceAll(WrongCodeMessage(res.Left), "OTP", "code"))
	}
	return s.linkDiscord(ctx, res.UserID, d, "email_code")
}

// BurnDiscordCode kills a code that was shown where others could read it.
func (s *Service) BurnDiscordCode(ctx context.Context, discordID string) error {
	store, err := s.discordStore()
	if err != nil {
		return err
	}
	return store.BurnDiscordCode(ctx, discordID)
}

// DiscordActor is who a Discord member acts as: the account their proven
// link names, with its roles; anonymous (the zero Actor, ok false) when they
// have none.
func (s *Service) DiscordActor(ctx context.Context, discordID string) (core.Actor, User, bool, error) {
	store, err := s.discordStore()
	if err != nil {
		return core.Actor{}, User{}, false, err
	}
	if discordID == "" {
		return core.Actor{}, User{}, false, nil
	}
	u, err := store.FindUserByDiscordID(ctx, discordID)
	if errs.KindOf(err) == errs.NotFound {
		return core.Actor{}, User{}, false, nil
	} else if err != nil {
		return core.Actor{}, User{}, false, err
	}
	if !u.EmailVerified || !u.DiscordVerified {
		return core.Actor{}, User{}, false, nil
	}
	a, err := s.Actor(ctx, u)
	return a, u, err == nil, err
}

// FindByDiscordID is the account with the proven link to discordID.
func (s *Service) FindByDiscordID(ctx context.Context, discordID string) (User, error) {
	store, err := s.discordStore()
	if err != nil {
		return User{}, err
	}
	return store.FindUserByDiscordID(ctx, discordID)
}

func (s *Service) stateMAC(state string) []byte {
	m := hmac.New(sha256.New, s.OTPSecret)
	m.Write([]byte("discord-state|" + state))
	return m.Sum(nil)
}

func (s *Service) discordCodeMAC(userID int64, discordID, code string) []byte {
	return auth.OTPMac(s.OTPSecret, userID, "discord|"+discordID+"|"+code)
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
