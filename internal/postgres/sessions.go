package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
)

var _ accounts.SessionStore = Accounts{}

const sessionColumns = `s.id, s.user_id, s.method, s.client, s.created_at, s.seen_at, s.expires_at, s.second_factor_at`

func scanSession(row pgx.Row, extra ...any) (accounts.StoredSession, error) {
	var st accounts.StoredSession
	err := row.Scan(append([]any{&st.ID, &st.UserID, &st.Method, &st.Client, &st.CreatedAt, &st.SeenAt, &st.ExpiresAt,
		&st.SecondFactorAt}, extra...)...)
	return st, err
}

// CreateSession implements accounts.SessionStore.
func (s Accounts) CreateSession(ctx context.Context, st accounts.StoredSession) (accounts.StoredSession, error) {
	st, err := scanSession(s.DB.q(ctx).QueryRow(ctx, `
		INSERT INTO sessions AS s (user_id, method, client, expires_at, second_factor_at) VALUES ($1, $2, $3, $4, $5)
		RETURNING `+sessionColumns, st.UserID, st.Method, st.Client, st.ExpiresAt, st.SecondFactorAt))
	return st, unavailable(err)
}

// seenEvery is how stale a session's seen_at may grow before a request
// writes it again: every request reads its session, few write.
const seenEvery = 5 * time.Minute

// findSessionSQL reads a live session with its account in one statement,
// and notes the session seen when its mark is older than seenEvery; the
// account's second factors come with it (the organiser role depends on
// them).
const findSessionSQL = `
WITH seen AS (
	UPDATE sessions SET seen_at = now()
	 WHERE id = $2 AND user_id = $1 AND expires_at > now() AND seen_at < now() - $3::interval
	RETURNING id)
SELECT ` + sessionColumns + `, ` + userColumns + `,
       EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL)
       OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)
  FROM sessions s JOIN users u ON u.id = s.user_id
 WHERE s.id = $2 AND s.user_id = $1 AND s.expires_at > now()`

// FindSession implements accounts.SessionStore.
func (s Accounts) FindSession(ctx context.Context, userID, id int64) (accounts.User, accounts.StoredSession, bool, error) {
	var (
		u      accounts.User
		factor bool
	)
	st, err := scanSession(s.DB.q(ctx).QueryRow(ctx, findSessionSQL, userID, id, seenEvery),
		&u.ID, &u.Email, &u.PasswordHash, &u.Name, &u.GoogleID, &u.GoogleName, &u.AvatarURL,
		&u.DiscordUsername, &u.DiscordID, &u.DiscordVerified, &u.EmailVerified, &u.CreatedAt, &factor)
	return u, st, factor, unavailable(notFound(err, "Session not found"))
}

// ListSessions implements accounts.SessionStore, newest first.
func (s Accounts) ListSessions(ctx context.Context, userID int64) ([]accounts.StoredSession, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+sessionColumns+` FROM sessions s
		WHERE s.user_id = $1 AND s.expires_at > now() ORDER BY s.id DESC`, userID)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.StoredSession, error) { return scanSession(row) })
	return list, unavailable(err)
}

// EndSessions implements accounts.SessionStore: ended sessions are
// deleted, so nothing of them outlives the sign-out.
func (s Accounts) EndSessions(ctx context.Context, userID int64, only, keep int64) ([]int64, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `DELETE FROM sessions WHERE user_id = $1
		AND ($2 = 0 OR id = $2) AND id <> $3 RETURNING id`, userID, only, keep)
	if err != nil {
		return nil, unavailable(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, unavailable(err)
}

// MarkSecondFactor implements accounts.SessionStore.
func (s Accounts) MarkSecondFactor(ctx context.Context, userID, id int64) (accounts.StoredSession, error) {
	st, err := scanSession(s.DB.q(ctx).QueryRow(ctx, `UPDATE sessions s SET second_factor_at = now()
		WHERE s.id = $2 AND s.user_id = $1 RETURNING `+sessionColumns, userID, id))
	return st, unavailable(notFound(err, "Session not found"))
}

// PruneSessions deletes expired sessions.
type PruneSessions struct{}

// Kind implements core.Job.
func (PruneSessions) Kind() string { return "sessions.prune" }

// PruneSessions is PruneSessions' work: expired sessions, ceremonies and
// changes of address nobody finished.
func (s Accounts) PruneSessions(ctx context.Context, _ PruneSessions) error {
	for _, q := range []string{
		`DELETE FROM sessions WHERE expires_at < now()`,
		`DELETE FROM webauthn_ceremonies WHERE expires_at < now()`,
		`DELETE FROM email_changes WHERE expires_at < now() - interval '1 day'`,
	} {
		if _, err := s.DB.Pool.Exec(ctx, q); err != nil {
			return unavailable(err)
		}
	}
	return nil
}
