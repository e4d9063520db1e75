package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/errs"
)

// Passkey is a passkey as the profile lists it.
type Passkey struct {
	ID         []byte
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// Ceremony is a WebAuthn ceremony in progress, kept on the server for
// CeremonyTTL: the browser holds only its id.
type Ceremony struct {
	ID     string
	UserID int64
	Kind   string // "register" or "assert"
	State  []byte
}

// CeremonyTTL is how long a passkey prompt may stay open.
const CeremonyTTL = 5 * time.Minute

// PasskeyStore keeps passkeys and the ceremonies that add and use them.
type PasskeyStore interface {
	Passkeys(ctx context.Context, userID int64) ([]Passkey, [][]byte, error)
	AddPasskey(ctx context.Context, userID int64, id []byte, name string, credential []byte) error
	// UsePasskey stores a passkey's credential as the ceremony updated it.
	UsePasskey(ctx context.Context, userID int64, id []byte, credential []byte) error
	DeletePasskey(ctx context.Context, userID int64, id []byte) error
	PutCeremony(ctx context.Context, c Ceremony, ttl time.Duration) error
	// TakeCeremony returns and deletes a live ceremony of userID's of kind;
	// NotFound when there is none (expired, used, another's).
	TakeCeremony(ctx context.Context, userID int64, id, kind string) (Ceremony, error)
}

// PasskeyPrompt is what the browser needs to ask the authenticator.
type PasskeyPrompt struct {
	Ceremony string
	Options  []byte // JSON: navigator.credentials.create's or get's options
}

func (s *Service) passkeysOn() error {
	if s.Passkeys == nil || s.Factors == nil {
		return errs.E(errs.Unavailable, "Passkeys are not available on this site.")
	}
	return nil
}

func (s *Service) passkeyUser(ctx context.Context, u User) (auth.PasskeyUser, []Passkey, error) {
	keys, creds, err := s.Factors.Passkeys(ctx, u.ID)
	return auth.PasskeyUser{ID: u.ID, Name: u.DisplayName(), Credentials: creds}, keys, err
}

func newCeremonyID() string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// BeginAddPasskey starts adding a passkey to an organiser's account, after
// the same proof of identity as a TOTP (reconfirm).
func (s *Service) BeginAddPasskey(ctx context.Context, au Authenticated, password string) (PasskeyPrompt, error) {
	if err := s.passkeysOn(); err != nil {
		return PasskeyPrompt{}, err
	}
	if err := s.mayEnrol(au); err != nil {
		return PasskeyPrompt{}, err
	}
	if err := s.reconfirm(au, password); err != nil {
		return PasskeyPrompt{}, err
	}
	pu, keys, err := s.passkeyUser(ctx, au.User)
	if err != nil {
		return PasskeyPrompt{}, err
	}
	if len(keys) >= MaxPasskeys {
		return PasskeyPrompt{}, errs.E(errs.Conflict, "An account holds at most %d passkeys: remove one first.", MaxPasskeys)
	}
	options, state, err := s.Passkeys.BeginRegistration(pu)
	if err != nil {
		return PasskeyPrompt{}, err
	}
	return s.startCeremony(ctx, au.User.ID, "register", options, state)
}

// startCeremony keeps a ceremony's state for CeremonyTTL and gives the
// browser its id with the options.
func (s *Service) startCeremony(ctx context.Context, userID int64, kind string, options, state []byte) (PasskeyPrompt, error) {
	c := Ceremony{ID: newCeremonyID(), UserID: userID, Kind: kind, State: state}
	if err := s.Factors.PutCeremony(ctx, c, CeremonyTTL); err != nil {
		return PasskeyPrompt{}, err
	}
	return PasskeyPrompt{Ceremony: c.ID, Options: options}, nil
}

// MaxPasskeys bounds an account's passkeys.
const MaxPasskeys = 10

// FinishAddPasskey keeps the passkey the browser made, named by the player;
// the session counts as having used a second factor.
func (s *Service) FinishAddPasskey(ctx context.Context, au Authenticated, ceremony, name string, response []byte) (Authenticated, error) {
	if err := s.passkeysOn(); err != nil {
		return au, err
	}
	if err := s.mayEnrol(au); err != nil {
		return au, err
	}
	name = CleanName(name)
	if name == "" {
		name = "Passkey"
	}
	if utf8.RuneCountInString(name) > 40 {
		return au, errs.E(errs.Invalid, "A passkey's name is at most 40 characters")
	}
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		id, cred, err := s.finishCeremony(ctx, au, ceremony, "register", response, s.Passkeys.FinishRegistration,
			"The passkey could not be added: try again.")
		if err != nil {
			return err
		}
		if err := s.Factors.AddPasskey(ctx, au.User.ID, id, name, cred); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, au.Actor, ActionSecondFactorAdded, 0, userTarget(au.User),
			map[string]any{"kind": "passkey", "name": name}); err != nil {
			return err
		}
		au.Session, err = s.Sessions.MarkSecondFactor(ctx, au.User.ID, au.Session.ID)
		return err
	})
	if err != nil {
		return au, err
	}
	return s.authenticated(ctx, au.User, au.Session, true)
}

// finishCeremony takes the ceremony of kind au started and has finish
// check the browser's answer against it (refusal answering one it does not
// accept): the passkey's id and credential as it now stands.
func (s *Service) finishCeremony(ctx context.Context, au Authenticated, ceremony, kind string, response []byte,
	finish func(u auth.PasskeyUser, state, response []byte) ([]byte, []byte, error), refusal string) ([]byte, []byte, error) {
	c, err := s.Factors.TakeCeremony(ctx, au.User.ID, ceremony, kind)
	if errs.KindOf(err) == errs.NotFound {
		return nil, nil, errs.E(errs.Conflict, "This passkey prompt has expired: start again.")
	} else if err != nil {
		return nil, nil, err
	}
	pu, _, err := s.passkeyUser(ctx, au.User)
	if err != nil {
		return nil, nil, err
	}
	id, cred, err := finish(pu, c.State, response)
	if errors.Is(err, auth.ErrPasskey) {
		s.Log.Info("passkey refused", "user_id", au.User.ID, "ceremony", kind, "err", err)
		return nil, nil, errs.E(errs.Invalid, "%s", refusal)
	}
	return id, cred, err
}

// BeginPasskey starts using one of the account's passkeys as the session's
// second factor.
func (s *Service) BeginPasskey(ctx context.Context, au Authenticated) (PasskeyPrompt, error) {
	if err := s.passkeysOn(); err != nil {
		return PasskeyPrompt{}, err
	}
	if au.User.ID == 0 {
		return PasskeyPrompt{}, ErrUnauthenticated
	}
	pu, keys, err := s.passkeyUser(ctx, au.User)
	if err != nil {
		return PasskeyPrompt{}, err
	}
	if len(keys) == 0 {
		return PasskeyPrompt{}, errs.E(errs.Conflict, "This account has no passkey.")
	}
	options, state, err := s.Passkeys.BeginAssertion(pu)
	if err != nil {
		return PasskeyPrompt{}, err
	}
	return s.startCeremony(ctx, au.User.ID, "assert", options, state)
}

// FinishPasskey checks the passkey's answer and marks the session.
func (s *Service) FinishPasskey(ctx context.Context, au Authenticated, ceremony string, response []byte) (Authenticated, error) {
	if err := s.passkeysOn(); err != nil {
		return au, err
	}
	if au.User.ID == 0 {
		return au, ErrUnauthenticated
	}
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		id, cred, err := s.finishCeremony(ctx, au, ceremony, "assert", response, s.Passkeys.FinishAssertion, "That passkey was not accepted.")
		if err != nil {
			return err
		}
		if err := s.Factors.UsePasskey(ctx, au.User.ID, id, cred); err != nil {
			return err
		}
		return s.secondFactorUsed(ctx, &au, "passkey")
	})
	if err != nil {
		return au, err
	}
	return s.authenticated(ctx, au.User, au.Session, true)
}

// ListPasskeys lists the signed-in user's passkeys.
func (s *Service) ListPasskeys(ctx context.Context, au Authenticated) ([]Passkey, error) {
	if au.User.ID == 0 {
		return nil, ErrUnauthenticated
	}
	if s.Factors == nil {
		return []Passkey{}, nil
	}
	keys, _, err := s.Factors.Passkeys(ctx, au.User.ID)
	return keys, err
}

// RemovePasskey deletes one of the account's passkeys; the session must
// have used a second factor.
func (s *Service) RemovePasskey(ctx context.Context, au Authenticated, id []byte) (Authenticated, error) {
	return s.removeFactor(ctx, au, "passkey", func(ctx context.Context) error { return s.Factors.DeletePasskey(ctx, au.User.ID, id) })
}

// PasskeyID reads a passkey's id as the API writes it (base64url).
func PasskeyID(s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil || len(b) == 0 || len(b) > 1023 {
		return nil, errs.E(errs.NotFound, "No such passkey")
	}
	return b, nil
}
