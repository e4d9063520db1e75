package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// Passkeys runs the WebAuthn ceremonies of passkeys used as a second
// factor (go-webauthn): the site's relying party is PUBLIC_URL's host.
type Passkeys struct{ w *webauthn.WebAuthn }

// NewPasskeys sets the relying party up for the site at publicURL.
func NewPasskeys(publicURL string) (*Passkeys, error) {
	u, err := url.Parse(publicURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("passkeys: PUBLIC_URL %q has no host", publicURL)
	}
	w, err := webauthn.New(&webauthn.Config{
		RPDisplayName: "Pitlane",
		RPID:          u.Hostname(),
		RPOrigins:     []string{u.Scheme + "://" + u.Host},
	})
	if err != nil {
		return nil, fmt.Errorf("passkeys: %w", err)
	}
	return &Passkeys{w: w}, nil
}

// PasskeyUser is an account as a ceremony sees it: its id, a name the
// authenticator shows, and the passkeys it has (go-webauthn's Credential
// as JSON).
type PasskeyUser struct {
	ID          int64
	Name        string
	Credentials [][]byte
}

type waUser struct {
	u     PasskeyUser
	creds []webauthn.Credential
}

func (w waUser) WebAuthnID() []byte                         { return []byte("pitlane-user-" + strconv.FormatInt(w.u.ID, 10)) }
func (w waUser) WebAuthnName() string                       { return w.u.Name }
func (w waUser) WebAuthnDisplayName() string                { return w.u.Name }
func (w waUser) WebAuthnCredentials() []webauthn.Credential { return w.creds }

func asUser(u PasskeyUser) (waUser, error) {
	w := waUser{u: u}
	for _, raw := range u.Credentials {
		var c webauthn.Credential
		if err := json.Unmarshal(raw, &c); err != nil {
			return w, fmt.Errorf("passkeys: stored credential: %w", err)
		}
		w.creds = append(w.creds, c)
	}
	return w, nil
}

// ErrPasskey is a ceremony's answer that was not accepted: a wrong or
// unknown passkey, a stale challenge, another site's.
var ErrPasskey = errors.New("the passkey was not accepted")

// BeginRegistration starts adding a passkey: the options for the browser's
// navigator.credentials.create, and the ceremony's state to keep until
// FinishRegistration. The account's passkeys are excluded, so one
// authenticator is not added twice.
func (p *Passkeys) BeginRegistration(u PasskeyUser) (options, state []byte, err error) {
	w, err := asUser(u)
	if err != nil {
		return nil, nil, err
	}
	excl := make([]protocol.CredentialDescriptor, len(w.creds))
	for i := range w.creds {
		excl[i] = w.creds[i].Descriptor()
	}
	creation, session, err := p.w.BeginRegistration(w,
		webauthn.WithExclusions(excl),
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{UserVerification: protocol.VerificationPreferred,
			ResidentKey: protocol.ResidentKeyRequirementPreferred}))
	if err != nil {
		return nil, nil, err
	}
	return marshalPair(creation, session)
}

// FinishRegistration checks the browser's answer against state and returns
// the new credential's id and what to keep of it.
func (p *Passkeys) FinishRegistration(u PasskeyUser, state, response []byte) (id, credential []byte, err error) {
	w, session, err := userAndSession(u, state)
	if err != nil {
		return nil, nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBody(bytes.NewReader(response))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrPasskey, err)
	}
	c, err := p.w.CreateCredential(w, session, parsed)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrPasskey, err)
	}
	credential, err = json.Marshal(c)
	return c.ID, credential, err
}

// BeginAssertion starts using one of the account's passkeys: the options
// for navigator.credentials.get, and the state to keep.
func (p *Passkeys) BeginAssertion(u PasskeyUser) (options, state []byte, err error) {
	w, err := asUser(u)
	if err != nil {
		return nil, nil, err
	}
	assertion, session, err := p.w.BeginLogin(w, webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return nil, nil, err
	}
	return marshalPair(assertion, session)
}

// FinishAssertion checks the browser's answer against state: the passkey
// used, and its credential as updated (its signature counter).
func (p *Passkeys) FinishAssertion(u PasskeyUser, state, response []byte) (id, credential []byte, err error) {
	w, session, err := userAndSession(u, state)
	if err != nil {
		return nil, nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBody(bytes.NewReader(response))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrPasskey, err)
	}
	c, err := p.w.ValidateLogin(w, session, parsed)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrPasskey, err)
	}
	credential, err = json.Marshal(c)
	return c.ID, credential, err
}

func marshalPair(options any, session *webauthn.SessionData) ([]byte, []byte, error) {
	o, err := json.Marshal(options)
	if err != nil {
		return nil, nil, err
	}
	s, err := json.Marshal(session)
	return o, s, err
}

func userAndSession(u PasskeyUser, state []byte) (waUser, webauthn.SessionData, error) {
	w, err := asUser(u)
	if err != nil {
		return w, webauthn.SessionData{}, err
	}
	var session webauthn.SessionData
	if err := json.Unmarshal(state, &session); err != nil {
		return w, session, fmt.Errorf("%w: %v", ErrPasskey, err)
	}
	return w, session, nil
}
