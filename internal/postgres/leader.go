package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
)

// Advisory lock keys of work one instance does at a time.
const (
	// BotLock is held by the instance whose Discord bot answers.
	BotLock = 7_346_223
)

// Leader runs work on one instance at a time across instances: the holder
// of an advisory lock on a connection of its own. Others wait and take over
// when the holder stops or its connection dies (PostgreSQL then releases the
// lock).
type Leader struct {
	DB  *DB
	Key int64
	Log *slog.Logger
	// Standby is how often a waiting instance tries to take over, and how
	// often the leader checks that it still holds its connection (default 2 s).
	Standby time.Duration
}

// Run calls lead whenever this instance holds the lock, with a ctx that ends
// when the lock is lost, until ctx ends.
func (l *Leader) Run(ctx context.Context, lead func(ctx context.Context) error) {
	if l.Standby <= 0 {
		l.Standby = 2 * time.Second
	}
	if l.Log == nil {
		l.Log = slog.New(slog.DiscardHandler)
	}
	for ctx.Err() == nil {
		if err := l.once(ctx, lead); err != nil && ctx.Err() == nil {
			l.Log.Warn("leader: lost or could not take the lock; retrying", slog.Int64("key", l.Key), slog.Any("err", err))
		}
		sleep(ctx, l.Standby)
	}
}

func (l *Leader) once(ctx context.Context, lead func(ctx context.Context) error) error {
	conn, err := l.DB.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The lock's connection never goes back to the pool: closing it is
	// what releases the lock, whatever state it is in.
	defer func() {
		conn.Conn().Close(context.Background())
		conn.Release()
	}()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, l.Key).Scan(&locked); err != nil || !locked {
		return err
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- lead(lctx) }()
	t := time.NewTicker(l.Standby)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-t.C:
			pctx, pcancel := context.WithTimeout(ctx, l.Standby)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil && ctx.Err() == nil {
				cancel() // the lock may be someone else's now
				<-done
				return err
			}
		}
	}
}

// Bot is the Discord bot's store: which announcements were made, and small
// facts kept across instances.
type Bot struct{ DB *DB }

// ClaimAnnouncement records key and reports whether this call was the
// first to: only the first announces.
func (b Bot) ClaimAnnouncement(ctx context.Context, key string) (bool, error) {
	tag, err := b.DB.q(ctx).Exec(ctx, `INSERT INTO discord_announcements (key) VALUES ($1) ON CONFLICT DO NOTHING`, key)
	if err != nil {
		return false, unavailable(err)
	}
	return tag.RowsAffected() == 1, nil
}

// SwapState sets key to value and reports whether that changed it.
func (b Bot) SwapState(ctx context.Context, key, value string) (bool, error) {
	tag, err := b.DB.q(ctx).Exec(ctx, `INSERT INTO discord_state (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
		WHERE discord_state.value <> EXCLUDED.value`, key, value)
	if err != nil {
		return false, unavailable(err)
	}
	return tag.RowsAffected() == 1, nil
}

// Missed is a topic's news after seq committed since a moment, from the
// outbox in seq order (at most 1,000): what the announcer missed in a
// resync, or before it took over.
func (b Bot) Missed(ctx context.Context, topic string, after int64, since time.Time) ([]core.Delivery, error) {
	rows, err := b.DB.q(ctx).Query(ctx, `SELECT seq, event, data, created_at FROM outbox
		WHERE topic = $1 AND seq > $2 AND created_at >= $3 ORDER BY seq LIMIT 1000`, topic, after, since)
	if err != nil {
		return nil, unavailable(err)
	}
	evs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (core.Delivery, error) {
		d := core.Delivery{Topic: topic}
		err := row.Scan(&d.Seq, &d.Event, &d.Data, &d.At)
		return d, err
	})
	return evs, unavailable(err)
}
