package core

import "context"

// Transactor is the unit of work: every store call made with fn's ctx
// takes part in one database transaction, so a change, its audit entry and
// its live event are committed together or not at all. fn may run more
// than once (a lost serialisation race is retried), so it must do nothing
// outside the database: send mail or call services after it returns.
type Transactor interface {
	Transact(ctx context.Context, fn func(ctx context.Context) error) error
	// Snapshot runs fn in one read-only transaction that sees a single
	// moment: a list and the seq it was read at agree.
	Snapshot(ctx context.Context, fn func(ctx context.Context) error) error
}
