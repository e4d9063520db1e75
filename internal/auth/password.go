// Package auth holds the credentials of Pitlane accounts: password hashes,
// one-time e-mail codes, the service's own JWTs and Google ID-token checks.
package auth

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// PasswordCost is the bcrypt cost (OWASP ASVS V6: at least 12). Every hash a
// server makes has it.
const PasswordCost = 12

// cost is the cost new hashes and the timing equaliser use: PasswordCost,
// except in a test binary that lowered it (LowerCostInTests).
var cost atomic.Int32

func init() {
	cost.Store(PasswordCost)
	dummyHash(PasswordCost) // made before the first request needs it
}

// LowerCostInTests makes the hashes of a test binary at bcrypt's least cost
// (4: about a millisecond where 12 takes a quarter of a second, which most of
// a suite's sign-ups and logins spent) and returns what puts the cost back.
// Tests of the cost itself, or of how long a password check takes, keep
// PasswordCost (testkit.FullPasswordCost). Outside a test binary it panics:
// a server's hashes always have PasswordCost.
func LowerCostInTests() (restore func()) {
	return setCostInTests(int32(bcrypt.MinCost))
}

// FullCostInTests puts PasswordCost back in a test binary until restore.
func FullCostInTests() (restore func()) {
	return setCostInTests(PasswordCost)
}

func setCostInTests(c int32) func() {
	if !testing.Testing() {
		panic("auth: the password cost is changed only in tests")
	}
	before := cost.Swap(c)
	return func() { cost.Store(before) }
}

// HashPassword returns a bcrypt hash of password.
func HashPassword(password string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(password), int(cost.Load()))
	return string(b), err
}

// CheckPassword reports whether password matches hash. An empty hash (a
// Google-only account) never matches.
func CheckPassword(hash, password string) bool {
	if hash == "" {
		// Spend the same time as a real comparison so timing does not tell
		// which e-mails have password accounts.
		bcrypt.CompareHashAndPassword(dummyHash(int(cost.Load())), []byte(password))
		return false
	}
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password))
	return err == nil && !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword)
}

// dummyHash is a hash of the given cost that no password matches, made once.
func dummyHash(c int) []byte {
	dummies.Lock()
	defer dummies.Unlock()
	if h, ok := dummies.byCost[c]; ok {
		return h
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("pitlane-timing-equaliser"), c)
	dummies.byCost[c] = h
	return h
}

var dummies = struct {
	sync.Mutex
	byCost map[int][]byte
}{byCost: map[int][]byte{}}
