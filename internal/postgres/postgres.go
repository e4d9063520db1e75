// Package postgres holds Pitlane's PostgreSQL store: the connection pool, the
// migrator, and the SQL of every domain, each in its own file next to the code
// that scans it.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/migrations"
)

// DB is the pool every store method runs on.
type DB struct {
	Pool *pgxpool.Pool
}

// Open connects to url and checks the connection.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	if cfg.MaxConns < 16 {
		cfg.MaxConns = 16
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return &DB{Pool: pool}, nil
}

// Close closes the pool.
func (db *DB) Close() { db.Pool.Close() }

// Ping reports whether the database answers (for /readyz).
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// Identity is the database's own random id, made when it was migrated: the
// live layer keeps the outbox's seqs under it, so a database made again
// (dropped, restored, or a second one on the same Redis) starts afresh
// instead of having its events skipped as seqs already delivered.
func (db *DB) Identity(ctx context.Context) (string, error) {
	var id string
	if err := db.Pool.QueryRow(ctx, `SELECT id FROM site_identity`).Scan(&id); err != nil {
		return "", fmt.Errorf("postgres: the database's identity: %w", err)
	}
	return id, nil
}

// migrationLock is the advisory lock key that serialises migrators across instances.
const migrationLock = 7_346_221

// Migrate applies pending migrations, each in its own transaction, under an
// advisory lock so several instances starting at once apply each exactly once.
// It returns the names it applied.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	conn, err := db.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return nil, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)

	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, err
	}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var applied []string
	for _, name := range names {
		var done bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = $1)`, name).Scan(&done); err != nil {
			return applied, err
		}
		if done {
			continue
		}
		sql, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return applied, err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name) VALUES ($1)`, name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migration %s: %w", name, err)
		}
		applied = append(applied, name)
	}
	// Then the job queue's own tables (riverqueue/river), each in a
	// transaction of its own, still under the lock.
	river, err := migrateJobs(ctx, db)
	return append(applied, river...), err
}

// isUniqueViolation reports a 23505, which stores turn into a conflict.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// notFound turns pgx.ErrNoRows into a NotFound error with msg.
func notFound(err error, msg string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return errs.E(errs.NotFound, "%s", msg)
	}
	return err
}

// unavailable wraps a connection failure so the API answers 503, not 500,
// and text the database cannot store so it answers 400.
// idStrings reads the rows of a query of two columns, an id and a text,
// into a map (a user's name, a match's thread).
func idStrings(rows pgx.Rows, err error) (map[int64]string, error) {
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var (
			id   int64
			text string
		)
		if err := rows.Scan(&id, &text); err != nil {
			return nil, unavailable(err)
		}
		out[id] = text
	}
	return out, unavailable(rows.Err())
}

func unavailable(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && serverGoing(pgErr.Code) {
		return dbUnavailable()
	}
	if errors.As(err, &pgErr) && unstorable(pgErr.Code) {
		return errs.Wrap(errs.E(errs.Invalid, "The request holds a character that cannot be stored (such as a NUL)."), err)
	}
	if errors.As(err, &pgErr) || errors.Is(err, pgx.ErrNoRows) || errors.As(err, new(*errs.Error)) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || isConnErr(err) {
		return dbUnavailable()
	}
	return err
}

func dbUnavailable() error {
	return &errs.Error{Kind: errs.Unavailable, Message: "The database is unavailable. Please try again shortly."}
}

// serverGoing tells the SQLSTATEs of a server that ended the session or
// would not start one, whatever the query: a connection exception (class
// 08), the server shutting down or restarting (57P01 admin_shutdown, 57P02
// crash_shutdown: every session of a restart gets one) or starting up
// (57P03 cannot_connect_now), or full (53300 too_many_connections). The
// work was not done, and it will be shortly: 503, never 500.
func serverGoing(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// unstorable tells the SQLSTATEs of text the database cannot hold: a NUL
// or bytes that are not UTF-8 (22021 character_not_in_repertoire), or a
// character the encoding lacks (22P05 untranslatable_character). The API
// refuses such input before it gets here; should any slip by, it is the
// caller's input that is wrong (400), not the server (500).
func unstorable(code string) bool { return code == "22021" || code == "22P05" }

// isConnErr tells a lost or refused connection (the server went away
// mid-query: EOF; could not dial: a net error; a pooled connection found
// already closed: pgconn.ErrConnClosed) from a query's own failure.
func isConnErr(err error) bool {
	var connectErr *pgconn.ConnectError
	if errs.Transient(err) || errors.As(err, &connectErr) || pgconn.Timeout(err) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connect") || strings.Contains(s, "connection") || strings.Contains(s, "closed pool")
}
