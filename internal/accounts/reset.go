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
// and is not refused (the answer must not differ).
func (s *Service) RequestPasswordReset(ctx context.Context, email string) (time.Duration, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return 0, err
	}
	req := CodeRequest{Purpose: PurposeReset, TTL: ResetTTL}
	var msg *core.Message
	u, err := s.Store.FindUserByEmail(ctx, email)
	switch {
	case errs.KindOf(err) == errs.NotFound:
	case err != nil:
		return 0, err
	case !u.EmailVerified:
		if !s.reserved(email, &u) {
			msg = &core.Message{To: u.Email, Subject: "Finish signing up to Pitlane",
				Text: "Someone asked to reset the password of a Pitlane account with this address, but its sign-up " +
					"was never finished. Sign up again with this address to choose a password and get a new code. " +
					"If it was not you, you can ignore this e-mail.\n"}
		}
	default:
		code, err := auth.NewOTP()
		if err != nil {
			return 0, err
		}
		req.UserID, req.Code = u.ID, s.resetMAC(u.ID, code)
		msg = &core.Message{To: u.Email, Subject: "Your Pitlane password reset code",
			Text: fmt.Sprintf("Your Pitlane password reset code is %s\n\nIt is valid for %d minutes and works once. "+
				"Resetting the password signs your account out everywhere.\n\n"+
				"If you did not ask for it, ignore this e-mail: your password stays as it is.\n", code, int(ResetTTL.Minutes()))}
	}
	iss, err := s.post(ctx, email, req, msg)
	if err != nil {
		return 0, err
	}
	if msg != nil && iss.Wait == 0 && req.Code != nil {
		s.record(ctx, core.Actor{}, ActionResetRequested, u, nil)
	}
	if iss.Wait > 0 {
		return iss.Wait, nil
	}
	return iss.Next, nil
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
