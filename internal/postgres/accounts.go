package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Accounts is the PostgreSQL store of accounts.Store.
type Accounts struct{ DB *DB }

var _ accounts.Store = Accounts{}

// userColumns are an account's columns; roles are not among them (they are
// worked out by accounts.Service.Actor).
const userColumns = `u.id, u.email, coalesce(u.password_hash, ''), u.name, coalesce(u.google_id, ''),
	coalesce(u.google_name, ''), coalesce('/api/images/' || u.avatar_image_id, ''), coalesce(u.discord_username, ''),
	u.discord_verified, u.email_verified, u.token_version, u.created_at`

func scanUser(row pgx.Row) (accounts.User, error) {
	var u accounts.User
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.Name, &u.GoogleID, &u.GoogleName, &u.AvatarURL,
		&u.DiscordUsername, &u.DiscordVerified, &u.EmailVerified, &u.TokenVersion, &u.CreatedAt)
	return u, err
}

// Captaincies implements accounts.Store.
func (s Accounts) Captaincies(ctx context.Context, userID int64) ([]core.Captaincy, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT t.tournament_id, tr.name, t.letter FROM teams t
		JOIN tournaments tr ON tr.id = t.tournament_id WHERE t.captain_user_id = $1 ORDER BY t.tournament_id`, userID)
	if err != nil {
		return nil, unavailable(err)
	}
	caps, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (core.Captaincy, error) {
		var c core.Captaincy
		return c, row.Scan(&c.TournamentID, &c.Tournament, &c.Team)
	})
	return caps, unavailable(err)
}

// upsertUnverifiedSQL creates the account, or takes the new credentials for
// an unverified one only when no code for it is live: while a code is out,
// the sign-up it belongs to is the only one that counts, so nobody can slip
// their own password under a player who is about to enter their code.
const upsertUnverifiedSQL = `
INSERT INTO users AS u (email, password_hash, discord_username, name, discord_verified)
VALUES ($1, $2, $3, $3, true)
ON CONFLICT (email) DO UPDATE
   SET password_hash = EXCLUDED.password_hash, discord_username = EXCLUDED.discord_username, discord_verified = true,
       name = EXCLUDED.name, updated_at = now()
 WHERE u.email_verified = false
   AND NOT EXISTS (SELECT 1 FROM email_otps o WHERE o.user_id = u.id AND o.expires_at > now())
RETURNING ` + userColumns

// UpsertUnverified implements accounts.Store.
func (s Accounts) UpsertUnverified(ctx context.Context, email, hash, discord string) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, upsertUnverifiedSQL, email, hash, discord))
	if errors.Is(err, pgx.ErrNoRows) {
		// Verified, or unverified with a live code: kept as it is.
		u, err = s.FindUserByEmail(ctx, email)
		if err == nil && !u.EmailVerified {
			return u, nil
		}
		if err != nil {
			return u, err
		}
		return u, errs.E(errs.Conflict, "An account with this email already exists. Please login.")
	}
	return u, unavailable(err)
}

// The cooldown is checked in the same statement that replaces the code, so
// parallel requests cannot both send one.
// A code replacing an expired one starts uncontested; at most $5 codes go
// out per address in 24 hours (each gives a handful of guesses).
const issueOTPSQL = `
INSERT INTO email_otps AS o (user_id, code_mac, sent_at, expires_at, attempts, day_start, day_count)
VALUES ($1, $2, now(), now() + $3::interval, 0, now(), 1)
ON CONFLICT (user_id) DO UPDATE
   SET code_mac = EXCLUDED.code_mac, sent_at = EXCLUDED.sent_at, expires_at = EXCLUDED.expires_at, attempts = 0,
       contested = o.contested AND o.expires_at > now(),
       day_start = CASE WHEN o.day_start <= now() - interval '24 hours' THEN now() ELSE o.day_start END,
       day_count = CASE WHEN o.day_start <= now() - interval '24 hours' THEN 1 ELSE o.day_count + 1 END
 WHERE o.sent_at <= now() - $4::interval
   AND (o.day_start <= now() - interval '24 hours' OR o.day_count < $5)
RETURNING user_id`

const otpWaitSQL = `SELECT greatest(extract(epoch FROM sent_at + $2::interval - now()),
	CASE WHEN day_count >= $3 THEN extract(epoch FROM day_start + interval '24 hours' - now()) ELSE 0 END, 0)
	FROM email_otps WHERE user_id = $1`

// MaxCodesPerDay bounds the codes one address gets in 24 hours.
const MaxCodesPerDay = 10

// IssueOTP implements accounts.Store.
func (s Accounts) IssueOTP(ctx context.Context, userID int64, mac []byte, ttl, cooldown time.Duration) (time.Duration, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, issueOTPSQL, userID, mac, ttl, cooldown, MaxCodesPerDay).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		var secs float64
		if err := s.DB.q(ctx).QueryRow(ctx, otpWaitSQL, userID, cooldown, MaxCodesPerDay).Scan(&secs); err != nil {
			return 0, unavailable(err)
		}
		return time.Duration(secs*float64(time.Second)) + time.Millisecond, nil
	}
	return 0, unavailable(err)
}

// WithdrawOTP implements accounts.Store: the unsent code is dead, holds no
// cooldown and does not count against the day.
func (s Accounts) WithdrawOTP(ctx context.Context, userID int64, mac []byte) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_otps SET expires_at = now(), sent_at = timestamptz 'epoch',
		day_count = greatest(day_count - 1, 0) WHERE user_id = $1 AND code_mac = $2`, userID, mac)
	return unavailable(err)
}

// ContestOTP implements accounts.Store.
func (s Accounts) ContestOTP(ctx context.Context, userID int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_otps SET contested = true WHERE user_id = $1 AND expires_at > now()`, userID)
	return unavailable(err)
}

// OTPContested implements accounts.Store.
func (s Accounts) OTPContested(ctx context.Context, email string) (bool, error) {
	var contested bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT o.contested FROM email_otps o JOIN users u ON u.id = o.user_id
		WHERE u.email = $1`, email).Scan(&contested)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return contested, unavailable(err)
}

// SetAvatarIfNone implements avatars.Users: a picture the player already
// has is never replaced.
func (s Accounts) SetAvatarIfNone(ctx context.Context, userID int64, imageID string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE users SET avatar_image_id = $2 WHERE id = $1 AND avatar_image_id IS NULL`, userID, imageID)
	return unavailable(err)
}

// ConsumeOTP implements accounts.Store: the row is locked, so parallel
// guesses count one by one.
func (s Accounts) ConsumeOTP(ctx context.Context, email string, maxAttempts int, match func(int64, []byte) bool) error {
	var result error
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var (
			userID   int64
			verified bool
			mac      []byte // NULL when no code is live
			expired  *bool
			attempts *int
		)
		// Lock first, read second: a statement that waited for the lock
		// would see the user's new row but the code's old attempts, and
		// parallel guesses would each count from the same number.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE email = $1 FOR UPDATE`, email); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `
			SELECT u.id, u.email_verified, o.code_mac, o.expires_at < now(), o.attempts
			  FROM users u LEFT JOIN email_otps o ON o.user_id = u.id
			 WHERE u.email = $1`, email).Scan(&userID, &verified, &mac, &expired, &attempts)
		if errors.Is(err, pgx.ErrNoRows) {
			result = accounts.ErrOTPInvalid
			return nil
		} else if err != nil {
			return err
		}
		if mac == nil {
			if verified {
				result = accounts.ErrOTPVerified
			} else {
				result = accounts.ErrOTPExpired
			}
			return nil
		}
		switch {
		case verified:
			result = accounts.ErrOTPVerified
		case *attempts >= maxAttempts:
			result = accounts.ErrOTPDead
		case *expired:
			result = accounts.ErrOTPExpired
		case !match(userID, mac):
			if _, err := tx.Exec(ctx, `UPDATE email_otps SET attempts = attempts + 1 WHERE user_id = $1`, userID); err != nil {
				return err
			}
			result = accounts.ErrOTPInvalid
		default:
			if _, err := tx.Exec(ctx, `DELETE FROM email_otps WHERE user_id = $1`, userID); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1`, userID)
			return err
		}
		return nil
	})
	if err != nil {
		return unavailable(err)
	}
	return result
}

// FindUserByEmail implements accounts.Store.
func (s Accounts) FindUserByEmail(ctx context.Context, email string) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.email = $1`, email))
	return u, unavailable(notFound(err, "Account not found"))
}

// FindUserByID implements accounts.Store.
func (s Accounts) FindUserByID(ctx context.Context, id int64) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1`, id))
	return u, unavailable(notFound(err, "Account not found"))
}

// A Google account proves its e-mail, so it takes over an unverified
// password account of that address. Whatever that account holds was chosen by
// whoever typed the address, maybe a stranger: the password, the Discord
// name (shown as linked) and the name go, and the Google name comes in. A
// verified account keeps what its owner set.
const upsertGoogleSQL = `
INSERT INTO users AS u (email, google_id, google_name, name, email_verified)
VALUES ($2, $1, $3, $3, true)
ON CONFLICT (email) DO UPDATE
   SET google_id = EXCLUDED.google_id, google_name = EXCLUDED.google_name,
       password_hash = CASE WHEN u.email_verified THEN u.password_hash END,
       discord_username = CASE WHEN u.email_verified THEN u.discord_username END,
       discord_verified = u.email_verified AND u.discord_verified,
       name = CASE WHEN u.email_verified THEN u.name ELSE EXCLUDED.name END,
       avatar_image_id = CASE WHEN u.email_verified THEN u.avatar_image_id END,
       email_verified = true, updated_at = now()
RETURNING ` + userColumns

// UpsertGoogleUser implements accounts.Store. The code of a sign-up it takes
// over dies with it.
func (s Accounts) UpsertGoogleUser(ctx context.Context, googleID, email, name string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `DELETE FROM email_otps o USING users u
			WHERE o.user_id = u.id AND u.email = $1 AND NOT u.email_verified`, email); err != nil {
			return err
		}
		var err error
		u, err = scanUser(tx.QueryRow(ctx, upsertGoogleSQL, googleID, email, name))
		return err
	})
	if isUniqueViolation(err) {
		return u, errs.E(errs.Conflict, "This Google account is linked to another Pitlane account.")
	}
	return u, unavailable(err)
}

// UpdateDiscordUsername implements accounts.Store. Registered players' cards
// show the name, so their lists are marked changed in the same transaction.
func (s Accounts) UpdateDiscordUsername(ctx context.Context, userID int64, discord string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users u SET discord_username = $2, discord_verified = true, updated_at = now()
			WHERE u.id = $1 RETURNING `+userColumns, userID, discord))
		if err != nil {
			return notFound(err, "Account not found")
		}
		return bumpRosters(ctx, tx, userID)
	})
	return u, unavailable(err)
}

// UpdatePassword implements accounts.Store; raising token_version ends older sessions.
func (s Accounts) UpdatePassword(ctx context.Context, userID int64, hash string) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, `UPDATE users u SET password_hash = $2, token_version = token_version + 1,
		updated_at = now() WHERE u.id = $1 RETURNING `+userColumns, userID, hash))
	return u, unavailable(notFound(err, "Account not found"))
}

// bumpRosters marks every list the user appears on as changed.
func bumpRosters(ctx context.Context, tx querier, userID int64) error {
	_, err := tx.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1
		WHERE id IN (SELECT tournament_id FROM registrations WHERE user_id = $1)`, userID)
	return err
}
