package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
)

// GoogleIdentity is what a verified Google ID token tells us.
type GoogleIdentity struct {
	Subject string // Google's stable user id
	Email   string
	Name    string
	Picture string
}

// GoogleVerifier checks Google ID tokens (from Google Identity Services) on
// the server: signature against Google's key set, audience, issuer, expiry and
// a verified e-mail.
type GoogleVerifier struct {
	verifier *oidc.IDTokenVerifier
}

// NewGoogleVerifier verifies tokens for clientID against the key set at certsURL.
// The key set is fetched lazily and cached by go-oidc.
func NewGoogleVerifier(ctx context.Context, clientID, certsURL string, client *http.Client) *GoogleVerifier {
	if client != nil {
		ctx = oidc.ClientContext(ctx, client)
	}
	keys := oidc.NewRemoteKeySet(ctx, certsURL)
	v := oidc.NewVerifier("https://accounts.google.com", keys, &oidc.Config{
		ClientID: clientID,
		// Google issues both spellings; checked by hand below.
		SkipIssuerCheck: true,
	})
	return &GoogleVerifier{verifier: v}
}

// ErrGoogleToken is any ID token that does not prove a verified Google account.
var ErrGoogleToken = errors.New("google token not verified")

// ErrGoogleUnavailable is Google's key set out of reach: the token may be
// fine, it cannot be checked now.
var ErrGoogleUnavailable = errors.New("google key set unavailable")

// Verify returns the identity in rawToken or ErrGoogleToken.
func (g *GoogleVerifier) Verify(ctx context.Context, rawToken string) (GoogleIdentity, error) {
	tok, err := g.verifier.Verify(ctx, rawToken)
	if err != nil {
		// go-oidc keeps only the text of a key-set failure ("fetching keys
		// oidc: get keys failed: 503 ...").
		if strings.Contains(err.Error(), "fetching keys") {
			return GoogleIdentity{}, fmt.Errorf("%w: %v", ErrGoogleUnavailable, err)
		}
		return GoogleIdentity{}, ErrGoogleToken
	}
	if tok.Issuer != "https://accounts.google.com" && tok.Issuer != "accounts.google.com" {
		return GoogleIdentity{}, ErrGoogleToken
	}
	var c struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"` // Google sends a bool, older tokens a string
		Name          string `json:"name"`
		Picture       string `json:"picture"`
	}
	if err := tok.Claims(&c); err != nil {
		return GoogleIdentity{}, ErrGoogleToken
	}
	if c.Email == "" || !(c.EmailVerified == true || c.EmailVerified == "true") {
		return GoogleIdentity{}, ErrGoogleToken
	}
	return GoogleIdentity{Subject: tok.Subject, Email: c.Email, Name: c.Name, Picture: c.Picture}, nil
}
