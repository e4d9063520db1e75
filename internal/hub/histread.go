package hub

import (
	"context"
	"sync"
	"time"
)

// historyReads shares history reads among the clients waiting on a topic:
// a burst of subscriptions with since (every client of an instance coming
// back after a Redis restart) costs one read per topic in flight and one
// queued behind it, not one per client. A waiter never joins a read begun
// before it arrived: its subscription was registered first, so what is
// published after that is held back for it, and what came before must be in
// the read.
type historyReads struct {
	read    func(ctx context.Context, topic string, since int64) (int64, []event, error)
	timeout time.Duration // a read's own deadline: it serves many clients, not the first one
	reads   func()        // counts a read (the metric)

	mu     sync.Mutex
	topics map[string]*topicReads
}

type topicReads struct {
	running bool
	next    *historyRead // gathering waiters for the read after the running one
	waiting int          // waiters in next (for tests)
}

// historyRead is one read of a topic, from the oldest since of its waiters
// (-1 when none asked for events: the read gives the topic's seq only).
type historyRead struct {
	since int64
	done  chan struct{}
	cur   int64
	evs   []event // contiguous, ending at cur
	err   error
}

func newHistoryReads(read func(context.Context, string, int64) (int64, []event, error),
	timeout time.Duration, reads func()) *historyReads {
	return &historyReads{read: read, timeout: timeout, reads: reads, topics: make(map[string]*topicReads)}
}

// get returns the topic's latest seq and the events after since (or after
// since = -1: none) that the store still holds contiguously up to it;
// covered reports whether they reach back to since+1.
func (r *historyReads) get(ctx context.Context, topic string, since int64) (cur int64, evs []event, covered bool, err error) {
	r.mu.Lock()
	t := r.topics[topic]
	if t == nil {
		t = &topicReads{}
		r.topics[topic] = t
	}
	hr := t.next
	if hr == nil {
		hr = &historyRead{since: since, done: make(chan struct{})}
		t.next = hr
	} else if since >= 0 && (hr.since < 0 || since < hr.since) {
		hr.since = since
	}
	t.waiting++
	if !t.running {
		t.running, t.next, t.waiting = true, nil, 0
		go r.run(topic, t, hr)
	}
	r.mu.Unlock()

	select {
	case <-hr.done:
	case <-ctx.Done():
		return 0, nil, false, ctx.Err()
	}
	if hr.err != nil {
		return 0, nil, false, hr.err
	}
	evs, covered = cover(hr.cur, hr.evs, since)
	return hr.cur, evs, covered, nil
}

// run does hr and then each read that gathered waiters meanwhile.
func (r *historyReads) run(topic string, t *topicReads, hr *historyRead) {
	for hr != nil {
		r.reads()
		ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
		hr.cur, hr.evs, hr.err = r.read(ctx, topic, hr.since)
		cancel()
		close(hr.done)
		r.mu.Lock()
		hr, t.next, t.waiting = t.next, nil, 0
		if hr == nil {
			t.running = false
			delete(r.topics, topic)
		}
		r.mu.Unlock()
	}
}

// waiters is how many clients wait for the read after the running one.
func (r *historyReads) waiters(topic string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.topics[topic]; t != nil {
		return t.waiting
	}
	return 0
}

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
