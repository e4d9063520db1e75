package accounts

import (
	"context"
	"strconv"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/errs"
)

// Factors are the second factors an account has.
type Factors struct {
	TOTP         bool // confirmed
	Passkeys     int
	RecoveryLeft int
}

// Any tells whether the account has a second factor to use.
func (f Factors) Any() bool { return f.TOTP || f.Passkeys > 0 }

// TOTPFactor is an account's TOTP secret as kept: sealed.
type TOTPFactor struct {
	Sealed    []byte
	Confirmed bool
	LastStep  int64
}

// FactorStore keeps second factors.
type FactorStore interface {
	FactorsOf(ctx context.Context, userID int64) (Factors, error)
	// PutTOTP keeps a new, unconfirmed secret, replacing an unconfirmed
	// one; a confirmed one is a Conflict.
	PutTOTP(ctx context.Context, userID int64, sealed []byte) error
	// TOTPOf is the account's secret, NotFound without one.
	TOTPOf(ctx context.Context, userID int64) (TOTPFactor, error)
	// UseTOTPStep confirms the secret and records step as its last used,
	// if step is later than the last: false when it is not (a code used
	// twice).
	UseTOTPStep(ctx context.Context, userID, step int64) (bool, error)
	DeleteTOTP(ctx context.Context, userID int64) error
	ReplaceRecoveryCodes(ctx context.Context, userID int64, macs [][]byte) error
	// UseRecoveryCode spends the code with mac: false when there is none.
	UseRecoveryCode(ctx context.Context, userID int64, mac []byte) (bool, error)
	PasskeyStore
}

// Messages of the second factor.
const (
	MsgSecondFactorOnlyOrganisers = "Two-step sign-in is for organisers' and co-organisers' accounts."
	MsgBadSecondFactor            = "That code is not right. Enter the current code from your authenticator app, or a recovery code."
	MsgUseSecondFactorFirst       = "This account has two-step sign-in: confirm this session with your authenticator app, a recovery code or a passkey first."
	// MsgPasswordToConfirm answers a missing or wrong password where one
	// confirms a change (400, like a wrong current password: a typo is not
	// a lost session, which the app would sign out of).
	MsgPasswordToConfirm = "Enter your password to confirm."
)

// mayEnrol says whether au's account may have second factors: an
// organiser's (ADMIN_EMAILS) or a co-organiser's, whose powers they
// protect.
func (s *Service) mayEnrol(au Authenticated) error {
	if au.User.ID == 0 {
		return ErrUnauthenticated
	}
	if s.Factors == nil || !(au.User.EmailVerified && (s.Admins[au.User.Email] || len(au.Staff) > 0)) {
		return errs.E(errs.Forbidden, MsgSecondFactorOnlyOrganisers)
	}
	return nil
}

// secondFactorUsed is the rule for every change that could take an
// account from its owner (its second factors, its password, its address,
// its deletion): once the account has a second factor, only a session that
// used it may make one. A password alone, which a thief may hold, is not
// enough then; the session confirms with POST /api/auth/2fa/verify or a
// passkey, and tries again.
func secondFactorUsed(au Authenticated) error {
	if au.HasSecondFactor && au.Session.SecondFactorAt == nil {
		return errs.E(errs.Forbidden, MsgUseSecondFactorFirst)
	}
	return nil
}

// reconfirm asks for proof that whoever holds the session is the account's
// owner before a change to its second factors: the second factor itself
// when there is one (used in this session), else the password, else (an
// account without one, such as Google's) a sign-in made in the last ten
// minutes.
func (s *Service) reconfirm(au Authenticated, password string) error {
	switch {
	case au.HasSecondFactor:
		return secondFactorUsed(au)
	case au.User.PasswordHash != "":
		if password == "" || !auth.CheckPassword(au.User.PasswordHash, password) {
			return errs.E(errs.Invalid, MsgPasswordToConfirm)
		}
		return nil
	case !au.Session.Fresh(time.Now()):
		return errs.E(errs.Forbidden, "Sign in again to confirm it is you (this account has no password).")
	}
	return nil
}

// BeginTOTP makes a TOTP secret for the organiser's account, kept until a
// first code from the app confirms it.
func (s *Service) BeginTOTP(ctx context.Context, au Authenticated, password string) (auth.TOTPKey, error) {
	if err := s.mayEnrol(au); err != nil {
		return auth.TOTPKey{}, err
	}
	if err := s.reconfirm(au, password); err != nil {
		return auth.TOTPKey{}, err
	}
	key, err := auth.NewTOTP("Pitlane", au.User.DisplayName())
	if err != nil {
		return auth.TOTPKey{}, err
	}
	if err := s.Factors.PutTOTP(ctx, au.User.ID, s.Sealer.Seal([]byte(key.Secret), totpLabel(au.User.ID))); err != nil {
		return auth.TOTPKey{}, err
	}
	return key, nil
}

func totpLabel(userID int64) string { return "totp|" + strconv.FormatInt(userID, 10) }

// ConfirmTOTP turns the new secret on with a first code from the app. The
// session counts as having used it, and the account gets recovery codes,
// shown this once, when it has none.
func (s *Service) ConfirmTOTP(ctx context.Context, au Authenticated, code string) (Authenticated, []string, error) {
	if err := s.mayEnrol(au); err != nil {
		return au, nil, err
	}
	var codes []string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		f, err := s.Factors.TOTPOf(ctx, au.User.ID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Conflict, "Start setting up the authenticator app first.")
		} else if err != nil {
			return err
		}
		if f.Confirmed {
			return errs.E(errs.Conflict, "An authenticator app is set up already: remove it first to set up another.")
		}
		if err := s.useTOTP(ctx, au.User.ID, f, code); err != nil {
			return err
		}
		have, err := s.Factors.FactorsOf(ctx, au.User.ID)
		if err != nil {
			return err
		}
		if have.RecoveryLeft == 0 {
			if codes, err = s.replaceRecovery(ctx, au.User.ID); err != nil {
				return err
			}
		}
		if au.Session, err = s.Sessions.MarkSecondFactor(ctx, au.User.ID, au.Session.ID); err != nil {
			return err
		}
		return s.Audit.Record(ctx, au.Actor, ActionSecondFactorAdded, 0, userTarget(au.User), map[string]any{"kind": "totp"})
	})
	if err != nil {
		return au, nil, err
	}
	au, err = s.authenticated(ctx, au.User, au.Session, true)
	return au, codes, err
}

// useTOTP checks code against the sealed secret f and spends its step.
func (s *Service) useTOTP(ctx context.Context, userID int64, f TOTPFactor, code string) error {
	secret, err := s.Sealer.Open(f.Sealed, totpLabel(userID))
	if err != nil {
		return errs.Wrap(errs.E(errs.Internal, "The authenticator app's secret cannot be read: ask the site's operator."), err)
	}
	step, ok := auth.CheckTOTP(string(secret), code, time.Now(), f.LastStep)
	if !ok {
		return errs.E(errs.Invalid, MsgBadSecondFactor)
	}
	if fresh, err := s.Factors.UseTOTPStep(ctx, userID, step); err != nil {
		return err
	} else if !fresh {
		return errs.E(errs.Invalid, MsgBadSecondFactor)
	}
	return nil
}

func (s *Service) replaceRecovery(ctx context.Context, userID int64) ([]string, error) {
	codes := auth.NewRecoveryCodes(auth.RecoveryCodeCount)
	macs := make([][]byte, len(codes))
	for i, c := range codes {
		macs[i] = auth.RecoveryMAC(s.OTPSecret, userID, c)
	}
	return codes, s.Factors.ReplaceRecoveryCodes(ctx, userID, macs)
}

// VerifySecondFactor lets the session use a second factor: a code from the
// authenticator app, or one of the recovery codes (spent). The session
// then acts with the organiser role if the account has it.
func (s *Service) VerifySecondFactor(ctx context.Context, au Authenticated, code string) (Authenticated, error) {
	if au.User.ID == 0 {
		return au, ErrUnauthenticated
	}
	if s.Factors == nil || !au.HasSecondFactor {
		return au, errs.E(errs.Conflict, "This account has no second factor set up.")
	}
	kind := "totp"
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		err := errs.Error{Kind: errs.Invalid, Message: MsgBadSecondFactor}
		used := false
		if f, ferr := s.Factors.TOTPOf(ctx, au.User.ID); ferr == nil && f.Confirmed && auth.ValidOTPFormat(code) {
			if uerr := s.useTOTP(ctx, au.User.ID, f, code); uerr == nil {
				used = true
			} else if errs.KindOf(uerr) != errs.Invalid {
				return uerr
			}
		} else if ferr != nil && errs.KindOf(ferr) != errs.NotFound {
			return ferr
		}
		if !used && !auth.ValidOTPFormat(code) {
			ok, rerr := s.Factors.UseRecoveryCode(ctx, au.User.ID, auth.RecoveryMAC(s.OTPSecret, au.User.ID, code))
			if rerr != nil {
				return rerr
			}
			used, kind = ok, "recovery code"
		}
		if !used {
			return &err
		}
		return s.secondFactorUsed(ctx, &au, kind)
	})
	if err != nil {
		return au, err
	}
	return s.authenticated(ctx, au.User, au.Session, true)
}

// secondFactorUsed marks au's session and audits the use, in the caller's
// transaction.
func (s *Service) secondFactorUsed(ctx context.Context, au *Authenticated, kind string) error {
	var err error
	if au.Session, err = s.Sessions.MarkSecondFactor(ctx, au.User.ID, au.Session.ID); err != nil {
		return err
	}
	return s.Audit.Record(ctx, au.Actor, ActionSecondFactorUsed, 0, userTarget(au.User), map[string]any{"kind": kind})
}

// RemoveTOTP turns the authenticator app off; the session must have used a
// second factor.
func (s *Service) RemoveTOTP(ctx context.Context, au Authenticated) (Authenticated, error) {
	return s.removeFactor(ctx, au, "totp", func(ctx context.Context) error { return s.Factors.DeleteTOTP(ctx, au.User.ID) })
}

// removeFactor removes one of the account's second factors (remove) with
// its audit entry, once the session has used one, and works out again who
// the session acts as (with no factor left, the organiser's role may need
// none).
func (s *Service) removeFactor(ctx context.Context, au Authenticated, kind string, remove func(ctx context.Context) error) (Authenticated, error) {
	if err := s.mayEnrol(au); err != nil {
		return au, err
	}
	if err := s.reconfirm(au, ""); err != nil {
		return au, err
	}
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		if err := remove(ctx); err != nil {
			return err
		}
		return s.Audit.Record(ctx, au.Actor, ActionSecondFactorRemoved, 0, userTarget(au.User), map[string]any{"kind": kind})
	})
	if err != nil {
		return au, err
	}
	has, err := s.hasSecondFactor(ctx, au.User.ID)
	if err != nil {
		return au, err
	}
	return s.authenticated(ctx, au.User, au.Session, has)
}

// NewRecoveryCodes replaces the account's recovery codes (shown this once);
// the session must have used a second factor.
func (s *Service) NewRecoveryCodes(ctx context.Context, au Authenticated) ([]string, error) {
	if err := s.mayEnrol(au); err != nil {
		return nil, err
	}
	if !au.HasSecondFactor {
		return nil, errs.E(errs.Forbidden, MsgUseSecondFactorFirst)
	}
	if err := secondFactorUsed(au); err != nil {
		return nil, err
	}
	var codes []string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if codes, err = s.replaceRecovery(ctx, au.User.ID); err != nil {
			return err
		}
		return s.Audit.Record(ctx, au.Actor, ActionSecondFactorAdded, 0, userTarget(au.User), map[string]any{"kind": "recovery codes"})
	})
	return codes, err
}

// SecondFactorStatus is what the profile shows of second factors.
type SecondFactorStatus struct {
	Available bool // the account may enrol (an organiser's)
	Required  bool // ADMIN_REQUIRE_2FA
	Factors
	// SessionVerified: this session used one.
	SessionVerified bool
}

// SecondFactors tells the signed-in user where their second factors stand.
func (s *Service) SecondFactors(ctx context.Context, au Authenticated) (SecondFactorStatus, error) {
	st := SecondFactorStatus{Available: s.mayEnrol(au) == nil, Required: s.RequireSecondFactor,
		SessionVerified: au.Session.SecondFactorAt != nil}
	if s.Factors == nil || au.User.ID == 0 || !(st.Available || au.HasSecondFactor) {
		return st, nil // a player's account: nothing to read
	}
	f, err := s.Factors.FactorsOf(ctx, au.User.ID)
	st.Factors = f
	return st, err
}
