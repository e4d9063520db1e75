package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
)

var _ accounts.EmailChangeStore = Accounts{}

// PutEmailChange implements accounts.EmailChangeStore.
func (s Accounts) PutEmailChange(ctx context.Context, userID int64, newEmail string, codeMAC []byte, ttl, cooldown time.Duration) (time.Duration, error) {
	var wait time.Duration
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var left float64
		err := tx.QueryRow(ctx, `SELECT extract(epoch FROM sent_at + $2::interval - now())::float8 FROM email_changes
			WHERE user_id = $1 FOR UPDATE`, userID, cooldown).Scan(&left)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if left > 0 {
			wait = time.Duration(left * float64(time.Second))
			return nil
		}
		_, err = tx.Exec(ctx, `INSERT INTO email_changes (user_id, new_email, code_mac, sent_at, expires_at, attempts)
			VALUES ($1, $2, $3, now(), now() + $4::interval, 0)
			ON CONFLICT (user_id) DO UPDATE SET new_email = EXCLUDED.new_email, code_mac = EXCLUDED.code_mac,
			       sent_at = now(), expires_at = EXCLUDED.expires_at, attempts = 0`, userID, newEmail, codeMAC, ttl)
		return err
	})
	return wait, unavailable(err)
}

// PendingEmailChange implements accounts.EmailChangeStore.
func (s Accounts) PendingEmailChange(ctx context.Context, userID int64) (accounts.EmailChange, error) {
	var c accounts.EmailChange
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT new_email, code_mac, expires_at > now(), attempts FROM email_changes
		WHERE user_id = $1 FOR UPDATE`, userID).Scan(&c.NewEmail, &c.CodeMAC, &c.Live, &c.Attempts)
	return c, unavailable(notFound(err, "No change of address"))
}

// FailEmailChange implements accounts.EmailChangeStore.
func (s Accounts) FailEmailChange(ctx context.Context, userID int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_changes SET attempts = attempts + 1 WHERE user_id = $1`, userID)
	return unavailable(err)
}

// ChangeEmail implements accounts.EmailChangeStore. Every code the account
// was mailed dies with the address it went to: a reset's or a sign-up's
// (their rows stay, with the old address's cooldown and tries), the bot's
// code to link Discord, and the pending change.
func (s Accounts) ChangeEmail(ctx context.Context, userID int64, newEmail string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users u SET email = $2, google_id = NULL, google_name = NULL, updated_at = now()
			WHERE u.id = $1 RETURNING `+userColumns, userID, newEmail))
		if err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE email_codes SET user_id = NULL, code_mac = NULL, expires_at = now(), contested = false WHERE user_id = $1`,
			`UPDATE discord_codes SET code_mac = NULL, expires_at = now() WHERE user_id = $1`,
			`DELETE FROM email_changes WHERE user_id = $1`,
		} {
			if _, err := tx.Exec(ctx, q, userID); err != nil {
				return err
			}
		}
		return nil
	})
	if isUniqueViolation(err) {
		return u, errs.E(errs.Conflict, "That address is now used by another account.")
	}
	return u, unavailable(notFound(err, "Account not found"))
}
