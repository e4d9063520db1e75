// Package accounts holds the rules of Pitlane accounts: sign-up with an e-mail
// code, password and Google sign-in, the Discord link, roles and profiles.
package accounts

import (
	"context"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Code lifetimes of spec/product.md section 5.
const (
	OTPTTL      = 10 * time.Minute
	OTPCooldown = 60 * time.Second
)

// Messages the seed and product.md give verbatim.
const (
	MsgAccountCreated   = "Account created! Please check your email for OTP verification."
	MsgVerified         = "Email verified successfully! You can now login."
	MsgOTPSent          = "OTP sent successfully!"
	MsgGoogleOK         = "Google login successful!"
	MsgGoogleFailed     = "Google authentication failed"
	MsgPasswordsDiffer  = "Passwords do not match"
	MsgBadOTP           = "Please enter a valid 6-digit OTP"
	MsgDiscordRequired  = "Please enter your Discord username"
	MsgDiscordUpdated   = "Discord username updated successfully!"
	MsgWrongCredentials = "Invalid email or password"
)

// User is an account as the store keeps it.
type User struct {
	ID              int64
	Email           string
	PasswordHash    string
	Name            string
	GoogleID        string
	GoogleName      string
	AvatarURL       string
	DiscordUsername string
	DiscordVerified bool
	EmailVerified   bool
	TokenVersion    int
	CreatedAt       time.Time
}

// Store is what the account rules need from the database. Each method is
// atomic on its own.
type Store interface {
	// UpsertUnverified creates the account, or refreshes the password and
	// Discord name of one that never verified; a verified e-mail is a Conflict.
	UpsertUnverified(ctx context.Context, email, passwordHash, discord string) (User, error)
	// IssueOTP stores mac as the user's only live code unless one was sent
	// within cooldown; then it returns how long to wait.
	IssueOTP(ctx context.Context, userID int64, mac []byte, ttl, cooldown time.Duration) (wait time.Duration, err error)
	// WithdrawOTP deletes the code mac if it is still the user's live one:
	// a code whose e-mail could not be sent must not hold the cooldown.
	WithdrawOTP(ctx context.Context, userID int64, mac []byte) error
	// ContestOTP marks the user's live code as claimed by two sign-ups with
	// different passwords; OTPContested tells whether the code of email is.
	ContestOTP(ctx context.Context, userID int64) error
	OTPContested(ctx context.Context, email string) (bool, error)
	// ConsumeOTP checks a code for email inside one transaction: match is
	// called with the user id and stored mac. A match verifies the e-mail and
	// deletes the code; a miss counts an attempt.
	ConsumeOTP(ctx context.Context, email string, maxAttempts int, match func(userID int64, mac []byte) bool) error
	FindUserByEmail(ctx context.Context, email string) (User, error)
	FindUserByID(ctx context.Context, id int64) (User, error)
	// UpsertGoogleUser links a Google account to the user with that e-mail,
	// or creates one; the e-mail counts as verified.
	UpsertGoogleUser(ctx context.Context, googleID, email, name string) (User, error)
	UpdateDiscordUsername(ctx context.Context, userID int64, discord string) (User, error)
	UpdatePassword(ctx context.Context, userID int64, passwordHash string) (User, error)
	// Captaincies lists the teams the user captains.
	Captaincies(ctx context.Context, userID int64) ([]core.Captaincy, error)
}

// DisplayName is how the league shows a user who has no stats card: their
// Discord name, else their name; never their e-mail address.
func (u User) DisplayName() string {
	switch {
	case u.DiscordUsername != "":
		return u.DiscordUsername
	case u.Name != "":
		return u.Name
	}
	return "Player"
}

// SignupInput is the body of POST /api/auth/signup.
type SignupInput struct {
	Email           string `json:"email"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
	DiscordUsername string `json:"discordUsername"`
}

// Validate applies the sign-up rules of seed section 5 and returns the
// normalised e-mail.
func (in *SignupInput) Validate() error {
	if strings.TrimSpace(in.Email) == "" || in.Password == "" || in.ConfirmPassword == "" || strings.TrimSpace(in.DiscordUsername) == "" {
		return errs.E(errs.Invalid, "All fields are required")
	}
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return err
	}
	in.Email = email
	if in.Password != in.ConfirmPassword {
		return errs.E(errs.Invalid, MsgPasswordsDiffer)
	}
	if err := ValidatePassword(in.Password); err != nil {
		return err
	}
	d, err := NormalizeDiscord(in.DiscordUsername)
	if err != nil {
		return err
	}
	in.DiscordUsername = d
	return nil
}

// NormalizeEmail trims and lower-cases an address and checks its form.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > 254 {
		return "", errs.E(errs.Invalid, "Please enter a valid email address")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return "", errs.E(errs.Invalid, "Please enter a valid email address")
	}
	return s, nil
}

// ValidatePassword: 8 to 72 bytes (bcrypt reads no more than 72).
func ValidatePassword(p string) error {
	if utf8.RuneCountInString(p) < 8 {
		return errs.E(errs.Invalid, "Password must be at least 8 characters")
	}
	if len(p) > 72 {
		return errs.E(errs.Invalid, "Password must be at most 72 bytes")
	}
	return nil
}

// NormalizeDiscord trims a Discord username and checks Discord's own rules
// (2 to 32 characters; new-style names are lower case letters, digits, _ and .;
// legacy names may carry #1234).
func NormalizeDiscord(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errs.E(errs.Invalid, MsgDiscordRequired)
	}
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 37 {
		return "", errs.E(errs.Invalid, "Discord username must be 2 to 32 characters")
	}
	for _, r := range s {
		if r < 0x20 || r == '@' || r == ':' || r == '`' || r == 0x7f {
			return "", errs.E(errs.Invalid, "Discord username contains a character Discord does not allow")
		}
	}
	return s, nil
}
