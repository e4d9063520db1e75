package auth

import (
	"bytes"
	"testing"
	"time"
)

func TestOTP(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		c, err := NewOTP()
		if err != nil || !ValidOTPFormat(c) {
			t.Fatalf("%q %v", c, err)
		}
		seen[c] = true
	}
	if len(seen) < 190 {
		t.Fatalf("only %d distinct codes in 200", len(seen))
	}
	for _, bad := range []string{"12345", "1234567", "12a456", "１２３４５６"} {
		if ValidOTPFormat(bad) {
			t.Errorf("accepted %q", bad)
		}
	}
	secret := []byte("s")
	if bytes.Equal(OTPMac(secret, 1, "123456"), OTPMac(secret, 2, "123456")) {
		t.Error("a code's MAC does not depend on the user")
	}
}

func TestTokensRoundTrip(t *testing.T) {
	now := time.Now()
	tk := Tokens{Secret: []byte("0123456789abcdef0123456789abcdef"), Now: func() time.Time { return now }}
	tok, _ := tk.Issue(42, 3)
	id, sid, err := tk.Parse(tok)
	if err != nil || id != 42 || sid != 3 {
		t.Fatalf("%d %d %v", id, sid, err)
	}
	later := Tokens{Secret: tk.Secret, Now: func() time.Time { return now.Add(TokenTTL + time.Minute) }}
	if _, _, err := later.Parse(tok); err == nil {
		t.Fatal("expired token accepted")
	}
}

func TestPassword(t *testing.T) {
	h, err := HashPassword("kart-racer-42")
	if err != nil || !CheckPassword(h, "kart-racer-42") || CheckPassword(h, "kart-racer-43") || CheckPassword("", "x") {
		t.Fatal("password check wrong")
	}
}

// A stored password has the server's cost; a test binary may lower it for a
// while, and what it lowered is put back.
func TestPasswordCost(t *testing.T) {
	costOf := func() string {
		h, err := HashPassword("kart-racer-42")
		if err != nil || !CheckPassword(h, "kart-racer-42") {
			t.Fatalf("hash %q: %v", h, err)
		}
		return h[:7]
	}
	if got := costOf(); got != "$2a$12$" {
		t.Fatalf("a server's hash starts %q, want cost 12", got)
	}
	restore := LowerCostInTests()
	if got := costOf(); got != "$2a$04$" || CheckPassword("", "x") {
		t.Fatalf("lowered: %q", got)
	}
	restore()
	if got := costOf(); got != "$2a$12$" {
		t.Fatalf("after restore: %q", got)
	}
}
