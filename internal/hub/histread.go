package hub

import (
	"context"
	"time"
)

// historyReads shares history reads among the clients waiting on a topic
// (sharedReads): the clients that come back together after a Redis restart
// cost one read per topic in flight and one queued behind it, from the
// oldest since among them, not one per client. A client never joins a read
// begun before it arrived: its subscription was registered first, so what
// is published after that is held back for it, and what came before must
// be in the read.
type historyReads struct {
	read   func(ctx context.Context, topic string, since int64) (int64, []event, error) // the store's
	shared *sharedReads[int64, history]
}

// history is one read of a topic: its latest seq and the events it still
// holds contiguously up to it.
type history struct {
	cur int64
	evs []event
}

func newHistoryReads(read func(context.Context, string, int64) (int64, []event, error),
	timeout time.Duration, reads func()) *historyReads {
	r := &historyReads{read: read}
	r.shared = newSharedReads(func(ctx context.Context, topic string, since int64) (history, error) {
		cur, evs, err := r.read(ctx, topic, since)
		return history{cur, evs}, err
	}, oldestSince, timeout, reads)
	return r
}

// oldestSince is the position a read shared by two clients starts from
// (-1: a client that asked for no events, only the topic's seq).
func oldestSince(next, since int64) int64 {
	if since >= 0 && (next < 0 || since < next) {
		return since
	}
	return next
}

// get returns the topic's latest seq and the events after since (or after
// since = -1: none) that the store still holds contiguously up to it;
// covered reports whether they reach back to since+1.
func (r *historyReads) get(ctx context.Context, topic string, since int64) (cur int64, evs []event, covered bool, err error) {
	h, err := r.shared.get(ctx, topic, since)
	if err != nil {
		return 0, nil, false, err
	}
	evs, covered = cover(h.cur, h.evs, since)
	return h.cur, evs, covered, nil
}

// waiters is how many clients wait for the read after the running one.
func (r *historyReads) waiters(topic string) int { return r.shared.waiters(topic) }

// cover picks out of evs (contiguous, ending at cur) the events after since,
// and tells whether they reach back to since+1.
func cover(cur int64, evs []event, since int64) ([]event, bool) {
	if since < 0 || since >= cur {
		return nil, true
	}
	if len(evs) == 0 || evs[0].seq > since+1 {
		return nil, false
	}
	return evs[since+1-evs[0].seq:], true
}
