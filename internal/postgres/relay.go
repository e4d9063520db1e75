package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pitlane/pitlane/internal/core"
)

// relayLock is the advisory lock whose holder is the one relay at work;
// relays on other instances wait to take over.
const relayLock = 7_346_222

// Relay hands committed outbox events to the live layer in commit order,
// retrying through its outages, so an event is never lost after its commit:
// it arrives late rather than not at all. One relay works at a time (the
// holder of an advisory lock); a relay that dies mid-batch may leave events
// that were delivered but not marked, and its successor delivers them again,
// which the live layer skips by seq.
type Relay struct {
	DB   *DB
	Sink core.Broadcaster
	Log  *slog.Logger
	// Batch is how many events are read at once (default 256).
	Batch int
	// Poll is how long the relay waits for a commit's NOTIFY before it
	// looks anyway (default 1 s); Standby how often a waiting relay tries
	// to take over (default 500 ms).
	Poll, Standby time.Duration
	// PrimeEvery is how often the live layer is told every recent topic's
	// seq (default 30 s), so a Redis that lost its data learns them again.
	PrimeEvery time.Duration
	// Observe, when set, is told of each event handed to the live layer
	// how long after its commit it went (the relay's lag).
	Observe func(lag time.Duration)

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// Start runs the relay in the background until Stop.
func (r *Relay) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.mu.Lock()
	r.cancel, r.done = cancel, make(chan struct{})
	r.mu.Unlock()
	go func() {
		defer close(r.done)
		r.Run(ctx)
	}()
}

// Stop ends the relay and waits for it (releasing its lock).
func (r *Relay) Stop() {
	r.mu.Lock()
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

func (r *Relay) defaults() {
	if r.Batch <= 0 {
		r.Batch = 256
	}
	if r.Poll <= 0 {
		r.Poll = time.Second
	}
	if r.Standby <= 0 {
		r.Standby = 500 * time.Millisecond
	}
	if r.PrimeEvery <= 0 {
		r.PrimeEvery = 30 * time.Second
	}
	if r.Log == nil {
		r.Log = slog.New(slog.DiscardHandler)
	}
}

// Run relays until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	r.defaults()
	for ctx.Err() == nil {
		led, err := r.leadOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.Log.Warn("outbox relay: lost its database connection; retrying", slog.Any("err", err))
		}
		if !led || err != nil {
			sleep(ctx, r.Standby)
		}
	}
}

// leadOnce takes the lock if it is free and relays until the connection
// holding it fails or ctx ends.
func (r *Relay) leadOnce(ctx context.Context) (led bool, err error) {
	conn, err := r.DB.Pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	healthy := false
	defer func() {
		if healthy {
			uctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, uerr := conn.Exec(uctx, `SELECT pg_advisory_unlock($1)`, relayLock)
			_, lerr := conn.Exec(uctx, `UNLISTEN *`)
			cancel()
			if uerr == nil && lerr == nil {
				conn.Release()
				return
			}
		}
		// A connection in an unknown state must not go back to the pool
		// holding the lock: closing it releases the lock.
		conn.Conn().Close(context.Background())
		conn.Release()
	}()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, relayLock).Scan(&locked); err != nil {
		return false, err
	}
	if !locked {
		healthy = true
		return false, nil
	}
	if _, err := conn.Exec(ctx, `LISTEN `+notifyChannel); err != nil {
		return true, err
	}
	err = r.lead(ctx, conn)
	healthy = ctx.Err() != nil && err == nil
	return true, err
}

func (r *Relay) lead(ctx context.Context, conn *pgxpool.Conn) error {
	r.Log.Info("outbox relay: leading")
	var lastPrime time.Time
	backoff := 100 * time.Millisecond
	failing := false
	for ctx.Err() == nil {
		if time.Since(lastPrime) >= r.PrimeEvery {
			if err := r.prime(ctx); err == nil {
				lastPrime = time.Now()
			}
		}
		n, err := r.relayBatch(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if !failing {
				r.Log.Warn("outbox relay: delivery failing; retrying until it works", slog.Any("err", err))
				failing = true
			}
			lastPrime = time.Time{} // what the live layer knows may be gone
			sleep(ctx, backoff)
			backoff = min(backoff*2, 2*time.Second)
			continue
		}
		if failing {
			r.Log.Info("outbox relay: delivering again")
			failing, backoff = false, 100*time.Millisecond
		}
		if n == r.Batch {
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, r.Poll)
		_, err = conn.Conn().WaitForNotification(wctx)
		cancel()
		if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			return err // the lock's connection is gone
		}
	}
	return nil
}

const unpublishedSQL = `
SELECT id, topic, seq, event, data::text, created_at FROM outbox
 WHERE published_at IS NULL ORDER BY id LIMIT $1`

// relayBatch delivers the oldest unpublished events and marks those that
// went out. Within a topic, id order is seq order: an event takes its id
// while it holds the topic's row lock.
func (r *Relay) relayBatch(ctx context.Context) (int, error) {
	rows, err := r.DB.Pool.Query(ctx, unpublishedSQL, r.Batch)
	if err != nil {
		return 0, err
	}
	var (
		ids []int64
		evs []core.Event
	)
	for rows.Next() {
		var (
			id   int64
			ev   core.Event
			data string
		)
		if err := rows.Scan(&id, &ev.Topic, &ev.Seq, &ev.Name, &data, &ev.At); err != nil {
			rows.Close()
			return 0, err
		}
		ev.Data = []byte(data)
		ids, evs = append(ids, id), append(evs, ev)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(evs) == 0 {
		return 0, nil
	}
	n, derr := r.Sink.Deliver(ctx, evs)
	if derr != nil && errors.Is(derr, core.ErrBadEvent) && n < len(evs) {
		// An event the live layer can never take must not hold back every
		// later one: it is logged and passed over.
		r.Log.Error("outbox relay: passing over an undeliverable event",
			slog.String("topic", evs[n].Topic), slog.Int64("seq", evs[n].Seq), slog.Any("err", derr))
		n, derr = n+1, nil
	}
	if n > 0 && r.Observe != nil {
		for _, ev := range evs[:n] {
			r.Observe(time.Since(ev.At))
		}
	}
	if n > 0 {
		mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_, err := r.DB.Pool.Exec(mctx, `UPDATE outbox SET published_at = now() WHERE id = ANY($1)`, ids[:n])
		cancel()
		if err != nil {
			return n, err // delivered again later, and skipped by seq
		}
	}
	if derr == nil && n < len(evs) {
		return n, fmt.Errorf("outbox relay: delivered %d of %d", n, len(evs))
	}
	return n, derr
}

// primeSQL is each recently used topic's last published seq: its seq
// less its unpublished events (always the latest ones).
const primeSQL = `
SELECT t.topic, t.seq - (SELECT count(*) FROM outbox o WHERE o.topic = t.topic AND o.published_at IS NULL)
  FROM event_topics t WHERE t.updated_at > now() - interval '2 days'`

func (r *Relay) prime(ctx context.Context) error {
	rows, err := r.DB.Pool.Query(ctx, primeSQL)
	if err != nil {
		return err
	}
	type topicSeq struct {
		topic string
		seq   int64
	}
	seqs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (topicSeq, error) {
		var ts topicSeq
		return ts, row.Scan(&ts.topic, &ts.seq)
	})
	if err != nil {
		return err
	}
	for _, ts := range seqs {
		if ts.seq <= 0 {
			continue
		}
		if err := r.Sink.Prime(ctx, ts.topic, ts.seq); err != nil {
			return err
		}
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
