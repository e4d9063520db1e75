package mail

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// ErrQueueFull is what failed is told when a mail finds the queue full.
var ErrQueueFull = errors.New("mail: queue full")

// ErrQueueClosed is what failed is told of a mail posted after Close.
var ErrQueueClosed = errors.New("mail: queue closed")

// Queue is a core.MailQueue on a Mailer: a bounded queue and a few workers.
// A full queue drops the mail at once (logged, failed called) rather than
// holding the request that posted it.
type Queue struct {
	m       core.Mailer
	log     *slog.Logger
	timeout time.Duration
	jobs    chan job

	mu      sync.Mutex
	idle    *sync.Cond // signalled when pending falls to 0
	closed  bool
	pending int // mails posted and not yet sent or failed
	workers sync.WaitGroup
}

type job struct {
	m       Message
	compose func(ctx context.Context) (*Message, error) // nil: m as it is
	failed  func(error)
}

var _ core.MailQueue = (*Queue)(nil)

// NewQueue starts workers goroutines sending through m, with room for size
// mails waiting; each send may take up to timeout.
func NewQueue(m core.Mailer, workers, size int, timeout time.Duration, log *slog.Logger) *Queue {
	q := &Queue{m: m, log: log, timeout: timeout, jobs: make(chan job, size)}
	q.idle = sync.NewCond(&q.mu)
	for range workers {
		q.workers.Go(q.work)
	}
	return q
}

// Post implements core.MailQueue.
func (q *Queue) Post(m Message, failed func(error)) { q.queue(job{m: m, failed: failed}) }

// Compose implements core.MailQueue: compose runs on a worker, within the
// send's timeout.
func (q *Queue) Compose(compose func(ctx context.Context) (*Message, error), failed func(error)) {
	q.queue(job{compose: compose, failed: failed})
}

func (q *Queue) queue(j job) {
	m, failed := j.m, j.failed
	q.mu.Lock()
	err := ErrQueueClosed
	if !q.closed {
		select {
		case q.jobs <- j:
			q.pending++
			err = nil
		default:
			err = ErrQueueFull
		}
	}
	q.mu.Unlock()
	if err != nil {
		q.fail(m, failed, err)
	}
}

func (q *Queue) work() {
	for j := range q.jobs {
		q.run(j)
		q.done()
	}
}

// run writes j's mail when it is composed, and sends it.
func (q *Queue) run(j job) {
	ctx, cancel := context.WithTimeout(context.Background(), q.timeout)
	defer cancel()
	m := j.m
	if j.compose != nil {
		composed, err := j.compose(ctx)
		if err != nil {
			q.fail(m, j.failed, err)
			return
		}
		if composed == nil {
			return // nothing to send after all
		}
		m = *composed
	}
	if err := q.m.Send(ctx, m); err != nil {
		q.fail(m, j.failed, err)
	}
}

// done counts a job off the pending ones.
func (q *Queue) done() {
	q.mu.Lock()
	if q.pending--; q.pending == 0 {
		q.idle.Broadcast()
	}
	q.mu.Unlock()
}

// fail logs a mail that was not sent (its subject, never its address or
// text) and tells whoever posted it.
func (q *Queue) fail(m Message, failed func(error), err error) {
	q.log.Error("mail not sent", slog.String("subject", m.Subject), slog.Any("err", err))
	if failed != nil {
		failed(err)
	}
}

// Wait returns once every mail posted so far is sent or has failed, or ctx
// ends. Tests use it to know that no further mail is on its way.
func (q *Queue) Wait(ctx context.Context) error {
	return until(ctx, func() {
		q.mu.Lock()
		for q.pending > 0 {
			q.idle.Wait()
		}
		q.mu.Unlock()
	})
}

// Close stops taking mails and sends those queued, until ctx ends.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.jobs)
	}
	q.mu.Unlock()
	return until(ctx, q.workers.Wait)
}

// until runs wait and returns when it does or when ctx ends.
func until(ctx context.Context, wait func()) error {
	done := make(chan struct{})
	go func() {
		wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
