// Package auth holds the credentials of Pitlane accounts: password hashes,
// one-time e-mail codes, the service's own JWTs and Google ID-token checks.
package auth

import (
	"errors"

	"golang.org/x/crypto/bcrypt"
)

// PasswordCost is the bcrypt cost (OWASP ASVS V6: at least 12).
const PasswordCost = 12

// HashPassword returns a bcrypt hash of password.
func HashPassword(password string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	return string(b), err
}

// CheckPassword reports whether password matches hash. An empty hash (a
// Google-only account) never matches.
func CheckPassword(hash, password string) bool {
	if hash == "" {
		// Spend the same time as a real comparison so timing does not tell
		// which e-mails have password accounts.
		bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return false
	}
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password))
	return err == nil && !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword)
}

var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("pitlane-timing-equaliser"), PasswordCost)
