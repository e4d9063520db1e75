package testkit

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Google is a fake of Google's ID-token key set: it serves a JWKS and signs
// tokens with the matching key, so the real go-oidc verification runs.
type Google struct {
	ClientID string
	CertsURL string
	key      *rsa.PrivateKey
	down     atomic.Bool
}

// Down makes the key set answer 503, as during an outage at Google, until
// called with false.
func (g *Google) Down(on bool) { g.down.Store(on) }

// NewGoogle serves a key set on loopback for the test's life.
func NewGoogle(t testing.TB) *Google {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	g := &Google{ClientID: "pitlane-test.apps.googleusercontent.com", key: key}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.down.Load() {
			http.Error(w, "backend unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "alg": "RS256", "use": "sig", "kid": "test-key",
			"n": base64.RawURLEncoding.EncodeToString(key.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(key.E)).Bytes()),
		}}})
	}))
	t.Cleanup(srv.Close)
	g.CertsURL = srv.URL
	return g
}

// Claims returns valid claims for a verified account; tests change them.
func (g *Google) Claims(sub, email string) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"iss": "https://accounts.google.com", "aud": g.ClientID, "sub": sub,
		"email": email, "email_verified": true, "name": "Google Racer",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// Sign makes an RS256 ID token of claims with the key set's key.
func (g *Google) Sign(t testing.TB, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = "test-key"
	s, err := tok.SignedString(g.key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// SignWithOtherKey signs with a key the key set does not hold.
func (g *Google) SignWithOtherKey(t testing.TB, claims jwt.MapClaims) string {
	t.Helper()
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = "test-key"
	s, err := tok.SignedString(other)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
