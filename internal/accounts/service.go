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
	Mail      core.MailQueue
	Tokens    auth.Tokens
	OTPSecret []byte
	Google    GoogleVerifier // nil when GOOGLE_CLIENT_ID is not set
	// Discord keeps the proven Discord links; DiscordOAuth is Discord's
	// OAuth2, nil when DISCORD_CLIENT_ID is not set.
	Discord      DiscordStore
	DiscordOAuth DiscordOAuth
	Admins       map[string]bool // verified e-mails that get the admin role
	// RequireSecondFactor (ADMIN_REQUIRE_2FA): the organiser role acts only
	// in sessions that used a second factor. An organiser who enrolled one
	// needs it whatever this says.
	RequireSecondFactor bool
	// Sessions keeps the sessions behind the tokens; Factors the second
	// factors (nil: none can be enrolled).
	Sessions SessionStore
	Factors  FactorStore
	// Events tells the live layer of ended sessions (core.EventSessionEnded).
	Events core.Outbox
	// EmailChanges keeps changes of address; Erasure deletes and exports
	// accounts.
	EmailChanges EmailChangeStore
	Erasure      ErasureStore
	// History redacts an erased account from the live events kept (the
	// outbox, and what the live layer replays); nil keeps them.
	History core.EventHistory
	// Sealer keeps TOTP secrets encrypted at rest.
	Sealer auth.Sealer
	// Passkeys runs WebAuthn ceremonies; nil when passkeys are off.
	Passkeys *auth.Passkeys
	// Changed runs in the transaction of a change to what the player's
	// card shows (their Discord name): the lists they are on are told.
	Changed func(ctx context.Context, userID int64) error
	// Leave withdraws a player whose account is being deleted from the
	// tournaments they may still leave, in the deletion's transaction.
	Leave func(ctx context.Context, a core.Actor) error
	// RotateFeeds gives the account's secret feed addresses (its calendar)
	// new ones, in the transaction of a sign-out everywhere: they are keys
	// like its sessions, on the devices that subscribed. nil: none.
	RotateFeeds func(ctx context.Context, userID int64) error
	// Avatars keeps a Google account's picture as its avatar; nil skips it.
	Avatars interface {
		SetFromURL(ctx context.Context, userID int64, url string) error
	}
	Log *slog.Logger
	// MaySignIn refuses an account banned from the site (by it, its
	// address, its Google or its Discord identity), with the ban's reason
	// and end (internal/moderation); nil: no bans.
	MaySignIn func(ctx context.Context, u User) error
}

// Session is what a successful sign-in returns: the token of a new
// session and who it acts as.
type Session struct {
	Token string
	User  User
	Actor core.Actor
	Auth  Authenticated
}

// Signup creates (or refreshes an unverified) account and e-mails a code. It
// returns how long until another code may be requested for the address. An
// address with a verified account answers the same, and its owner is
// mailed a notice to sign in instead (within the address's cooldown): the
// sign-up form tells nobody which addresses have accounts.
func (s *Service) Signup(ctx context.Context, in SignupInput) (time.Duration, error) {
	if err := in.Validate(); err != nil {
		return 0, err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return 0, err
	}
	u, err := s.Store.UpsertUnverified(ctx, s.address(in.Email), in.Email, hash, in.DiscordUsername)
	if err != nil {
		return 0, err
	}
	iss, err := s.issue(ctx, in.Email, &u, signupNotice)
	if err != nil {
		return 0, err
	}
	if iss.Wait > 0 {
		return iss.Wait, nil // a code sent within the cooldown is still valid
	}
	return iss.Next, nil
}

// Notices to a verified account's address, for a sign-up with it and for a
// code asked for it.
var (
	signupNotice = core.Message{Subject: "Someone tried to sign up to Pitlane with your address",
		Text: "Someone tried to sign up to Pitlane with this address, but it already has an account: nothing changed. " +
			"If it was you, just sign in, or reset your password (\"Forgot password?\" on the sign-in form) if you " +
			"forgot it. If it was not you, you can ignore this e-mail: your account is as it was.\n"}
	resendNotice = core.Message{Subject: "Your Pitlane account is already verified",
		Text: "Someone asked for a new Pitlane verification code for this address, but it is already " +
			"verified: just log in. If it was not you, you can ignore this e-mail.\n"}
)

// ResendOTP e-mails a fresh code to a pending account, a notice to a
// verified one and nothing to an address without an account, and answers
// all three alike: the same cooldown (429), the same message, the same time
// (the mail goes out in the background). It returns how long until another
// code may be requested.
func (s *Service) ResendOTP(ctx context.Context, email string) (time.Duration, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return 0, err
	}
	var pu *User
	u, err := s.Store.FindUserByEmail(ctx, email)
	if err == nil {
		pu = &u
	} else if errs.KindOf(err) != errs.NotFound {
		return 0, err
	}
	iss, err := s.issue(ctx, email, pu, resendNotice)
	if err != nil {
		return 0, err
	}
	if iss.Wait > 0 {
		return 0, waitError(iss.Wait)
	}
	return iss.Next, nil
}

// address names email where codes are kept.
func (s *Service) address(email string) []byte { return auth.AddressMAC(s.OTPSecret, email) }

func waitError(wait time.Duration) error {
	secs := int(math.Ceil(wait.Seconds()))
	return errs.Limited(secs, "Please wait %d seconds before requesting another OTP.", secs)
}

// issue takes the cooldown of email's address for a mail to its account u
// and posts the mail: a code to a pending account, notice to a verified
// one, another notice to a reserved address, nothing when u is nil (no
// account). Whatever it sends, the address's state changes alike.
func (s *Service) issue(ctx context.Context, email string, u *User, notice core.Message) (CodeIssue, error) {
	req := CodeRequest{Purpose: PurposeVerify, TTL: OTPTTL}
	var msg *core.Message
	switch {
	case s.reserved(email, u):
		msg = &core.Message{To: email, Subject: "This address signs in to Pitlane with Google", Text: s.reservedNotice()}
	case u == nil:
	case !u.EmailVerified:
		code, err := auth.NewOTP()
		if err != nil {
			return CodeIssue{}, err
		}
		req.UserID, req.Code = u.ID, auth.OTPMac(s.OTPSecret, u.ID, code)
		msg = &core.Message{To: u.Email, Subject: "Your Pitlane verification code",
			Text: fmt.Sprintf("Your Pitlane verification code is %s\n\nIt is valid for %d minutes. "+
				"If you did not sign up for Pitlane, ignore this e-mail.\n", code, int(OTPTTL.Minutes()))}
	default:
		// The owner learns the truth in their mailbox, not whoever typed
		// the address.
		notice.To = u.Email
		msg = &notice
	}
	return s.post(ctx, email, req, msg)
}

// post takes the cooldown of email's address for req's purpose and, unless
// it is running, sends msg (nil: nothing) in the background. A mail that
// cannot be sent gives its cooldown back.
func (s *Service) post(ctx context.Context, email string, req CodeRequest, msg *core.Message) (CodeIssue, error) {
	addr := s.address(email)
	req.Address, req.Cooldown = addr, Cooldown
	iss, err := s.Store.IssueCode(ctx, req)
	if err != nil || iss.Wait > 0 || msg == nil {
		return iss, err
	}
	s.Mail.Post(*msg, s.withdraw(addr, req.Purpose, iss.SentAt))
	return iss, nil
}

// withdraw is what a mail issued at sentAt does when it cannot be sent: no
// mail, no cooldown, so the player may try again at once, and a retry once
// the mail server is back sends a code. (The queue logs the failure.)
func (s *Service) withdraw(addr []byte, purpose string, sentAt time.Time) func(error) {
	return func(error) {
		wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Store.WithdrawCode(wctx, addr, purpose, sentAt); err != nil {
			s.Log.Error("withdrawing an unsent code failed", slog.Any("err", err))
		}
	}
}

// reserved tells an organiser's address (ADMIN_EMAILS) that no account has
// verified yet: no code is ever mailed to it, since guessing one would make a
// stranger an organiser; only Google sign-in, which proves the address,
// claims it.
func (s *Service) reserved(email string, u *User) bool {
	return s.Admins[email] && (u == nil || !u.EmailVerified)
}

func (s *Service) reservedNotice() string {
	how := "Sign in with Google with this address to claim it."
	if s.Google == nil {
		how = "Google sign-in is not set up on this site: ask its operator to create the account."
	}
	return "Someone asked for a Pitlane verification code for this address. It belongs to an organiser " +
		"and is not verified with codes. " + how + " If it was not you, you can ignore this e-mail.\n"
}

// Cooldown is the wait after the n-th mail of a day to an address: a minute
// for the first three, then doubling from two minutes up to two hours. It
// rises instead of stopping, so whoever else asks for codes, the owner gets
// one within two hours, and an address gets about twenty mails a day at
// most (each code gives OTPMaxAttempts guesses).
func Cooldown(n int) time.Duration {
	if n <= 3 {
		return OTPCooldown
	}
	return min(time.Minute<<(n-3), MaxCooldown)
}

// MaxCooldown is the longest wait between two codes to an address.
const MaxCooldown = 2 * time.Hour

// MsgSignupContested answers a verification without a password of a code
// two sign-ups claimed.
const MsgSignupContested = "Two sign-ups claim this email. Enter the code together with the password you signed up with."

// VerifyOTP checks a code and marks the e-mail verified. Only the address's
// mailbox sees its codes, so whoever enters one is its owner: a password
// given with it becomes the account's, and when it is not the password of
// the pending sign-up (which may be a stranger's), what that sign-up chose
// goes too. Without a password the pending sign-up's stands, unless two
// sign-ups claimed the code. Only a code that matches leads to the password
// or the account: every other answer is the same for every address, and as
// fast.
func (s *Service) VerifyOTP(ctx context.Context, email, code, password string) error {
	email, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	if !auth.ValidOTPFormat(code) {
		return errs.E(errs.Invalid, MsgBadOTP)
	}
	if password != "" {
		if err := ValidatePassword(password); err != nil {
			return err
		}
	}
	reserved, replaced := s.reserved(email, nil), false
	check := CodeCheck{
		Address:     s.address(email),
		Email:       email,
		Purpose:     PurposeVerify,
		MaxAttempts: auth.OTPMaxAttempts,
		Cooldown:    Cooldown,
		Match: func(userID int64, mac []byte) bool {
			// A code mailed before the address was listed does not count.
			return !reserved && hmac.Equal(mac, auth.OTPMac(s.OTPSecret, userID, code))
		},
		Accept: func(u User, contested bool) (Claim, error) {
			switch {
			case password == "" && contested:
				return Claim{}, errs.E(errs.Conflict, MsgSignupContested)
			case password == "" || auth.CheckPassword(u.PasswordHash, password):
				return Claim{}, nil
			}
			hash, err := auth.HashPassword(password)
			replaced = true
			return Claim{PasswordHash: hash, Reset: true}, err
		},
	}
	var res CodeResult
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if res, err = s.Store.CheckCode(ctx, check); err != nil || res.Outcome != CodeVerified {
			return err
		}
		// replaced: the pending sign-up's password was not this one's, and
		// the sign-up went.
		return s.Audit.Record(ctx, core.Actor{}, core.ActionVerified, 0, userTarget(res.User),
			map[string]any{"method": "code", "replaced_sign_up": replaced})
	})
	if err != nil {
		return err
	}
	switch res.Outcome {
	case CodeVerified:
		return nil
	case CodeDead:
		secs := max(1, int(math.Ceil(res.Wait.Seconds())))
		return errs.Limited(secs, "%s", MsgOTPDead)
	}
	return errs.E(errs.Invalid, "%s", WrongCodeMessage(res.Left))
}

// MsgOTPDead answers every try once a code had its wrong tries.
const MsgOTPDead = "Too many wrong attempts. Please request a new OTP."

// WrongCodeMessage answers a wrong, expired or missing code (the same words
// for all three, which an unknown address shares) with the tries left.
func WrongCodeMessage(left int) string {
	switch left {
	case 0:
		return "Invalid or expired OTP. No tries left: please request a new OTP."
	case 1:
		return "Invalid or expired OTP. 1 try left."
	}
	return fmt.Sprintf("Invalid or expired OTP. %d tries left.", left)
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
	return s.signIn(ctx, u, MethodPassword)
}

// signIn issues a session for u and records the sign-in.
func (s *Service) signIn(ctx context.Context, u User, method string) (Session, error) {
	sess, err := s.startSession(ctx, u, method, false)
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

// userTarget names an account in the audit log: its id and display name,
// marked unverified unless it is a proven Discord account's (anyone may type
// "league.organiser").
func userTarget(u User) string {
	name := u.DisplayName()
	if !u.DiscordVerified {
		name += ", unverified"
	}
	return "user " + strconv.FormatInt(u.ID, 10) + " (" + name + ")"
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
	u, err := s.Store.UpsertGoogleUser(ctx, s.address(email), id.Subject, email, CleanName(id.Name))
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
	return s.signIn(ctx, u, MethodGoogle)
}

// ChangePassword sets a new password for the signed-in user and ends
// every other session of the account; the one it is called from goes on.
// An account with a second factor changes it only in a session that used
// the factor.
func (s *Service) ChangePassword(ctx context.Context, au Authenticated, old, next, confirm string) (User, error) {
	a, current := au.Actor, au.Session.ID
	if err := a.MustBeUser(); err != nil {
		return User{}, err
	}
	if err := secondFactorUsed(au); err != nil {
		return User{}, err
	}
	u, err := s.Store.FindUserByID(ctx, a.UserID)
	if err != nil {
		return User{}, err
	}
	if u.PasswordHash == "" {
		// A token alone (stolen, or an unlocked browser) must not be able to
		// give a Google account a password that outlives it.
		return User{}, errs.E(errs.Forbidden, "This account signs in with Google and has no password to change.")
	}
	if !auth.CheckPassword(u.PasswordHash, old) {
		return User{}, errs.E(errs.Invalid, "Current password is incorrect")
	}
	if next != confirm {
		return User{}, errs.E(errs.Invalid, MsgPasswordsDiffer)
	}
	if err := ValidatePassword(next); err != nil {
		return User{}, err
	}
	hash, err := auth.HashPassword(next)
	if err != nil {
		return User{}, err
	}
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		if u, err = s.Store.UpdatePassword(ctx, a.UserID, hash); err != nil {
			return err
		}
		ended, err := s.Sessions.EndSessions(ctx, a.UserID, 0, current)
		if err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionPasswordChanged, 0, userTarget(u), map[string]any{"sessions_ended": len(ended)}); err != nil {
			return err
		}
		return s.endedEvent(ctx, a.UserID, ended)
	})
	return u, err
}

// UpdateDiscord sets the Discord username the signed-in user typed; it stays
// unverified. A proven link is unlinked first (UnlinkDiscord).
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
		// A typed name is a name: it proves nothing and stays unverified.
		if err := s.Audit.Record(ctx, a, core.ActionDiscordNamed, 0, userTarget(u), map[string]any{"discord": d, "verified": false}); err != nil {
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

// Actor works out who u acts as outside any session (the Discord bot acts
// as a member's linked account): admin from ADMIN_EMAILS for a verified
// address, and from nothing else, so taking an address off the list takes
// the role away, unless the organiser role needs a second factor, which no
// such call has used; captain from the teams they captain.
func (s *Service) Actor(ctx context.Context, u User) (core.Actor, error) {
	au, err := s.authenticated(ctx, u, StoredSession{}, false)
	return au.Actor, err
}
