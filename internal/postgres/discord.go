package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
)

var _ accounts.DiscordStore = Accounts{}

// FindUserByDiscordID implements accounts.DiscordStore.
func (s Accounts) FindUserByDiscordID(ctx context.Context, discordID string) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.discord_id = $1`, discordID))
	return u, unavailable(notFound(err, "No Pitlane account is linked to this Discord account"))
}

// LinkDiscord implements accounts.DiscordStore. The account row is locked,
// so two links racing for one account are taken one at a time; the unique
// index on discord_id settles two accounts racing for one Discord account.
func (s Accounts) LinkDiscord(ctx context.Context, userID int64, d accounts.DiscordIdentity) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		cur, err := scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1 FOR UPDATE`, userID))
		if err != nil {
			return notFound(err, "Account not found")
		}
		if cur.DiscordID != "" && cur.DiscordID != d.ID {
			return errs.E(errs.Conflict, accounts.MsgDiscordOtherLinked)
		}
		var other int64
		err = tx.QueryRow(ctx, `SELECT id FROM users WHERE discord_id = $1 AND id <> $2`, d.ID, userID).Scan(&other)
		if err == nil {
			return errs.E(errs.Conflict, accounts.MsgDiscordTaken)
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users u SET discord_id = $2, discord_username = $3, discord_verified = true,
			updated_at = now() WHERE u.id = $1 RETURNING `+userColumns, userID, d.ID, d.Username))
		if isUniqueViolation(err) {
			return errs.E(errs.Conflict, accounts.MsgDiscordTaken)
		}
		if err != nil {
			return err
		}
		// The code that made it (if any) is spent.
		if _, err := tx.Exec(ctx, `DELETE FROM discord_codes WHERE discord_id = $1`, d.ID); err != nil {
			return err
		}
		return bumpRosters(ctx, tx, userID)
	})
	return u, unavailable(err)
}

// UnlinkDiscord implements accounts.DiscordStore.
func (s Accounts) UnlinkDiscord(ctx context.Context, userID int64) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users u SET discord_id = NULL, discord_verified = false, updated_at = now()
			WHERE u.id = $1 RETURNING `+userColumns, userID))
		if err != nil {
			return notFound(err, "Account not found")
		}
		return bumpRosters(ctx, tx, userID)
	})
	return u, unavailable(err)
}

// SaveDiscordState implements accounts.DiscordStore; expired states of
// anyone go at the same time.
func (s Accounts) SaveDiscordState(ctx context.Context, stateMAC []byte, userID int64, verifier string, ttl time.Duration) error {
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `DELETE FROM discord_oauth_states WHERE expires_at < now()`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO discord_oauth_states (state_mac, user_id, verifier, expires_at)
			VALUES ($1, $2, $3, now() + $4::interval)`, stateMAC, userID, verifier, ttl)
		return err
	})
	return unavailable(err)
}

// TakeDiscordState implements accounts.DiscordStore: deleting the row is
// what spends it, so a state works once.
func (s Accounts) TakeDiscordState(ctx context.Context, stateMAC []byte) (int64, string, error) {
	var (
		userID   int64
		verifier string
	)
	err := s.DB.q(ctx).QueryRow(ctx, `DELETE FROM discord_oauth_states WHERE state_mac = $1 AND expires_at > now()
		RETURNING user_id, verifier`, stateMAC).Scan(&userID, &verifier)
	return userID, verifier, unavailable(notFound(err, "Unknown state"))
}

// IssueDiscordCode implements accounts.DiscordStore; the cooldown and the
// gate are checked under the row's lock (made first when the Discord
// account has none), so one member's requests are judged one at a time.
func (s Accounts) IssueDiscordCode(ctx context.Context, d accounts.DiscordIdentity, userID int64, mac []byte,
	ttl, cooldown time.Duration, gate accounts.CodeGate) (time.Duration, error) {
	var wait time.Duration
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `INSERT INTO discord_codes (discord_id, discord_username, sent_at, expires_at)
			VALUES ($1, '', 'epoch', 'epoch') ON CONFLICT DO NOTHING`, d.ID); err != nil {
			return err
		}
		var left float64
		err := tx.QueryRow(ctx, `SELECT extract(epoch FROM sent_at + $2::interval - now()) FROM discord_codes
			WHERE discord_id = $1 FOR UPDATE`, d.ID, cooldown).Scan(&left)
		if err != nil {
			return err
		}
		if left > 0 {
			wait = time.Duration(left * float64(time.Second))
			return nil
		}
		if gate != nil {
			if err := gate(ctx); err != nil {
				return err
			}
		}
		var uid *int64
		if userID != 0 {
			uid = &userID
		}
		_, err = tx.Exec(ctx, `INSERT INTO discord_codes (discord_id, discord_username, user_id, code_mac, sent_at, expires_at, attempts)
			VALUES ($1, $2, $3, $4, now(), now() + $5::interval, 0)
			ON CONFLICT (discord_id) DO UPDATE SET discord_username = EXCLUDED.discord_username, user_id = EXCLUDED.user_id,
			       code_mac = EXCLUDED.code_mac, sent_at = now(), expires_at = EXCLUDED.expires_at, attempts = 0`,
			d.ID, d.Username, uid, mac, ttl)
		return err
	})
	return wait, unavailable(err)
}

// CheckDiscordCode implements accounts.DiscordStore: the row is locked, so
// parallel guesses count one by one; a Discord account without a code
// counts its tries too.
func (s Accounts) CheckDiscordCode(ctx context.Context, discordID string, maxAttempts int,
	match func(userID int64, mac []byte) bool) (accounts.DiscordCodeResult, error) {
	var res accounts.DiscordCodeResult
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var (
			userID   *int64
			mac      []byte
			live     bool
			attempts int
		)
		if _, err := tx.Exec(ctx, `INSERT INTO discord_codes (discord_id, discord_username, sent_at, expires_at)
			VALUES ($1, '', 'epoch', 'epoch') ON CONFLICT DO NOTHING`, discordID); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `SELECT user_id, code_mac, expires_at > now(), attempts FROM discord_codes
			WHERE discord_id = $1 FOR UPDATE`, discordID).Scan(&userID, &mac, &live, &attempts)
		if err != nil {
			return err
		}
		if attempts >= maxAttempts {
			res.Outcome = accounts.CodeDead
			return nil
		}
		if live && mac != nil && userID != nil && match(*userID, mac) {
			res = accounts.DiscordCodeResult{Outcome: accounts.CodeVerified, UserID: *userID}
			return nil // spent by LinkDiscord, in the caller's transaction or its own
		}
		_, err = tx.Exec(ctx, `UPDATE discord_codes SET attempts = attempts + 1 WHERE discord_id = $1`, discordID)
		res = accounts.DiscordCodeResult{Outcome: accounts.CodeWrong, Left: maxAttempts - attempts - 1}
		return err
	})
	return res, unavailable(err)
}

// BurnDiscordCode implements accounts.DiscordStore.
func (s Accounts) BurnDiscordCode(ctx context.Context, discordID string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE discord_codes SET code_mac = NULL, expires_at = now() WHERE discord_id = $1`, discordID)
	return unavailable(err)
}
