package postgres

import (
	"context"
	"errors"
	"strings"
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
const userColumns = `u.id, coalesce(u.email, ''), coalesce(u.password_hash, ''), u.name, coalesce(u.google_id, ''),
	coalesce(u.google_name, ''), coalesce('/api/images/' || u.avatar_image_id, ''), coalesce(u.discord_username, ''),
	coalesce(u.discord_id, ''), u.discord_verified, u.email_verified, u.created_at`

func scanUser(row pgx.Row) (accounts.User, error) {
	var u accounts.User
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.Name, &u.GoogleID, &u.GoogleName, &u.AvatarURL,
		&u.DiscordUsername, &u.DiscordID, &u.DiscordVerified, &u.EmailVerified, &u.CreatedAt)
	return u, err
}

// FindAccounts implements accounts.Store.
func (s Accounts) FindAccounts(ctx context.Context, q, email string, limit int) ([]accounts.AccountRef, error) {
	like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(q) + "%"
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT u.id, coalesce(nullif(u.name, ''), nullif(u.discord_username, ''), 'Player'), coalesce(u.discord_username, ''), u.discord_verified
		  FROM users u
		 WHERE u.email_verified AND u.deleted_at IS NULL
		   AND (u.name ILIKE $1 OR u.discord_username ILIKE $1 OR u.email = $2)
		 ORDER BY u.email = $2 DESC, u.id LIMIT $3`, like, email, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.AccountRef, error) {
		var a accounts.AccountRef
		return a, row.Scan(&a.ID, &a.Name, &a.DiscordUsername, &a.DiscordVerified)
	})
	if list == nil {
		list = []accounts.AccountRef{}
	}
	return list, unavailable(err)
}

// Roles implements accounts.Store: the teams the user captains and the
// tournaments they co-organise, one read on every authenticated request.
func (s Accounts) Roles(ctx context.Context, userID int64) ([]core.Captaincy, []core.StaffGrant, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT t.tournament_id, tr.name, t.letter FROM teams t JOIN tournaments tr ON tr.id = t.tournament_id
		 WHERE t.captain_user_id = $1
		UNION ALL
		SELECT st.tournament_id, tr.name, '' FROM tournament_staff st JOIN tournaments tr ON tr.id = st.tournament_id
		 WHERE st.user_id = $1
		 ORDER BY 1, 3`, userID)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	defer rows.Close()
	var (
		caps  []core.Captaincy
		staff []core.StaffGrant
	)
	for rows.Next() {
		var c core.Captaincy
		if err := rows.Scan(&c.TournamentID, &c.Tournament, &c.Team); err != nil {
			return nil, nil, err
		}
		if c.Team == "" {
			staff = append(staff, core.StaffGrant{TournamentID: c.TournamentID, Tournament: c.Tournament})
		} else {
			caps = append(caps, c)
		}
	}
	return caps, staff, unavailable(rows.Err())
}

// upsertUnverifiedSQL creates the account, or takes the new credentials for
// an unverified one only when no code for it is live ($4): while a code is
// out, the sign-up it belongs to is the only one that counts, so nobody can
// slip their own password under a player who is about to enter their code.
const upsertUnverifiedSQL = `
INSERT INTO users AS u (email, password_hash, discord_username, name)
VALUES ($1, $2, $3, $3)
ON CONFLICT (email) DO UPDATE
   SET password_hash = EXCLUDED.password_hash, discord_username = EXCLUDED.discord_username,
       name = EXCLUDED.name, updated_at = now()
 WHERE u.email_verified = false AND NOT $4
RETURNING ` + userColumns

// UpsertUnverified implements accounts.Store. The address's code row is
// locked first, as CheckCode does, so the two never wait on each other.
func (s Accounts) UpsertUnverified(ctx context.Context, address []byte, email, hash, discord string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var live bool
		err := tx.QueryRow(ctx, `SELECT code_mac IS NOT NULL AND expires_at > now() FROM email_codes
			WHERE address_mac = $1 AND purpose = 'verify' FOR UPDATE`, address).Scan(&live)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		u, err = scanUser(tx.QueryRow(ctx, upsertUnverifiedSQL, email, hash, discord, live))
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		// Verified, or unverified with a live code: kept as it is.
		if u, err = s.FindUserByEmail(ctx, email); err != nil || u.EmailVerified {
			return err
		}
		// Two people claim the address: the code verifies only together
		// with the first one's password.
		_, err = tx.Exec(ctx, `UPDATE email_codes SET contested = true WHERE address_mac = $1 AND purpose = 'verify'`, address)
		return err
	})
	return u, unavailable(err)
}

// codeRow is an address's row of email_codes, locked.
type codeRow struct {
	userID           *int64
	mac              []byte // nil: no code
	live, contested  bool
	attempts, sent   int // sent: mails in the current day
	sentAt, dayStart time.Time
	now              time.Time
}

// lockCode reads (creating it if need be) the row of address for purpose,
// locked for the transaction of ctx.
func (s Accounts) lockCode(ctx context.Context, address []byte, purpose string) (codeRow, error) {
	tx := s.DB.q(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO email_codes (address_mac, purpose) VALUES ($1, $2) ON CONFLICT DO NOTHING`, address, purpose); err != nil {
		return codeRow{}, err
	}
	var r codeRow
	err := tx.QueryRow(ctx, `
		SELECT user_id, code_mac, expires_at > now(), contested, attempts,
		       CASE WHEN day_start <= now() - interval '24 hours' THEN 0 ELSE day_count END, sent_at, day_start, now()
		  FROM email_codes WHERE address_mac = $1 AND purpose = $2 FOR UPDATE`, address, purpose).
		Scan(&r.userID, &r.mac, &r.live, &r.contested, &r.attempts, &r.sent, &r.sentAt, &r.dayStart, &r.now)
	return r, err
}

// wait is how long the address's cooldown still runs: after the n-th mail
// of a day, cooldown(n) from the last, and never past the day's end.
func (r codeRow) wait(cooldown func(int) time.Duration) time.Duration {
	if r.sent == 0 {
		return 0
	}
	next := r.sentAt.Add(cooldown(r.sent))
	if end := r.dayStart.Add(24 * time.Hour); end.Before(next) {
		next = end
	}
	return max(0, next.Sub(r.now))
}

// IssueCode implements accounts.Store. The cooldown is checked under the
// row's lock, so parallel requests cannot both send a mail. A code replacing
// a live contested one stays contested.
func (s Accounts) IssueCode(ctx context.Context, req accounts.CodeRequest) (accounts.CodeIssue, error) {
	var iss accounts.CodeIssue
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		r, err := s.lockCode(ctx, req.Address, purposeOf(req.Purpose))
		if err != nil {
			return err
		}
		if iss.Wait = r.wait(req.Cooldown); iss.Wait > 0 {
			_, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_codes SET touched_at = now() WHERE address_mac = $1 AND purpose = $2`,
				req.Address, purposeOf(req.Purpose))
			return err
		}
		var userID *int64
		if req.Code != nil {
			userID = &req.UserID
		}
		err = s.DB.q(ctx).QueryRow(ctx, `
			UPDATE email_codes
			   SET user_id = $2, code_mac = $3, sent_at = now(), expires_at = now() + $4::interval, attempts = 0,
			       contested = contested AND $3::bytea IS NOT NULL AND code_mac IS NOT NULL AND expires_at > now(),
			       day_start = CASE WHEN day_start <= now() - interval '24 hours' THEN now() ELSE day_start END,
			       day_count = $5, touched_at = now()
			 WHERE address_mac = $1 AND purpose = $6
			RETURNING sent_at`, req.Address, userID, req.Code, req.TTL, r.sent+1, purposeOf(req.Purpose)).Scan(&iss.SentAt)
		r.sent, r.sentAt, r.now = r.sent+1, iss.SentAt, iss.SentAt
		if r.sent == 1 {
			r.dayStart = iss.SentAt
		}
		iss.Next = r.wait(req.Cooldown)
		return err
	})
	return iss, unavailable(err)
}

// AttachCode implements accounts.Store.
func (s Accounts) AttachCode(ctx context.Context, address []byte, purpose string, sentAt time.Time, userID int64, mac []byte) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_codes SET user_id = $4, code_mac = $5
		WHERE address_mac = $1 AND purpose = $2 AND sent_at = $3 AND expires_at > now()`, address, purposeOf(purpose), sentAt, userID, mac)
	if err != nil {
		return false, unavailable(err)
	}
	return tag.RowsAffected() == 1, nil
}

// WithdrawCode implements accounts.Store.
func (s Accounts) WithdrawCode(ctx context.Context, address []byte, purpose string, sentAt time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE email_codes SET code_mac = NULL, expires_at = now(), sent_at = timestamptz 'epoch',
		day_count = greatest(day_count - 1, 0) WHERE address_mac = $1 AND purpose = $3 AND sent_at = $2`, address, sentAt, purposeOf(purpose))
	return unavailable(err)
}

// purposeOf is a code's purpose, a sign-up's when none is named.
func purposeOf(p string) string {
	if p == "" {
		return accounts.PurposeVerify
	}
	return p
}

// CheckCode implements accounts.Store: the address's row is locked, so
// parallel guesses count one by one. Every address has a row once anyone
// asks about it, so an address without an account counts tries like any.
// A sign-up's code verifies a pending account; a reset's finds a verified
// one, whose password the caller changes in the same transaction. Either
// counts only while its account still uses the address.
func (s Accounts) CheckCode(ctx context.Context, c accounts.CodeCheck) (accounts.CodeResult, error) {
	var res accounts.CodeResult
	purpose := purposeOf(c.Purpose)
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		r, err := s.lockCode(ctx, c.Address, purpose)
		if err != nil {
			return err
		}
		if r.attempts >= c.MaxAttempts {
			res = accounts.CodeResult{Outcome: accounts.CodeDead, Wait: r.wait(c.Cooldown)}
			return nil
		}
		if r.live && r.mac != nil && r.userID != nil && c.Match(*r.userID, r.mac) {
			u, err := scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = $1 FOR UPDATE`, *r.userID))
			if err != nil {
				return err
			}
			if u.EmailVerified == (purpose == accounts.PurposeReset) && u.Email == c.Email {
				claim, err := c.Accept(u, r.contested)
				if err != nil {
					return err
				}
				if purpose == accounts.PurposeVerify {
					u, err = scanUser(tx.QueryRow(ctx, `
					UPDATE users u SET email_verified = true, password_hash = coalesce(nullif($2, ''), password_hash),
					       discord_username = CASE WHEN $3 THEN NULL ELSE discord_username END,
					       discord_id = CASE WHEN $3 THEN NULL ELSE discord_id END,
					       discord_verified = discord_verified AND NOT $3,
					       name = CASE WHEN $3 THEN '' ELSE name END, updated_at = now()
					 WHERE u.id = $1 RETURNING `+userColumns, u.ID, claim.PasswordHash, claim.Reset))
					if err != nil {
						return err
					}
				}
				_, err = tx.Exec(ctx, `UPDATE email_codes SET user_id = NULL, code_mac = NULL, expires_at = now(), attempts = 0,
					contested = false, touched_at = now() WHERE address_mac = $1 AND purpose = $2`, c.Address, purpose)
				res = accounts.CodeResult{Outcome: accounts.CodeVerified, User: u}
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE email_codes SET attempts = attempts + 1, touched_at = now() WHERE address_mac = $1 AND purpose = $2`,
			c.Address, purpose)
		res = accounts.CodeResult{Outcome: accounts.CodeWrong, Left: c.MaxAttempts - r.attempts - 1}
		return err
	})
	return res, unavailable(err)
}

// SetAvatarIfNone implements avatars.Users: a picture the player already
// has is never replaced.
func (s Accounts) SetAvatarIfNone(ctx context.Context, userID int64, imageID string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE users SET avatar_image_id = $2 WHERE id = $1 AND avatar_image_id IS NULL`, userID, imageID)
	return unavailable(err)
}

// PruneCodes deletes the code rows nobody used for two days (their
// cooldowns and tries are long over) and expired Discord link states.
type PruneCodes struct{}

// Kind implements core.Job.
func (PruneCodes) Kind() string { return "email_codes.prune" }

// Prune is PruneCodes' work.
func (s Accounts) Prune(ctx context.Context, _ PruneCodes) error {
	_, err := s.DB.Pool.Exec(ctx, `DELETE FROM email_codes WHERE touched_at < now() - interval '2 days'`)
	if err == nil {
		// The Discord link's codes and OAuth2 states, likewise.
		_, err = s.DB.Pool.Exec(ctx, `DELETE FROM discord_codes WHERE sent_at < now() - interval '2 days'`)
	}
	if err == nil {
		_, err = s.DB.Pool.Exec(ctx, `DELETE FROM discord_oauth_states WHERE expires_at < now()`)
	}
	return unavailable(err)
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
       discord_id = CASE WHEN u.email_verified THEN u.discord_id END,
       discord_verified = u.email_verified AND u.discord_verified,
       name = CASE WHEN u.email_verified THEN u.name ELSE EXCLUDED.name END,
       avatar_image_id = CASE WHEN u.email_verified THEN u.avatar_image_id END,
       email_verified = true, updated_at = now()
RETURNING ` + userColumns

// UpsertGoogleUser implements accounts.Store. The code of a sign-up it takes
// over dies with it (its row, cooldown and tries stay).
func (s Accounts) UpsertGoogleUser(ctx context.Context, address []byte, googleID, email, name string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `UPDATE email_codes SET user_id = NULL, code_mac = NULL, expires_at = now(), contested = false
			WHERE address_mac = $1 AND purpose = 'verify'`, address); err != nil {
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

// UpdateDiscordUsername implements accounts.Store: a typed name, which a
// proven link keeps from being changed. Registered players' cards show the
// name, so their lists are marked changed in the same transaction.
func (s Accounts) UpdateDiscordUsername(ctx context.Context, userID int64, discord string) (accounts.User, error) {
	var u accounts.User
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users u SET discord_username = $2, updated_at = now()
			WHERE u.id = $1 AND u.discord_id IS NULL RETURNING `+userColumns, userID, discord))
		if errors.Is(err, pgx.ErrNoRows) {
			if _, err := s.FindUserByID(ctx, userID); err != nil {
				return err
			}
			return errs.E(errs.Conflict, accounts.MsgDiscordNameLocked)
		}
		if err != nil {
			return err
		}
		return bumpRosters(ctx, tx, userID)
	})
	return u, unavailable(err)
}

// UpdatePassword implements accounts.Store; the caller ends the sessions
// the change must end. A reset's code for the account dies with the old
// password.
func (s Accounts) UpdatePassword(ctx context.Context, userID int64, hash string) (accounts.User, error) {
	u, err := scanUser(s.DB.q(ctx).QueryRow(ctx, `UPDATE users u SET password_hash = $2,
		updated_at = now() WHERE u.id = $1 RETURNING `+userColumns, userID, hash))
	if err == nil {
		_, err = s.DB.q(ctx).Exec(ctx, `UPDATE email_codes SET code_mac = NULL, expires_at = now()
			WHERE user_id = $1 AND purpose = 'reset'`, userID)
	}
	return u, unavailable(notFound(err, "Account not found"))
}

// bumpRosters marks every list the user appears on as changed.
func bumpRosters(ctx context.Context, tx querier, userID int64) error {
	_, err := tx.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1
		WHERE id IN (SELECT tournament_id FROM registrations WHERE user_id = $1)`, userID)
	return err
}
