package accounts

import (
	"context"
	"crypto/hmac"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// EmailChangeTTL is how long the code of a change of address lives, and
// EmailChangeCooldown how long between two of its mails.
const (
	EmailChangeTTL      = 15 * time.Minute
	EmailChangeCooldown = time.Minute
)

// EmailChange is a change of address waiting for its code.
type EmailChange struct {
	NewEmail string
	CodeMAC  []byte // nil: the new address got a notice, not a code
	Live     bool
	Attempts int
}

// EmailChangeStore keeps changes of address.
type EmailChangeStore interface {
	// PutEmailChange replaces the user's pending change unless the last
	// was sent within cooldown (then it says how long is left).
	PutEmailChange(ctx context.Context, userID int64, newEmail string, codeMAC []byte, ttl, cooldown time.Duration) (time.Duration, error)
	// PendingEmailChange locks and returns the user's pending change;
	// NotFound without one.
	PendingEmailChange(ctx context.Context, userID int64) (EmailChange, error)
	// FailEmailChange counts a wrong code.
	FailEmailChange(ctx context.Context, userID int64) error
	// ChangeEmail gives the account its new address and drops the pending
	// change; a Google link (Google names another address) goes. An
	// address another account holds is a Conflict.
	ChangeEmail(ctx context.Context, userID int64, newEmail string) (User, error)
}

// MsgEmailCodeSent answers a request to change one's address, whatever
// the new address is (another account's, an organiser's, free).
const MsgEmailCodeSent = "We sent a code to the new address. Enter it here to confirm the change; it is valid for 15 minutes."

func (s *Service) emailChangeMAC(userID int64, newEmail, code string) []byte {
	return auth.OTPMac(s.OTPSecret, userID, "email|"+newEmail+"|"+code)
}

// RequestEmailChange asks to move the signed-in account to newEmail,
// confirmed with the password, or by a sign-in made in the last ten
// minutes: a token stolen long ago cannot move the account away. An
// account with a second factor asks only from a session that used it.
// A code goes to the new address; an address another account holds, or an
// organiser's nobody has claimed, gets a notice instead, and the answer is
// the same. Either mail takes the new address's cooldown (Cooldown), as
// every mail to an address does, so many accounts asking at once send it
// one.
func (s *Service) RequestEmailChange(ctx context.Context, au Authenticated, newEmail, password string) error {
	if au.User.ID == 0 {
		return ErrUnauthenticated
	}
	if err := secondFactorUsed(au); err != nil {
		return err
	}
	newEmail, err := NormalizeEmail(newEmail)
	if err != nil {
		return err
	}
	if newEmail == au.User.Email {
		return errs.E(errs.Invalid, "That is your address already.")
	}
	if au.User.PasswordHash == "" {
		return errs.E(errs.Conflict, "This account signs in with Google, which names its address. "+
			"Set a password first (\"Forgot password?\" on the sign-in form, with your current address), then change it.")
	}
	switch {
	case password != "":
		if !auth.CheckPassword(au.User.PasswordHash, password) {
			return errs.E(errs.Invalid, MsgPasswordToConfirm)
		}
	case !au.Session.Fresh(time.Now()):
		return errs.E(errs.Invalid, MsgPasswordToConfirm)
	}
	taken := false
	if _, err := s.Store.FindUserByEmail(ctx, newEmail); err == nil {
		taken = true
	} else if errs.KindOf(err) != errs.NotFound {
		return err
	}
	var (
		mac []byte
		msg core.Message
	)
	if taken || s.reserved(newEmail, nil) {
		msg = core.Message{To: newEmail, Subject: "Someone tried to use this address on Pitlane",
			Text: "Someone asked to move a Pitlane account to this address, but it cannot take it " +
				"(it belongs to another account or is kept for an organiser). Nothing changed. " +
				"If it was not you, you can ignore this e-mail.\n"}
	} else {
		code, err := auth.NewOTP()
		if err != nil {
			return err
		}
		mac = s.emailChangeMAC(au.User.ID, newEmail, code)
		msg = core.Message{To: newEmail, Subject: "Confirm your new Pitlane address",
			Text: fmt.Sprintf("Your code to move your Pitlane account to this address is %s\n\nIt is valid for %d minutes. "+
				"If you did not ask for it, ignore this e-mail.\n", code, int(EmailChangeTTL.Minutes()))}
	}
	// The new address's mail cooldown, shared with every mail to it, then
	// the account's own: either running refuses the request and changes
	// nothing.
	addr := s.address(newEmail)
	var iss CodeIssue
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		iss, err = s.Store.IssueCode(ctx, CodeRequest{Address: addr, Purpose: PurposeChange, TTL: EmailChangeTTL, Cooldown: Cooldown})
		if err != nil {
			return err
		}
		if iss.Wait > 0 {
			return waitForCode(iss.Wait)
		}
		wait, err := s.EmailChanges.PutEmailChange(ctx, au.User.ID, newEmail, mac, EmailChangeTTL, EmailChangeCooldown)
		if err != nil {
			return err
		}
		if wait > 0 {
			return waitForCode(wait)
		}
		return s.Audit.Record(ctx, au.Actor, ActionEmailChangeAsked, 0, userTarget(au.User), nil)
	})
	if err != nil {
		return err
	}
	s.Mail.Post(msg, s.withdraw(addr, PurposeChange, iss.SentAt))
	return nil
}

// waitForCode refuses a code asked for within a cooldown.
func waitForCode(wait time.Duration) error {
	secs := int(math.Ceil(wait.Seconds()))
	return errs.Limited(secs, "Please wait %d seconds before asking for another code.", secs)
}

// ConfirmEmailChange moves the account to its new address with the code
// sent there, and tells the old address. An account with a second factor
// confirms only from a session that used it.
func (s *Service) ConfirmEmailChange(ctx context.Context, au Authenticated, code string) (User, error) {
	if au.User.ID == 0 {
		return User{}, ErrUnauthenticated
	}
	if err := secondFactorUsed(au); err != nil {
		return User{}, err
	}
	code = strings.TrimSpace(code)
	if !auth.ValidOTPFormat(code) {
		return User{}, errs.E(errs.Invalid, MsgBadOTP)
	}
	old := au.User
	var (
		u     User
		wrong string // a wrong code: its try is counted, so the transaction commits
	)
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		c, err := s.EmailChanges.PendingEmailChange(ctx, au.User.ID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Conflict, "There is no change of address waiting: ask for a code first.")
		} else if err != nil {
			return err
		}
		if c.Attempts >= auth.OTPMaxAttempts {
			return errs.E(errs.RateLimited, "Too many wrong codes. Ask for a new one.")
		}
		if !c.Live || c.CodeMAC == nil || !hmac.Equal(c.CodeMAC, s.emailChangeMAC(au.User.ID, c.NewEmail, code)) {
			wrong = WrongCodeMessage(auth.OTPMaxAttempts - c.Attempts - 1)
			return s.EmailChanges.FailEmailChange(ctx, au.User.ID)
		}
		if u, err = s.EmailChanges.ChangeEmail(ctx, au.User.ID, c.NewEmail); err != nil {
			return err
		}
		return s.Audit.Record(ctx, au.Actor, ActionEmailChanged, 0, userTarget(u),
			map[string]any{"google_unlinked": old.GoogleID != "" && u.GoogleID == ""})
	})
	if err != nil {
		return User{}, err
	}
	if wrong != "" {
		return User{}, errs.E(errs.Invalid, "%s", wrong)
	}
	s.Mail.Post(core.Message{To: old.Email, Subject: "Your Pitlane address was changed",
		Text: "Your Pitlane account now uses another address (" + maskAddress(u.Email) + "). Codes and notices go there from now on.\n\n" +
			"If you did not do this, tell the league's organisers at once: someone who knew your password has your account.\n"}, nil)
	return u, nil
}

// maskAddress shows enough of an address for its owner to know it:
// "n…@example.com".
func maskAddress(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 1 {
		return "…"
	}
	return email[:1] + "…" + email[at:]
}
