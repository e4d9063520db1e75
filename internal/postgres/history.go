package postgres

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
)

// History is core.EventHistory over the outbox: it rewrites the rows at
// once and leaves the live layer's history to a job (ForgetHistory) that
// runs once the rows before it are delivered.
type History struct {
	DB   *DB
	Jobs core.Scheduler
}

var _ core.EventHistory = History{}

// ForgetHistory is the job that has the live layer forget each topic's
// events up to the seq it had when a player was redacted (Through): the
// shared topics, and an erased account's own.
type ForgetHistory struct {
	Through map[string]int64 `json:"through"`
}

// Kind implements core.Job.
func (ForgetHistory) Kind() string { return "forget_history" }

// namingSQL finds the rows whose data names account $1 by id, the way
// core.RedactEvent finds its cards (a row it leaves alone is rewritten to
// itself and kept).
const namingSQL = `
SELECT id, data::text FROM outbox
 WHERE jsonb_path_exists(data, '$.** ? (@.user_id == $u || @.id == $u)', jsonb_build_object('u', $1::bigint))`

// Redact implements core.EventHistory, in the caller's transaction.
func (h History) Redact(ctx context.Context, userID int64, pseudonym string) error {
	q := h.DB.q(ctx)
	own := core.UserTopic(userID)
	if pseudonym != "" {
		// An erased account's own events went to it alone; those still to
		// be delivered (a session's end closes its sockets) are redacted
		// below like the rest.
		if _, err := q.Exec(ctx, `DELETE FROM outbox WHERE topic = $1 AND published_at IS NOT NULL`, own); err != nil {
			return unavailable(err)
		}
	}
	rows, err := q.Query(ctx, namingSQL, userID)
	if err != nil {
		return unavailable(err)
	}
	type row struct {
		id   int64
		data string
	}
	naming, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.data)
	})
	if err != nil {
		return unavailable(err)
	}
	for _, x := range naming {
		out, changed, err := core.RedactEvent([]byte(x.data), userID, pseudonym)
		if err != nil || !changed {
			continue // an event that does not parse carries no card of ours
		}
		if _, err := q.Exec(ctx, `UPDATE outbox SET data = $2::jsonb WHERE id = $1`, x.id, string(out)); err != nil {
			return unavailable(err)
		}
	}
	// Every shared topic's seq now, and an erased account's own: what the
	// live layer forgets once it has them all.
	rows, err = q.Query(ctx, `SELECT topic, seq FROM event_topics WHERE topic NOT LIKE 'user:%' OR topic = $1`, topicIf(pseudonym != "", own))
	if err != nil {
		return unavailable(err)
	}
	through := map[string]int64{}
	var (
		topic string
		seq   int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&topic, &seq}, func() error {
		through[topic] = seq
		return nil
	}); err != nil {
		return unavailable(err)
	}
	if len(through) == 0 {
		return nil
	}
	return h.Jobs.Schedule(ctx, ForgetHistory{Through: through}, time.Time{})
}

// topicIf is topic when cond holds, else "".
func topicIf(cond bool, topic string) string {
	if cond {
		return topic
	}
	return ""
}

// errUndelivered retries a ForgetHistory whose events are still on their
// way to the live layer.
var errUndelivered = errors.New("postgres: forget history: events before it are not delivered yet")

// ForgetDue is ForgetHistory's work: each topic's history up to its seq
// is forgotten, once the relay has delivered it (else the job is retried).
func (h History) ForgetDue(ctx context.Context, job ForgetHistory, keeper core.HistoryKeeper) error {
	var pending []string
	for topic, seq := range job.Through {
		var waiting bool
		if err := h.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE topic = $1 AND seq <= $2 AND published_at IS NULL)`,
			topic, seq).Scan(&waiting); err != nil {
			return unavailable(err)
		}
		if waiting {
			pending = append(pending, topic)
			continue
		}
		if err := keeper.Forget(ctx, topic, seq); err != nil {
			return err
		}
	}
	if len(pending) > 0 {
		return errors.Join(errUndelivered, errors.New(strings.Join(pending, ", ")))
	}
	return nil
}
