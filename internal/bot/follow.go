// Following the hub without missing news: what a resync or a failure left
// out is read again from the outbox.

package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// Outbox reads a topic's events after a seq, committed since a moment, in
// seq order (postgres.Bot).
type Outbox interface {
	Missed(ctx context.Context, topic string, after int64, since time.Time) ([]core.Delivery, error)
}

// defaultHorizon bounds how late news is acted on when none is set.
const defaultHorizon = 10 * time.Minute

// follower hands handle a feed's deliveries, per topic in seq order and
// none twice. What the hub could not hand over (a resync: Redis lost its
// data, a gap in a failover) and what handle failed on (the database away)
// it reads from the outbox and hands over late, before anything newer; so
// it does when it starts, for what a follower before it may have left
// (handle's claims keep what was done from being done twice). Without an
// outbox, what was missed stays missed.
type follower struct {
	outbox  Outbox
	horizon time.Duration
	handle  func(context.Context, core.Delivery) error
	// skip, when set, is given a catch-up's events and names those to pass
	// over (the older of several Red Cap tables).
	skip func([]core.Delivery) func(core.Delivery) bool
	log  *slog.Logger
	what string // what handle does, for the log: "announcing"

	last map[string]int64 // per topic, the last seq handled or passed over
	owed map[string]bool  // topics owed a look at the outbox
}

// run follows topics of feed until ctx ends.
func (f *follower) run(ctx context.Context, feed core.Feed, topics ...string) {
	f.last, f.owed = map[string]int64{}, map[string]bool{}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	if f.horizon <= 0 {
		f.horizon = defaultHorizon
	}
	if f.outbox != nil {
		for _, t := range topics {
			f.owed[t] = true // what a follower before this one may have left
		}
	}
	deliveries := feed.Follow(ctx, topics...)
	for {
		f.catchUp(ctx)
		d, ok := <-deliveries
		if !ok {
			return
		}
		f.take(ctx, d)
	}
}

// take hands over one delivery of the hub, or notes what is owed.
func (f *follower) take(ctx context.Context, d core.Delivery) {
	if d.Resync {
		if f.outbox != nil {
			f.owed[d.Topic] = true
		}
		return
	}
	if last, ok := f.last[d.Topic]; ok && d.Seq <= last {
		return // handed over from the outbox already
	}
	if f.owed[d.Topic] {
		return // the catch-up reads it from the outbox, after what came before it
	}
	if !f.hand(ctx, d) && f.outbox != nil {
		f.owed[d.Topic] = true // tried again from the outbox
	}
}

// hand hands d over and notes it as the topic's last, or logs why not.
func (f *follower) hand(ctx context.Context, d core.Delivery) bool {
	if err := f.handle(ctx, d); err != nil {
		if ctx.Err() == nil {
			f.log.Warn("bot: "+f.what+" failed", slog.String("topic", d.Topic), slog.String("event", d.Event),
				slog.Int64("seq", d.Seq), slog.Any("err", err))
		}
		return false
	}
	f.last[d.Topic] = d.Seq
	return true
}

// catchUp hands over, from the outbox, what each owed topic missed: the
// events after the last one handled, within the horizon.
func (f *follower) catchUp(ctx context.Context) {
	for topic := range f.owed {
		evs, err := f.outbox.Missed(ctx, topic, f.last[topic], time.Now().Add(-f.horizon))
		if err != nil {
			if ctx.Err() == nil {
				f.log.Warn("bot: reading missed news failed", slog.String("topic", topic), slog.String("for", f.what), slog.Any("err", err))
			}
			continue // owed still: tried again at the next delivery
		}
		passed := func(core.Delivery) bool { return false }
		if f.skip != nil {
			passed = f.skip(evs)
		}
		done := true
		for _, d := range evs {
			if passed(d) {
				f.last[topic] = d.Seq
				continue
			}
			if !f.hand(ctx, d) {
				done = false
				break
			}
		}
		if done {
			delete(f.owed, topic)
		}
	}
}
