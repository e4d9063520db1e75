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
	raw := []byte("{}")
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return fmt.Errorf("postgres: audit %s: %w", action, err)
		}
	}
	name := a.Name
	if name == "" {
		name = "anonymous"
	}
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO audit_log (actor_id, actor_name, action, tournament_id, target, data)
		VALUES (nullif($1, 0), $2, $3, nullif($4, 0), $5, $6)`, a.UserID, name, action, tournamentID, target, raw)
	return unavailable(err)
}

// MaxAuditPage bounds one read of the log.
const MaxAuditPage = 500

// List implements core.AuditLog.
func (s Audit) List(ctx context.Context, f core.AuditFilter) ([]core.AuditEntry, error) {
	if f.Limit <= 0 || f.Limit > MaxAuditPage {
		f.Limit = MaxAuditPage
	}
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT a.at, a.actor_id, a.actor_name, a.action, coalesce(t.name, ''), a.target, a.data::text
		  FROM audit_log a LEFT JOIN tournaments t ON t.id = a.tournament_id
		 WHERE $1 = 0 OR a.tournament_id = $1
		 ORDER BY a.id DESC LIMIT $2`, f.TournamentID, f.Limit)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (core.AuditEntry, error) {
		var (
			e    core.AuditEntry
			data string
		)
		err := row.Scan(&e.At, &e.Actor.UserID, &e.Actor.Name, &e.Act, &e.Tournament, &e.Target, &data)
		e.Data = json.RawMessage(data)
		return e, err
	})
	if out == nil {
		out = []core.AuditEntry{}
	}
	return out, unavailable(err)
}
