package auth

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"image/png"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTP settings: what every authenticator app assumes (RFC 6238: SHA-1, six
// digits, 30-second steps), one step of clock drift either way.
const (
	TOTPPeriod = 30
	TOTPSkew   = 1
)

var totpOpts = totp.ValidateOpts{Period: TOTPPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// TOTPKey is a new TOTP secret with what an authenticator app needs to take
// it: the otpauth:// URL and that URL as a QR code (a PNG data URL).
type TOTPKey struct {
	Secret string
	URL    string
	QR     string
}

// NewTOTP makes a secret for account (the name the app shows) at issuer.
func NewTOTP(issuer, account string) (TOTPKey, error) {
	k, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: TOTPPeriod,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return TOTPKey{}, err
	}
	img, err := k.Image(240, 240)
	if err != nil {
		return TOTPKey{}, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return TOTPKey{}, err
	}
	return TOTPKey{Secret: k.Secret(), URL: k.URL(),
		QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// CheckTOTP finds the time step at which code is secret's code, within the
// allowed drift of now and later than after (a code is good once: the
// caller keeps the step it returns). ok is false for anything else.
func CheckTOTP(secret, code string, now time.Time, after int64) (step int64, ok bool) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if !ValidOTPFormat(code) {
		return 0, false
	}
	current := now.Unix() / TOTPPeriod
	for s := current - TOTPSkew; s <= current+TOTPSkew; s++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*TOTPPeriod, 0), totpOpts)
		if err == nil && hmac.Equal([]byte(want), []byte(code)) && s > after {
			return s, true
		}
	}
	return 0, false
}

// TOTPCode is secret's code at t (for tests and tools).
func TOTPCode(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totpOpts)
}

// Sealer keeps secrets the server must read back (TOTP secrets) encrypted
// at rest with AES-256-GCM, under a key derived from the server's secret.
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives the sealing key from secret.
func NewSealer(secret []byte) Sealer {
	key := sha256.Sum256(append([]byte("seal|"), secret...))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return Sealer{aead}
}

// Seal encrypts plain, bound to label (e.g. the account's id), so a sealed
// value cannot be moved to another row.
func (s Sealer) Seal(plain []byte, label string) []byte {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	return s.aead.Seal(nonce, nonce, plain, []byte(label))
}

// ErrSealed is a sealed value that does not open: tampered, moved, or
// sealed under another server secret.
var ErrSealed = errors.New("sealed value does not open")

// Open decrypts what Seal made with label.
func (s Sealer) Open(sealed []byte, label string) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, ErrSealed
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(label))
	if err != nil {
		return nil, ErrSealed
	}
	return plain, nil
}

// RecoveryCodeCount is how many recovery codes an account gets at a time.
const RecoveryCodeCount = 10

var recoveryAlphabet = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

// NewRecoveryCodes makes n one-time codes like "k3fq9-x7mab" (50 bits each).
func NewRecoveryCodes(n int) []string {
	out := make([]string, n)
	for i := range out {
		b := make([]byte, 7)
		if _, err := rand.Read(b); err != nil {
			panic(err)
		}
		s := recoveryAlphabet.EncodeToString(b)[:10]
		out[i] = s[:5] + "-" + s[5:]
	}
	return out
}

// RecoveryMAC is what the database keeps of a recovery code: an HMAC bound
// to the account, of the code as typed with case, spaces and dashes gone.
func RecoveryMAC(secret []byte, userID int64, code string) []byte {
	code = strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("recovery|" + strconv.FormatInt(userID, 10) + "|" + code))
	return m.Sum(nil)
}
