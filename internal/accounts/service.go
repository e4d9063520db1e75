package accounts

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// GoogleVerifier checks a Google ID token (auth.GoogleVerifier).
type GoogleVerifier interface {
	Verify(ctx context.Context, credential string) (auth.GoogleIdentity, error)
}

// Service applies the account rules on a Store.
type Service struct {
	Store     Store
	Tx        core.Transactor
	Audit     core.AuditLog
	Mail      core.Mailer
	Tokens    auth.Tokens
	OTPSecret []byte
	Google    GoogleVerifier  // nil when GOOGLE_CLIENT_ID is not set
	Admins    map[string]bool // verified e-mails that get the admin role
	// Changed runs in the transaction of a change to what the player's
	// card shows (their Discord name): the lists they are on are told.
	Changed func(ctx context.Context, userID int64) error
	// Avatars keeps a Google account's picture as its avatar; nil skips it.
	Avatars interface {
		SetFromURL(ctx context.Context, userID int64, url string) error
	}
	Log *slog.Logger
}

// Session is what a successful sign-in returns.
type Session struct {
	Token string
	User  User
	Actor core.Actor
}

// Signup creates (or refreshes an unverified) account and e-mails a code.
func (s *Service) Signup(ctx context.Context, in SignupInput) error {
	if err := in.Validate(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return err
	}
	u, err := s.Store.UpsertUnverified(ctx, in.Email, hash, in.DiscordUsername)
	if err != nil {
		return err
	}
	// Pinned under a live code with another password: two people claim the
	// address, so the code verifies only together with the first password.
	if u.PasswordHash != hash && !auth.CheckPassword(u.PasswordHash, in.Password) {
		if err := s.Store.ContestOTP(ctx, u.ID); err != nil {
			return err
		}
	}
	// A code sent within the cooldown is still valid; do not send another.
	if err := s.sendOTP(ctx, u); err != nil && errs.KindOf(err) != errs.RateLimited {
		return err
	}
	return nil
}

// ResendOTP e-mails a fresh code, at most once a minute per account.
func (s *Service) ResendOTP(ctx context.Context, email string) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	u, err := s.Store.FindUserByEmail(ctx, email)
	if errs.KindOf(err) == errs.NotFound {
		return nil // same answer as for a real account: no e-mail enumeration
	} else if err != nil {
		return err
	}
	if u.EmailVerified {
		// The same 200 as for any address; the owner learns the truth in
		// their mailbox, not whoever typed the address.
		if err := s.Mail.Send(ctx, core.Message{
			To:      u.Email,
			Subject: "Your Pitlane account is already verified",
			Text: "Someone asked for a new Pitlane verification code for this address, but it is already " +
				"verified: just log in. If it was not you, you can ignore this e-mail.\n",
		}); err != nil {
			s.Log.Error("sending the already-verified notice failed", slog.Int64("user_id", u.ID), slog.Any("err", err))
		}
		return nil
	}
	return s.sendOTP(ctx, u)
}

func (s *Service) sendOTP(ctx context.Context, u User) error {
	code, err := auth.NewOTP()
	if err != nil {
		return err
	}
	mac := auth.OTPMac(s.OTPSecret, u.ID, code)
	wait, err := s.Store.IssueOTP(ctx, u.ID, mac, OTPTTL, OTPCooldown)
	if err != nil {
		return err
	}
	if wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		return errs.Limited(secs, "Please wait %d seconds before requesting another OTP.", secs)
	}
	err = s.Mail.Send(ctx, core.Message{
		To:      u.Email,
		Subject: "Your Pitlane verification code",
		Text: fmt.Sprintf("Your Pitlane verification code is %s\n\nIt is valid for %d minutes. "+
			"If you did not sign up for Pitlane, ignore this e-mail.\n", code, int(OTPTTL.Minutes())),
	})
	if err != nil {
		s.Log.Error("sending verification e-mail failed", slog.Int64("user_id", u.ID), slog.Any("err", err))
		// No mail, no cooldown: the player may try again at once, and a
		// retry once the mail server is back sends a code.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if werr := s.Store.WithdrawOTP(wctx, u.ID, mac); werr != nil {
			s.Log.Error("withdrawing an unsent code failed", slog.Int64("user_id", u.ID), slog.Any("err", werr))
		}
		return errs.E(errs.Upstream, "We could not send the verification e-mail. Please try again shortly.")
	}
	return nil
}

// MsgSignupChanged answers a verification whose password is not the
// account's: the pending sign-up is not the one the player made.
const MsgSignupContested = "Two sign-ups claim this email. Enter the code together with the password you signed up with."

// MsgSignupChanged answers a verification whose password is not the account's.
const MsgSignupChanged = "This code belongs to a sign-up with another password. Please sign up again once it expires (10 minutes)."

// VerifyOTP checks a code and marks the e-mail verified. A password, when
// given, must be the pending account's: a player verifies only the sign-up
// they made.
func (s *Service) VerifyOTP(ctx context.Context, email, code, password string) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	if !auth.ValidOTPFormat(code) {
		return errs.E(errs.Invalid, MsgBadOTP)
	}
	if password == "" {
		contested, err := s.Store.OTPContested(ctx, email)
		if err != nil {
			return err
		}
		if contested {
			return errs.E(errs.Conflict, MsgSignupContested)
		}
	} else {
		u, err := s.Store.FindUserByEmail(ctx, email)
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return err
		}
		if err == nil && !u.EmailVerified && u.PasswordHash != "" && !auth.CheckPassword(u.PasswordHash, password) {
			return errs.E(errs.Conflict, MsgSignupChanged)
		}
	}
	return s.Store.ConsumeOTP(ctx, email, auth.OTPMaxAttempts, func(userID int64, mac []byte) bool {
		return hmac.Equal(mac, auth.OTPMac(s.OTPSecret, userID, code))
	})
}

// Login checks a password and returns a session.
func (s *Service) Login(ctx context.Context, email, password string) (Session, error) {
	email, err := NormalizeEmail(email)
	if err != nil || password == "" {
		return Session{}, errs.E(errs.Invalid, "Please enter your email and password")
	}
	u, err := s.Store.FindUserByEmail(ctx, email)
	if errs.KindOf(err) == errs.NotFound {
		auth.CheckPassword("", password) // same time as a real check
		return Session{}, errs.E(errs.Unauthorized, MsgWrongCredentials)
	} else if err != nil {
		return Session{}, err
	}
	if !auth.CheckPassword(u.PasswordHash, password) {
		if u.EmailVerified {
			s.record(ctx, core.Actor{}, core.ActionLoginFailed, u, map[string]string{"method": "password"})
		}
		return Session{}, errs.E(errs.Unauthorized, MsgWrongCredentials)
	}
	if !u.EmailVerified {
		return Session{}, errs.E(errs.Forbidden, "Please verify your email before logging in.")
	}
	return s.signIn(ctx, u, "password")
}

// signIn issues a session for u and records the sign-in.
func (s *Service) signIn(ctx context.Context, u User, method string) (Session, error) {
	sess, err := s.session(ctx, u)
	if err != nil {
		return Session{}, err
	}
	s.record(ctx, sess.Actor, core.ActionLogin, u, map[string]string{"method": method})
	return sess, nil
}

// record writes a security event of its own. The sign-in it tells of has
// happened whether or not the log takes it, so a failure is logged, not
// returned.
func (s *Service) record(ctx context.Context, a core.Actor, action string, u User, data any) {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		return s.Audit.Record(ctx, a, action, 0, userTarget(u), data)
	})
	if err != nil {
		s.Log.Warn("recording a security event failed", slog.String("action", action), slog.Int64("user_id", u.ID), slog.Any("err", err))
	}
}

// userTarget names an account in the audit log: its id and display name.
func userTarget(u User) string {
	return "user " + strconv.FormatInt(u.ID, 10) + " (" + u.DisplayName() + ")"
}

// GoogleLogin verifies a Google ID token and signs its account in.
func (s *Service) GoogleLogin(ctx context.Context, credential string) (Session, error) {
	if s.Google == nil {
		return Session{}, errs.E(errs.Unavailable, "Google sign-in is not configured")
	}
	if credential == "" || len(credential) > 8192 {
		return Session{}, errs.E(errs.Unauthorized, MsgGoogleFailed)
	}
	id, err := s.Google.Verify(ctx, credential)
	if errors.Is(err, auth.ErrGoogleUnavailable) {
		s.Log.Warn("google sign-in: key set unreachable", slog.Any("err", err))
		return Session{}, errs.E(errs.Upstream, "Google sign-in is unavailable right now. Please try again shortly.")
	}
	if err != nil {
		return Session{}, errs.E(errs.Unauthorized, MsgGoogleFailed)
	}
	email, err := NormalizeEmail(id.Email)
	if err != nil {
		return Session{}, errs.E(errs.Unauthorized, MsgGoogleFailed)
	}
	u, err := s.Store.UpsertGoogleUser(ctx, id.Subject, email, id.Name)
	if err != nil {
		return Session{}, err
	}
	if u.AvatarURL == "" && id.Picture != "" && s.Avatars != nil {
		// Best effort, bounded: a picture that cannot be fetched costs the
		// player their photo (the initials show), never the sign-in.
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := s.Avatars.SetFromURL(actx, u.ID, id.Picture)
		cancel()
		if err != nil {
			s.Log.Warn("google sign-in: keeping the picture failed", slog.Int64("user_id", u.ID), slog.Any("err", err))
		} else if fresh, err := s.Store.FindUserByID(ctx, u.ID); err == nil {
			u = fresh
		}
	}
	return s.signIn(ctx, u, "google")
}

// ChangePassword sets a new password for the signed-in user and kills
// every older token.
func (s *Service) ChangePassword(ctx context.Context, a core.Actor, current, next, confirm string) (Session, error) {
	if err := a.MustBeUser(); err != nil {
		return Session{}, err
	}
	u, err := s.Store.FindUserByID(ctx, a.UserID)
	if err != nil {
		return Session{}, err
	}
	if u.PasswordHash == "" {
		// A token alone (stolen, or an unlocked browser) must not be able to
		// give a Google account a password that outlives it.
		return Session{}, errs.E(errs.Forbidden, "This account signs in with Google and has no password to change.")
	}
	if !auth.CheckPassword(u.PasswordHash, current) {
		return Session{}, errs.E(errs.Invalid, "Current password is incorrect")
	}
	if next != confirm {
		return Session{}, errs.E(errs.Invalid, MsgPasswordsDiffer)
	}
	if err := ValidatePassword(next); err != nil {
		return Session{}, err
	}
	hash, err := auth.HashPassword(next)
	if err != nil {
		return Session{}, err
	}
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		if u, err = s.Store.UpdatePassword(ctx, a.UserID, hash); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, core.ActionPasswordChanged, 0, userTarget(u), nil)
	})
	if err != nil {
		return Session{}, err
	}
	return s.session(ctx, u)
}

// UpdateDiscord links a Discord username to the signed-in user's account.
func (s *Service) UpdateDiscord(ctx context.Context, a core.Actor, discord string) (User, error) {
	if err := a.MustBeUser(); err != nil {
		return User{}, err
	}
	d, err := NormalizeDiscord(discord)
	if err != nil {
		return User{}, err
	}
	var u User
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if u, err = s.Store.UpdateDiscordUsername(ctx, a.UserID, d); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionDiscordLinked, 0, userTarget(u), map[string]string{"discord": d}); err != nil {
			return err
		}
		if s.Changed != nil {
			return s.Changed(ctx, u.ID)
		}
		return nil
	})
	return u, err
}

// Profile is the signed-in user's own account.
func (s *Service) Profile(ctx context.Context, a core.Actor) (User, error) {
	if err := a.MustBeUser(); err != nil {
		return User{}, err
	}
	return s.Store.FindUserByID(ctx, a.UserID)
}

// ErrUnauthenticated is the answer to any token we cannot accept.
var ErrUnauthenticated = core.ErrUnauthenticated

// Authenticate returns the user of a session token and who they act as:
// signature, expiry and the user's current token version all have to hold.
func (s *Service) Authenticate(ctx context.Context, token string) (User, core.Actor, error) {
	id, version, err := s.Tokens.Parse(token)
	if err != nil {
		return User{}, core.Actor{}, ErrUnauthenticated
	}
	u, err := s.Store.FindUserByID(ctx, id)
	if errs.KindOf(err) == errs.NotFound {
		return User{}, core.Actor{}, ErrUnauthenticated
	} else if err != nil {
		return User{}, core.Actor{}, err
	}
	if u.TokenVersion != version || !u.EmailVerified {
		return User{}, core.Actor{}, ErrUnauthenticated
	}
	a, err := s.Actor(ctx, u)
	return u, a, err
}

// Actor works out who u acts as (core.NewActor): admin from ADMIN_EMAILS for
// a verified address, and from nothing else, so taking an address off the
// list takes the role away; captain from the teams they captain.
func (s *Service) Actor(ctx context.Context, u User) (core.Actor, error) {
	caps, err := s.Store.Captaincies(ctx, u.ID)
	if err != nil {
		return core.Actor{}, err
	}
	return core.NewActor(u.ID, u.DisplayName(), u.EmailVerified && s.Admins[u.Email], caps), nil
}

func (s *Service) session(ctx context.Context, u User) (Session, error) {
	a, err := s.Actor(ctx, u)
	if err != nil {
		return Session{}, err
	}
	tok, err := s.Tokens.Issue(u.ID, u.TokenVersion)
	if err != nil {
		return Session{}, err
	}
	return Session{Token: tok, User: u, Actor: a}, nil
}

// The answers of ConsumeOTP, shared with the store.
var (
	ErrOTPInvalid  = errs.E(errs.Invalid, "Invalid OTP. Please check the code and try again.")
	ErrOTPExpired  = errs.E(errs.Invalid, "OTP has expired. Please request a new one.")
	ErrOTPDead     = &errs.Error{Kind: errs.RateLimited, Message: "Too many wrong attempts. Please request a new OTP.", RetryAfter: int(OTPCooldown.Seconds())}
	ErrOTPVerified = errs.E(errs.Conflict, "This email is already verified. Please login.")
)
