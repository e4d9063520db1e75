package postgres

import (
	"context"
	"time"
)

// Backlog is what waits in the database: the outbox's unpublished events
// and the age of the oldest (the relay's lag, seen from the table), and the
// job queue's jobs by state (available: due now; retryable: failed, to be
// tried again; discarded: given up on in the last hour).
type Backlog struct {
	PendingEvents int
	OldestPending time.Duration
	Jobs          map[string]int
}

const backlogSQL = `
SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0)
  FROM outbox WHERE published_at IS NULL`

const jobStatesSQL = `
SELECT state::text, count(*) FROM river_job
 WHERE state IN ('available', 'retryable') OR (state = 'discarded' AND finalized_at > now() - interval '1 hour')
 GROUP BY state`

// Backlog reads the database's backlog.
func (db *DB) Backlog(ctx context.Context) (Backlog, error) {
	out := Backlog{Jobs: map[string]int{"available": 0, "retryable": 0, "discarded": 0}}
	var secs float64
	if err := db.Pool.QueryRow(ctx, backlogSQL).Scan(&out.PendingEvents, &secs); err != nil {
		return out, err
	}
	out.OldestPending = time.Duration(secs * float64(time.Second))
	rows, err := db.Pool.Query(ctx, jobStatesSQL)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			state string
			n     int
		)
		if err := rows.Scan(&state, &n); err != nil {
			return out, err
		}
		out.Jobs[state] = n
	}
	return out, rows.Err()
}
