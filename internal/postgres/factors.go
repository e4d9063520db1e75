package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
)

var _ accounts.FactorStore = Accounts{}

// FactorsOf implements accounts.FactorStore.
func (s Accounts) FactorsOf(ctx context.Context, userID int64) (accounts.Factors, error) {
	var f accounts.Factors
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL),
		(SELECT count(*) FROM passkeys WHERE user_id = $1),
		(SELECT count(*) FROM recovery_codes WHERE user_id = $1)`, userID).Scan(&f.TOTP, &f.Passkeys, &f.RecoveryLeft)
	return f, unavailable(err)
}

// PutTOTP implements accounts.FactorStore.
func (s Accounts) PutTOTP(ctx context.Context, userID int64, sealed []byte) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO totp_factors (user_id, sealed) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET sealed = EXCLUDED.sealed, last_step = 0, created_at = now()
		WHERE totp_factors.confirmed_at IS NULL`, userID, sealed)
	if err == nil && tag.RowsAffected() == 0 {
		return errs.E(errs.Conflict, "An authenticator app is set up already: remove it first to set up another.")
	}
	return unavailable(err)
}

// TOTPOf implements accounts.FactorStore; the row is locked in a
// transaction, so two codes checked at once count one after the other.
func (s Accounts) TOTPOf(ctx context.Context, userID int64) (accounts.TOTPFactor, error) {
	var f accounts.TOTPFactor
	lock := ""
	if inTx(ctx) {
		lock = " FOR UPDATE"
	}
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT sealed, confirmed_at IS NOT NULL, last_step FROM totp_factors WHERE user_id = $1`+lock,
		userID).Scan(&f.Sealed, &f.Confirmed, &f.LastStep)
	return f, unavailable(notFound(err, "No authenticator app"))
}

// UseTOTPStep implements accounts.FactorStore.
func (s Accounts) UseTOTPStep(ctx context.Context, userID, step int64) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `UPDATE totp_factors SET last_step = $2, confirmed_at = coalesce(confirmed_at, now())
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	return tag.RowsAffected() == 1, unavailable(err)
}

// DeleteTOTP implements accounts.FactorStore.
func (s Accounts) DeleteTOTP(ctx context.Context, userID int64) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM totp_factors WHERE user_id = $1`, userID)
	if err == nil && tag.RowsAffected() == 0 {
		return errs.E(errs.NotFound, "No authenticator app is set up.")
	}
	return unavailable(err)
}

// ReplaceRecoveryCodes implements accounts.FactorStore.
func (s Accounts) ReplaceRecoveryCodes(ctx context.Context, userID int64, macs [][]byte) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_mac) SELECT $1, unnest($2::bytea[])`, userID, macs)
		return err
	}))
}

// UseRecoveryCode implements accounts.FactorStore.
func (s Accounts) UseRecoveryCode(ctx context.Context, userID int64, mac []byte) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1 AND code_mac = $2`, userID, mac)
	return tag.RowsAffected() == 1, unavailable(err)
}

// Passkeys implements accounts.PasskeyStore: the list, and the stored
// credentials for a ceremony.
func (s Accounts) Passkeys(ctx context.Context, userID int64) ([]accounts.Passkey, [][]byte, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT id, name, created_at, last_used_at, credential FROM passkeys
		WHERE user_id = $1 ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	defer rows.Close()
	keys, creds := []accounts.Passkey{}, [][]byte{}
	for rows.Next() {
		var (
			k    accounts.Passkey
			cred []byte
		)
		if err := rows.Scan(&k.ID, &k.Name, &k.CreatedAt, &k.LastUsedAt, &cred); err != nil {
			return nil, nil, err
		}
		keys, creds = append(keys, k), append(creds, cred)
	}
	return keys, creds, unavailable(rows.Err())
}

// AddPasskey implements accounts.PasskeyStore.
func (s Accounts) AddPasskey(ctx context.Context, userID int64, id []byte, name string, credential []byte) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO passkeys (id, user_id, name, credential) VALUES ($1, $2, $3, $4)`,
		id, userID, name, credential)
	if isUniqueViolation(err) {
		return errs.E(errs.Conflict, "This passkey is registered already.")
	}
	return unavailable(err)
}

// UsePasskey implements accounts.PasskeyStore.
func (s Accounts) UsePasskey(ctx context.Context, userID int64, id []byte, credential []byte) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `UPDATE passkeys SET credential = $3, last_used_at = now() WHERE id = $1 AND user_id = $2`,
		id, userID, credential)
	if err == nil && tag.RowsAffected() == 0 {
		return errs.E(errs.NotFound, "No such passkey")
	}
	return unavailable(err)
}

// DeletePasskey implements accounts.PasskeyStore.
func (s Accounts) DeletePasskey(ctx context.Context, userID int64, id []byte) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM passkeys WHERE id = $1 AND user_id = $2`, id, userID)
	if err == nil && tag.RowsAffected() == 0 {
		return errs.E(errs.NotFound, "No such passkey")
	}
	return unavailable(err)
}

// PutCeremony implements accounts.PasskeyStore; an account has one
// ceremony of a kind at a time.
func (s Accounts) PutCeremony(ctx context.Context, c accounts.Ceremony, ttl time.Duration) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `DELETE FROM webauthn_ceremonies WHERE user_id = $1 AND kind = $2`, c.UserID, c.Kind); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO webauthn_ceremonies (id, user_id, kind, data, expires_at)
			VALUES ($1, $2, $3, $4, now() + $5::interval)`, c.ID, c.UserID, c.Kind, c.State, ttl)
		return err
	}))
}

// TakeCeremony implements accounts.PasskeyStore.
func (s Accounts) TakeCeremony(ctx context.Context, userID int64, id, kind string) (accounts.Ceremony, error) {
	c := accounts.Ceremony{ID: id, UserID: userID, Kind: kind}
	err := s.DB.q(ctx).QueryRow(ctx, `DELETE FROM webauthn_ceremonies WHERE id = $1 AND user_id = $2 AND kind = $3
		AND expires_at > now() RETURNING data`, id, userID, kind).Scan(&c.State)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, errs.E(errs.NotFound, "No such ceremony")
	}
	return c, unavailable(err)
}
