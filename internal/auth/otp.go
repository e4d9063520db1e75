package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"math/big"
	"strconv"
)

// OTP rules (docs/api.md, "Accounts").
const (
	OTPLength      = 6
	OTPMaxAttempts = 5
)

// NewOTP returns a uniformly random 6-digit code from crypto/rand.
func NewOTP() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// OTPMac is what the database keeps instead of the code: an HMAC under the
// server secret, bound to the user so a code cannot be moved between accounts.
func OTPMac(secret []byte, userID int64, code string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("otp|" + strconv.FormatInt(userID, 10) + "|" + code))
	return m.Sum(nil)
}

// ValidOTPFormat reports whether code is exactly six ASCII digits.
func ValidOTPFormat(code string) bool {
	if len(code) != OTPLength {
		return false
	}
	for _, c := range code {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// AddressMAC names an e-mail address where codes are kept: an HMAC under the
// server secret, so the table of every address anyone asked a code for
// holds no address.
func AddressMAC(secret []byte, email string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("address|" + email))
	return m.Sum(nil)
}
