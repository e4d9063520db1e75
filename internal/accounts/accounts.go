// Package accounts holds the rules of Pitlane accounts: sign-up with an e-mail
// code, password and Google sign-in, the Discord link, roles and profiles.
package accounts

import (
	"context"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Code lifetimes (docs/api.md, "Accounts").
const (
	OTPTTL      = 10 * time.Minute
	OTPCooldown = 60 * time.Second
)

// Messages players know word for word (docs/api.md, "Bodies and errors").
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
	// DiscordID is the proven Discord account ("" for none); DiscordVerified
	// is true exactly when it is set.
	DiscordID       string
	DiscordVerified bool
	EmailVerified   bool
	CreatedAt       time.Time
}

// Store is what the account rules need from the database. Each method is
// atomic on its own.
type Store interface {
	// UpsertUnverified creates the account, or refreshes the password and
	// Discord name of one that never verified while no code for its address
	// is live; a sign-up that finds a live code changes nothing but marks the
	// code contested. A verified account is returned as it is, unchanged.
	UpsertUnverified(ctx context.Context, address []byte, email, passwordHash, discord string) (User, error)
	// IssueCode records the mail about to go to an address unless the
	// address's cooldown is running (then CodeIssue.Wait says how long).
	IssueCode(ctx context.Context, r CodeRequest) (CodeIssue, error)
	// AttachCode gives the issue made at sentAt, if it is still the
	// address's last, the code (mac) of userID's account: false when a
	// later issue took its place.
	AttachCode(ctx context.Context, address []byte, purpose string, sentAt time.Time, userID int64, mac []byte) (bool, error)
	// WithdrawCode undoes the issue made at sentAt if it is still the
	// address's last: its mail could not be sent, so it holds no cooldown,
	// does not count against the day and its code is dead.
	WithdrawCode(ctx context.Context, address []byte, purpose string, sentAt time.Time) error
	// CheckCode runs one verification, counting a wrong try.
	CheckCode(ctx context.Context, c CodeCheck) (CodeResult, error)
	FindUserByEmail(ctx context.Context, email string) (User, error)
	FindUserByID(ctx context.Context, id int64) (User, error)
	// UpsertGoogleUser links a Google account to the user with that e-mail,
	// or creates one; the e-mail counts as verified, and a pending sign-up's
	// code for address dies.
	UpsertGoogleUser(ctx context.Context, address []byte, googleID, email, name string) (User, error)
	UpdateDiscordUsername(ctx context.Context, userID int64, discord string) (User, error)
	UpdatePassword(ctx context.Context, userID int64, passwordHash string) (User, error)
	// FindAccounts lists up to limit verified, living accounts whose name
	// or Discord name holds q (any case), or whose e-mail is email.
	FindAccounts(ctx context.Context, q, email string, limit int) ([]AccountRef, error)
	// Roles lists the teams the user captains and the tournaments they
	// co-organise, in one read.
	Roles(ctx context.Context, userID int64) ([]core.Captaincy, []core.StaffGrant, error)
}

// CodeRequest is a mail about to go to an address: a code for a pending
// account, or a notice (Code nil) or nothing at all (no account), which
// take the address's cooldown all the same.
type CodeRequest struct {
	Address []byte // auth.AddressMAC of the e-mail
	// Purpose is what the code is for (PurposeVerify, PurposeReset): each
	// has its own code, tries and cooldown.
	Purpose string
	UserID  int64  // the pending account Code verifies; 0 without a code
	Code    []byte // auth.OTPMac of the code; nil: no code
	TTL     time.Duration
	// Cooldown is the wait after the n-th mail of a day (n from 1).
	Cooldown func(n int) time.Duration
}

// CodeIssue is what IssueCode did.
type CodeIssue struct {
	// Wait, when positive, is how long the address's cooldown still runs:
	// nothing was issued.
	Wait time.Duration
	// SentAt identifies the issue (for WithdrawCode); Next is how long
	// until the address may be sent another.
	SentAt time.Time
	Next   time.Duration
}

// CodeCheck is one verification as the store runs it, in one transaction
// holding the address's row.
type CodeCheck struct {
	Address []byte
	// Email is the address Address names: a code whose account no longer
	// uses it is no code (the account moved away since it was mailed).
	Email       string
	Purpose     string
	MaxAttempts int
	Cooldown    func(n int) time.Duration
	// Match tells whether mac is the code's MAC for the pending account.
	Match func(userID int64, mac []byte) bool
	// Accept runs once the code matched, with the pending account and
	// whether a second sign-up contested the code, and says what the
	// verification claims. An error refuses the verification as it is: the
	// code stays and no try is counted.
	Accept func(u User, contested bool) (Claim, error)
}

// Purposes of mailed codes.
const (
	PurposeVerify = "verify" // a sign-up's: the address is verified
	PurposeReset  = "reset"  // a password reset's, for a verified account
	// PurposeChange: a change of address's mail to the new address (its
	// code is kept with the change; the address's row keeps its cooldown).
	PurposeChange = "change"
)

// Claim is what a verification does to the pending account besides
// verifying its address.
type Claim struct {
	// PasswordHash, when set, replaces the pending sign-up's password.
	PasswordHash string
	// Reset drops what the pending sign-up chose (Discord name, name): it
	// was not the verifier's sign-up.
	Reset bool
}

// CodeOutcome is how a verification went.
type CodeOutcome int

// Outcomes of CheckCode.
const (
	CodeWrong    CodeOutcome = iota // wrong, expired or no code: a try counted
	CodeDead                        // no tries left until a new code is sent
	CodeVerified                    // the code is spent: a sign-up's address verified, a reset's account found
)

// CodeResult is what CheckCode found.
type CodeResult struct {
	Outcome CodeOutcome
	Left    int           // CodeWrong: wrong tries left
	Wait    time.Duration // CodeDead: until a new code may be sent
	User    User          // CodeVerified: the account, now verified
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

// NormalizeEmail trims, lower-cases and composes (Unicode NFC) an address
// and checks its form: the same letters typed precomposed or with combining
// marks are one address, one account. Characters that turn the direction
// of the text are refused: an address shown reversed could pass for
// another.
func NormalizeEmail(s string) (string, error) {
	s = norm.NFC.String(strings.ToLower(strings.TrimSpace(s)))
	if strings.IndexFunc(s, directionControl) >= 0 {
		return "", errs.E(errs.Invalid, MsgAddressInvisible)
	}
	if len(s) > 254 {
		return "", errs.E(errs.Invalid, "Please enter a valid email address")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return "", errs.E(errs.Invalid, "Please enter a valid email address")
	}
	return s, nil
}

// MsgAddressInvisible refuses an address with characters that turn the
// direction of the text around them.
const MsgAddressInvisible = "An email address must not contain direction-control characters (such as a right-to-left override)"

// directionControl tells the characters that set the direction of text:
// the embeddings and overrides, the isolates, the marks (LRM, RLM, ALM).
func directionControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
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

// MsgNameInvisible refuses a name with characters that are not shown as
// themselves.
const MsgNameInvisible = "Discord username must not contain control or formatting characters (such as a right-to-left override)"

// NormalizeDiscord trims a Discord username and checks Discord's own rules
// (2 to 32 characters; new-style names are lower case letters, digits, _ and .;
// legacy names may carry #1234). A name is also the player's display name,
// so characters that change how text around them reads are refused.
func NormalizeDiscord(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errs.E(errs.Invalid, MsgDiscordRequired)
	}
	if strings.IndexFunc(s, core.Invisible) >= 0 {
		return "", errs.E(errs.Invalid, MsgNameInvisible)
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

// CleanName drops the invisible characters of a name another service gave
// us (Google's, Discord's), which we cannot refuse, and trims it.
func CleanName(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if core.Invisible(r) {
			return -1
		}
		return r
	}, s))
}
