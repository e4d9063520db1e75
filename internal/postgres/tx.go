package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pitlane/pitlane/internal/core"
)

var _ core.Transactor = (*DB)(nil)

type txKey struct{}

// querier is what store methods run SQL on: the transaction of their ctx
// (core.Transactor), else the pool.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// q is the transaction of ctx, or the pool.
func (db *DB) q(ctx context.Context) querier {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx
	}
	return db.Pool
}

// inTx tells whether ctx carries a transaction.
func inTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(pgx.Tx)
	return ok
}

// maxAttempts bounds the retries of a transaction that lost a deadlock or
// a serialisation race.
const maxAttempts = 4

// Transact implements core.Transactor. Inside a transaction already, fn
// joins it: a store method that needs several statements to be atomic calls
// Transact too, and takes part in its caller's unit of work.
func (db *DB) Transact(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.run(ctx, pgx.TxOptions{}, fn)
}

// Snapshot implements core.Transactor.
func (db *DB) Snapshot(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.run(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

func (db *DB) run(ctx context.Context, opts pgx.TxOptions, fn func(ctx context.Context) error) error {
	if inTx(ctx) {
		return fn(ctx)
	}
	var err error
	for range maxAttempts {
		err = pgx.BeginTxFunc(ctx, db.Pool, opts, func(tx pgx.Tx) error {
			return fn(context.WithValue(ctx, txKey{}, tx))
		})
		if !retryable(err) {
			break
		}
	}
	return unavailable(err)
}

// Querier runs SQL in a rehearsal's transaction.
type Querier = querier

// errRehearsal ends a rehearsal's transaction.
var errRehearsal = errors.New("postgres: rehearsal rolled back")

// Rehearse runs fn in a transaction that is always rolled back: every store
// call and Transact made with fn's ctx joins it, and q reads what they did.
// Tests use it to try one change in many states without keeping any.
func (db *DB) Rehearse(ctx context.Context, fn func(ctx context.Context, q Querier) error) error {
	err := pgx.BeginTxFunc(ctx, db.Pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := fn(context.WithValue(ctx, txKey{}, tx), tx); err != nil {
			return err
		}
		return errRehearsal
	})
	if errors.Is(err, errRehearsal) {
		return nil
	}
	return err
}

// Attempt runs fn as a unit inside the transaction of ctx (a savepoint):
// when fn fails, what it did is undone and the transaction goes on, as a
// failed Transact of its own would have left nothing. Outside a
// transaction it is Transact.
func (db *DB) Attempt(ctx context.Context, fn func(ctx context.Context) error) error {
	tx, ok := ctx.Value(txKey{}).(pgx.Tx)
	if !ok {
		return db.Transact(ctx, fn)
	}
	return pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
		return fn(context.WithValue(ctx, txKey{}, sp))
	})
}

// retryable tells a transaction that failed only because another one won a
// race (deadlock, serialisation failure): running it again will do.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}
