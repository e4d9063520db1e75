package accounts

import (
	"context"
	"crypto/hmac"
	"fmt"
	"math"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// ResetTTL is how long a password reset's code lives.
const ResetTTL = 15 * time.Minute

// MsgResetSent answers every reset request, whether or not the address has
// an account: only its mailbox learns which.
const MsgResetSent = "If an account uses this address, a code to reset its password is on its way. It is valid for 15 minutes."

// MsgPasswordReset answers a reset that went through.
const MsgPasswordReset = "Your password has been reset. Every other session of your account has been signed out."

// resetMAC binds a reset's code to the account and its purpose.
func (s *Service) resetMAC(userID int64, code string) []byte {
	return auth.OTPMac(s.OTPSecret, userID, "reset|"+code)
}

// RequestPasswordReset mails a code to a verified account's address and
// answers alike for every address: a notice to a pending sign-up, nothing
// to an address without an account (or an organiser's address nobody has
// claimed), each taking the address's cooldown. It returns how long until
// another code may be asked for; a request in the cooldown sends nothing
// and is not refused (the answer must not differ). Before it answers, it
// does the same work for every address (the cooldown, a mail queued):
// which mail, if any, and the code are worked out after the answer
// (resetMail), so its time tells nothing either.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) (time.Duration, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return 0, err
	}
	addr := s.address(email)
	iss, err := s.Store.IssueCode(ctx, CodeRequest{Address: addr, Purpose: PurposeReset, TTL: ResetTTL, Cooldown: Cooldown})
	if err != nil {
		return 0, err
	}
	if iss.Wait > 0 {
		return iss.Wait, nil
	}
	s.Mail.Compose(func(ctx context.Context) (*core.Message, error) { return s.resetMail(ctx, email, addr, iss.SentAt) },
		s.withdraw(addr, PurposeReset, iss.SentAt))
	return iss.Next, nil
}

// resetMail is the mail a reset request issued at sentAt sends to email: a
// code for a verified account, attached to the issue if it is still the
// address's last; a notice for a sign-up never finished; none otherwise.
func (s *Service) resetMail(ctx context.Context, email string, addr []byte, sentAt time.Time) (*core.Message, error) {
	u, err := s.Store.FindUserByEmail(ctx, email)
	switch {
	case errs.KindOf(err) == errs.NotFound:
		return nil, nil
	case err != nil:
		return nil, err
	case !u.EmailVerified:
		if s.reserved(email, &u) {
			return nil, nil
		}
		return &core.Message{To: u.Email, Subject: "Finish signing up to Pitlane",
			Text: "Someone asked to reset the password of a Pitlane account with this address, but its sign-up " +
				"was never finished. Sign up again with this address to choose a password and get a new code. " +
				"If it was not you, you can ignore this e-mail.\n"}, nil
	}
	code, err := auth.NewOTP()
	if err != nil {
		return nil, err
	}
	attached := false
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if attached, err = s.Store.AttachCode(ctx, addr, PurposeReset, sentAt, u.ID, s.resetMAC(u.ID, code)); err != nil || !attached {
			return err
		}
		return s.Audit.Record(ctx, core.Actor{}, ActionResetRequested, 0, userTarget(u), nil)
	})
	if err != nil || !attached {
		return nil, err // a later request took the address's turn: its own mail goes
	}
	return &core.Message{To: u.Email, Subject: "Your Pitlane password reset code",
		Text: fmt.Sprintf("Your Pitlane password reset code is %s\n\nIt is valid for %d minutes and works once. "+
			"Resetting the password signs your account out everywhere.\n\n"+
			"If you did not ask for it, ignore this e-mail: your password stays as it is.\n", code, int(ResetTTL.Minutes()))}, nil
}

// ResetPassword sets a new password with the mailed code and ends every
// session of the account; it signs this browser in with a new one. Wrong
// codes count as a sign-up's do, and an address without an account answers
// as one with a wrong code.
func (s *Service) ResetPassword(ctx context.Context, email, code, password string) (Session, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return Session{}, err
	}
	if !auth.ValidOTPFormat(code) {
		return Session{}, errs.E(errs.Invalid, MsgBadOTP)
	}
	if err := ValidatePassword(password); err != nil {
		return Session{}, err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return Session{}, err
	}
	check := CodeCheck{
		Address: s.address(email), Email: email, Purpose: PurposeReset, MaxAttempts: auth.OTPMaxAttempts, Cooldown: Cooldown,
		Match:  func(userID int64, mac []byte) bool { return hmac.Equal(mac, s.resetMAC(userID, code)) },
		Accept: func(User, bool) (Claim, error) { return Claim{}, nil },
	}
	var (
		res   CodeResult
		ended []int64
	)
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if res, err = s.Store.CheckCode(ctx, check); err != nil || res.Outcome != CodeVerified {
			return err
		}
		if res.User, err = s.Store.UpdatePassword(ctx, res.User.ID, hash); err != nil {
			return err
		}
		if ended, err = s.Sessions.EndSessions(ctx, res.User.ID, 0, 0); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, core.Actor{}, ActionPasswordReset, 0, userTarget(res.User),
			map[string]any{"sessions_ended": len(ended)}); err != nil {
			return err
		}
		return s.endedEvent(ctx, res.User.ID, ended)
	})
	if err != nil {
		return Session{}, err
	}
	switch res.Outcome {
	case CodeVerified:
		return s.startSession(ctx, res.User, MethodReset, false)
	case CodeDead:
		secs := max(1, int(math.Ceil(res.Wait.Seconds())))
		return Session{}, errs.Limited(secs, "%s", MsgOTPDead)
	}
	return Session{}, errs.E(errs.Invalid, "%s", WrongCodeMessage(res.Left))
}
