package core

import (
	"context"
	"time"
)

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

// Job is scheduled work: its type names it (Kind) and its fields, stored as
// JSON, say what to do (close lot 12).
type Job interface {
	Kind() string
}

// Scheduler puts work off to a moment. Inside a Transactor's transaction the
// job is written with the change that asked for it, so it exists exactly
// when that change commits; it survives restarts and runs once across
// instances, again elsewhere if the instance running it dies.
type Scheduler interface {
	Schedule(ctx context.Context, job Job, at time.Time) error
	// Unschedule drops the jobs of kind not yet run whose field (of the
	// job's JSON) is value: work that a later change replaces, such as a
	// match's reminders when its time changes.
	Unschedule(ctx context.Context, kind, field string, value any) error
}
