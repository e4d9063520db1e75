package testkit

import (
	"testing"

	"github.com/pitlane/pitlane/internal/auth"
)

// The tests that use testkit sign up and log in thousands of accounts: their
// hashes are made at bcrypt's least cost, which took most of the api suite's
// time at the server's cost of 12. A test of the cost itself, or of how long a
// check takes, asks for the server's own (FullPasswordCost).
func init() {
	if testing.Testing() {
		auth.LowerCostInTests()
	}
}

// FullPasswordCost makes the hashes of the rest of the test at the server's
// own cost, auth.PasswordCost.
func FullPasswordCost(t testing.TB) {
	t.Cleanup(auth.FullCostInTests())
}
