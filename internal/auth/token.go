package auth

import (
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Token settings: who issues our JWTs, for whom, and for how long.
const (
	Issuer   = "pitlane"
	Audience = "pitlane-web"
	TokenTTL = 7 * 24 * time.Hour
)

// ErrBadToken is any token that is not one of ours, expired or tampered.
var ErrBadToken = errors.New("invalid or expired token")

// Claims are the claims of a Pitlane session token.
type Claims struct {
	// Session is the server-side session the token belongs to: ending the
	// session (sign-out, a password change or reset, deletion) ends the
	// token at once.
	Session int64 `json:"sid"`
	jwt.RegisteredClaims
}

// Tokens issues and checks HS256 session tokens.
type Tokens struct {
	Secret []byte
	Now    func() time.Time
}

func (t Tokens) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Issue returns a signed token for userID's session.
func (t Tokens) Issue(userID, session int64) (string, error) {
	now := t.now()
	claims := Claims{
		Session: session,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(userID, 10),
			Issuer:    Issuer,
			Audience:  jwt.ClaimStrings{Audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(TokenTTL)),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.Secret)
}

// Parse checks signature, algorithm, expiry, issuer and audience and returns
// the user id and session.
func (t Tokens) Parse(token string) (userID, session int64, err error) {
	var c Claims
	_, err = jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return t.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuer(Issuer),
		jwt.WithAudience(Audience),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return 0, 0, ErrBadToken
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || id <= 0 || c.Session <= 0 {
		return 0, 0, ErrBadToken
	}
	return id, c.Session, nil
}
