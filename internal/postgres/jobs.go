package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/pitlane/pitlane/internal/core"
)

// Jobs is Pitlane's scheduled work, kept in this database by
// riverqueue/river: a job inserted in a unit of work commits with it, one
// instance runs it, and a job whose instance died mid-run is rescued and run
// again elsewhere. Workers are registered (Work, Every) before Start.
type Jobs struct {
	DB  *DB
	Log *slog.Logger
	// RescueAfter is how long a job may run before it is taken for dead and
	// run again (default river's, an hour); tests shorten it.
	RescueAfter time.Duration

	// Observe, when set, is told of each job that ran: its kind and
	// whether it failed (it is then retried with backoff, or given up).
	Observe func(kind string, failed bool)

	workers  *river.Workers
	periodic []*river.PeriodicJob
	client   *river.Client[pgx.Tx]
	unwatch  func()
}

var _ core.Scheduler = (*Jobs)(nil)

// Work registers fn as the worker of jobs of type T. A job that returns an
// error is retried with backoff; it must be safe to run twice (the instance
// running it may die after its work and before river records it).
func Work[T core.Job](j *Jobs, fn func(ctx context.Context, job T) error) {
	if j.workers == nil {
		j.workers = river.NewWorkers()
	}
	river.AddWorker(j.workers, river.WorkFunc(func(ctx context.Context, rj *river.Job[T]) error {
		return fn(ctx, rj.Args)
	}))
}

// Every runs job every interval on one instance (river's leader), and once
// at start.
func (j *Jobs) Every(interval time.Duration, job core.Job) {
	j.periodic = append(j.periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return job, nil }, &river.PeriodicJobOpts{RunOnStart: true}))
}

// Start begins working jobs; it returns once the client runs.
func (j *Jobs) Start(ctx context.Context) error {
	if j.workers == nil {
		j.workers = river.NewWorkers()
	}
	log := j.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg := &river.Config{
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 8}},
		Workers:              j.workers,
		PeriodicJobs:         j.periodic,
		RescueStuckJobsAfter: j.RescueAfter,
		Logger:               slog.New(atLeast{log.Handler(), slog.LevelWarn}).With(slog.String("component", "jobs")),
	}
	if j.RescueAfter > 0 && j.RescueAfter < river.JobTimeoutDefault {
		cfg.JobTimeout = j.RescueAfter // a job is given up on before it is rescued
	}
	client, err := river.NewClient(riverpgxv5.New(j.DB.Pool), cfg)
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	j.client = client
	if j.Observe != nil {
		events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		j.unwatch = cancel
		go func() {
			for ev := range events {
				if ev != nil && ev.Job != nil {
					j.Observe(ev.Job.Kind, ev.Kind == river.EventKindJobFailed)
				}
			}
		}()
	}
	return client.Start(context.WithoutCancel(ctx))
}

// Stop lets running jobs finish (until ctx ends, then cancels them).
func (j *Jobs) Stop(ctx context.Context) error {
	if j.client == nil {
		return nil
	}
	if j.unwatch != nil {
		defer j.unwatch()
	}
	if err := j.client.Stop(ctx); err != nil && errors.Is(err, context.DeadlineExceeded) {
		return j.client.StopAndCancel(context.Background())
	}
	return nil
}

// ErrJobsNotStarted is Schedule's answer before Start.
var ErrJobsNotStarted = errors.New("postgres: jobs: not started")

// Schedule implements core.Scheduler: in the transaction of ctx when there
// is one.
func (j *Jobs) Schedule(ctx context.Context, job core.Job, at time.Time) error {
	if j.client == nil {
		return ErrJobsNotStarted
	}
	opts := &river.InsertOpts{ScheduledAt: at}
	var err error
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		_, err = j.client.InsertTx(ctx, tx, job, opts)
	} else {
		_, err = j.client.Insert(ctx, job, opts)
	}
	return unavailable(err)
}

// Unschedule implements core.Scheduler: in the transaction of ctx when
// there is one. A job already running is left to finish (its work checks
// that it still holds).
func (j *Jobs) Unschedule(ctx context.Context, kind, field string, value any) error {
	if j.client == nil {
		return ErrJobsNotStarted
	}
	params := river.NewJobDeleteManyParams().Kinds(kind).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending).
		Where("args->>@field = @value", river.NamedArgs{"field": field, "value": fmt.Sprint(value)})
	var err error
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		_, err = j.client.JobDeleteManyTx(ctx, tx, params)
	} else {
		_, err = j.client.JobDeleteMany(ctx, params)
	}
	return unavailable(err)
}

// migrateJobs applies river's own migrations.
func migrateJobs(ctx context.Context, db *DB) ([]string, error) {
	m, err := rivermigrate.New(riverpgxv5.New(db.Pool), nil)
	if err != nil {
		return nil, err
	}
	res, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return nil, fmt.Errorf("river migrations: %w", err)
	}
	var names []string
	for _, v := range res.Versions {
		names = append(names, fmt.Sprintf("river %03d %s", v.Version, v.Name))
	}
	return names, nil
}

// PruneOutbox deletes published outbox events older than a day: clients
// that are further behind reload (resync) anyway.
type PruneOutbox struct{}

// Kind implements core.Job.
func (PruneOutbox) Kind() string { return "outbox.prune" }

// Prune is PruneOutbox's work.
func (o Outbox) Prune(ctx context.Context, _ PruneOutbox) error {
	_, err := o.DB.Pool.Exec(ctx, `DELETE FROM outbox WHERE published_at < now() - interval '1 day'`)
	return unavailable(err)
}

// atLeast drops records below its level: river reports each job at info.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h atLeast) WithAttrs(as []slog.Attr) slog.Handler {
	return atLeast{h.Handler.WithAttrs(as), h.min}
}

func (h atLeast) WithGroup(name string) slog.Handler {
	return atLeast{h.Handler.WithGroup(name), h.min}
}
