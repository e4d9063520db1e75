package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
)

// Audit is the PostgreSQL store of core.AuditLog.
type Audit struct{ DB *DB }

var _ core.AuditLog = Audit{}

// Record implements core.AuditLog: inside a transaction it joins it.
func (s Audit) Record(ctx context.Context, a core.Actor, action string, tournamentID int64, target string, data any) error {
	return s.record(ctx, a, action, tournamentID, 0, target, data)
}

// RecordAbout implements core.AuditLog.
func (s Audit) RecordAbout(ctx context.Context, a core.Actor, action string, tournamentID int64, about core.AuditSubject, data any) error {
	return s.record(ctx, a, action, tournamentID, about.UserID, about.Name, data)
}

func (s Audit) record(ctx context.Context, a core.Actor, action string, tournamentID, subject int64, target string, data any) error {
	raw := []byte("{}")
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return fmt.Errorf("postgres: audit %s: %w", action, err)
		}
	}
	name := a.Name
	if name == "" {
		name = core.AuditAnonymous
	}
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO audit_log (actor_id, actor_name, action, tournament_id, target, data, subject_id)
		VALUES (nullif($1, 0), $2, $3, nullif($4, 0), $5, $6, nullif($7, 0))`, a.UserID, name, action, tournamentID, target, raw, subject)
	return unavailable(err)
}

// MaxAuditPage bounds one read of the log (a page of audit.MaxLimit and the
// entry after it, which tells that there is a next page).
const MaxAuditPage = 1000

// listAuditSQL reads the log newest first, with the acting account as it is
// now; its filters combine, each off at its zero value.
const listAuditSQL = `
SELECT a.id, a.at, a.actor_id, a.actor_name, u.id IS NOT NULL, coalesce(u.discord_verified, false),
       coalesce(u.discord_username, ''), coalesce(u.name, ''), a.action, coalesce(t.name, ''), a.target, a.data::text
  FROM audit_log a
  LEFT JOIN tournaments t ON t.id = a.tournament_id
  LEFT JOIN users u ON u.id = a.actor_id
 WHERE ($1 = 0 OR a.tournament_id = $1) AND ($2 = '' OR a.action = $2) AND ($3 = 0 OR a.actor_id = $3)
   AND ($4 = 0 OR a.id < $4)
 ORDER BY a.id DESC
 LIMIT $5`

// List implements core.AuditLog.
func (s Audit) List(ctx context.Context, f core.AuditFilter) ([]core.AuditEntry, error) {
	if f.Limit <= 0 || f.Limit > MaxAuditPage {
		f.Limit = MaxAuditPage
	}
	rows, err := s.DB.q(ctx).Query(ctx, listAuditSQL, f.TournamentID, f.Action, f.ActorID, f.Before, f.Limit)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (core.AuditEntry, error) {
		var (
			e       core.AuditEntry
			acc     core.AuditAccount
			account bool
			data    string
		)
		err := row.Scan(&e.ID, &e.At, &e.Actor.UserID, &e.Actor.Name, &account, &acc.DiscordVerified, &acc.DiscordUsername,
			&acc.Name, &e.Act, &e.Tournament, &e.Target, &data)
		if account {
			e.Actor.Account = &acc
		}
		e.Data = json.RawMessage(data)
		return e, err
	})
	if out == nil {
		out = []core.AuditEntry{}
	}
	return out, unavailable(err)
}

// Actions implements audit.Reader.
func (s Audit) Actions(ctx context.Context, tournamentID int64) ([]string, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT DISTINCT action FROM audit_log
		WHERE $1 = 0 OR tournament_id = $1 ORDER BY action`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, unavailable(err)
}
