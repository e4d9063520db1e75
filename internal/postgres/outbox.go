package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
)

// Outbox is the PostgreSQL store of core.Outbox.
type Outbox struct{ DB *DB }

var _ core.Outbox = Outbox{}

// notifyChannel wakes the relay when an event commits (NOTIFY is sent at
// commit, and only then).
const notifyChannel = "pitlane_outbox"

// emitSQL raises the topic's seq (locking its row until the transaction
// ends) and records the event under it.
const emitSQL = `
WITH s AS (
    INSERT INTO event_topics AS t (topic, seq) VALUES ($1, 1)
    ON CONFLICT (topic) DO UPDATE SET seq = t.seq + 1, updated_at = now()
    RETURNING seq)
INSERT INTO outbox (topic, seq, event, data)
SELECT $1, s.seq, $2, $3 FROM s
RETURNING seq`

// ErrNoTransaction is Emit's answer outside core.Transactor.Transact: an
// event written on its own could tell of a change that never commits.
var ErrNoTransaction = errors.New("postgres: outbox: Emit needs the transaction of the change it tells of")

// Emit implements core.Outbox. Call it last in a transaction: the topic's
// row stays locked until the commit.
func (o Outbox) Emit(ctx context.Context, topic, event string, data any) (int64, error) {
	if !inTx(ctx) {
		return 0, ErrNoTransaction
	}
	if _, ok := core.PublicTopic(topic); !ok || event == "" {
		return 0, fmt.Errorf("postgres: outbox: bad topic %q or event %q", topic, event)
	}
	raw := []byte("{}")
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return 0, fmt.Errorf("postgres: outbox: %s: %w", event, err)
		}
	}
	q := o.DB.q(ctx)
	var seq int64
	if err := q.QueryRow(ctx, emitSQL, topic, event, raw).Scan(&seq); err != nil {
		return 0, err
	}
	if _, err := q.Exec(ctx, `SELECT pg_notify($1, '')`, notifyChannel); err != nil {
		return 0, err
	}
	return seq, nil
}

// Seq implements core.Outbox.
func (o Outbox) Seq(ctx context.Context, topic string) (int64, error) {
	var seq int64
	err := o.DB.q(ctx).QueryRow(ctx, `SELECT seq FROM event_topics WHERE topic = $1`, topic).Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return seq, unavailable(err)
}
