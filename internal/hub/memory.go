package hub

import (
	"context"
	"sync"
	"time"
)

// store assigns seqs, keeps the bounded history and fans events out to
// every instance's dispatch, in seq order per topic.
type store interface {
	// publish stores and fans out an event: with seq 0 as the topic's next
	// seq, else as seq, unless the topic already has it (then dup is true
	// and nothing happens). A seq past the next one leaves a gap that
	// subscribers behind it learn of as a resync.
	publish(ctx context.Context, topic string, seq int64, prefix, suffix []byte) (_ int64, dup bool, _ error)
	// prime raises the topic's seq to at least seq, with no history below.
	prime(ctx context.Context, topic string, seq int64) error
	// forget drops the topic's history up to seq through, keeping its seq.
	forget(ctx context.Context, topic string, through int64) error
	// history returns the topic's latest seq and, when 0 <= since < cur,
	// the events after since that it still holds: in order, contiguous and
	// ending at cur, starting at since+1 or later when history no longer
	// reaches back that far (cover tells a reader whether it does).
	history(ctx context.Context, topic string, since int64) (cur int64, evs []event, err error)
	seq(ctx context.Context, topic string) (int64, error)
	close()
}

// memStore is the single-instance store: a counter and a ring per topic.
type memStore struct {
	dispatch func(topic string, ev event)
	size     int
	ttl      time.Duration // of idle user topics

	mu        sync.Mutex
	topics    map[string]*memTopic
	floors    map[string]int64 // last seq of forgotten topics: a topic never starts over
	lastSweep time.Time
}

type memTopic struct {
	mu   sync.Mutex
	seq  int64
	ring []event   // ring[(seq-1-base) % size] holds seq, for the last len(ring) seqs
	base int64     // the seq the topic started after (a forgotten topic's last)
	used time.Time // last publish; guarded by memStore.mu
}

func newMemStore(size int, ttl time.Duration, dispatch func(string, event)) *memStore {
	return &memStore{dispatch: dispatch, size: size, ttl: ttl,
		topics: make(map[string]*memTopic), floors: make(map[string]int64)}
}

// topic returns the named topic, created when new (its seq going on from
// where a forgotten one stopped), and forgets the user topics with no event
// for longer than the ttl (looking at most twice per ttl). publishing marks
// the topic used; reads do not.
func (s *memStore) topic(name string, publishing bool) *memTopic {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if now.Sub(s.lastSweep) >= s.ttl/2 {
		s.lastSweep = now
		for n, t := range s.topics {
			if isUserTopic(n) && now.Sub(t.used) > s.ttl {
				t.mu.Lock()
				s.floors[n] = t.seq
				t.mu.Unlock()
				delete(s.topics, n)
			}
		}
	}
	t := s.topics[name]
	if t == nil {
		t = &memTopic{seq: s.floors[name], base: s.floors[name], used: now}
		delete(s.floors, name)
		s.topics[name] = t
	}
	if publishing {
		t.used = now
	}
	return t
}

func (s *memStore) publish(_ context.Context, topic string, seq int64, prefix, suffix []byte) (int64, bool, error) {
	t := s.topic(topic, true)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case seq == 0:
		seq = t.seq + 1
	case seq <= t.seq:
		return t.seq, true, nil
	case seq > t.seq+1:
		t.restartAt(seq - 1)
	}
	t.seq = seq
	ev := newEvent(t.seq, buildFrame(prefix, t.seq, suffix))
	if len(t.ring) < s.size {
		t.ring = append(t.ring, ev)
	} else {
		t.ring[(ev.seq-1-t.base)%int64(s.size)] = ev
	}
	// Dispatch under the topic lock so concurrent publishers cannot reorder
	// seqs; dispatch only queues, so nothing waits on a client here.
	s.dispatch(topic, ev)
	return ev.seq, false, nil
}

// restartAt forgets the history: the topic goes on after seq.
func (t *memTopic) restartAt(seq int64) {
	t.seq, t.base, t.ring = seq, seq, nil
}

func (s *memStore) prime(_ context.Context, topic string, seq int64) error {
	t := s.topic(topic, false)
	t.mu.Lock()
	defer t.mu.Unlock()
	if seq > t.seq {
		t.restartAt(seq)
	}
	return nil
}

func (s *memStore) forget(_ context.Context, topic string, through int64) error {
	t := s.topic(topic, false)
	t.mu.Lock()
	defer t.mu.Unlock()
	through = min(through, t.seq)
	oldest := t.seq - int64(len(t.ring)) + 1
	if through < oldest {
		return nil
	}
	kept := make([]event, 0, t.seq-through)
	for q := through + 1; q <= t.seq; q++ {
		kept = append(kept, t.ring[(q-1-t.base)%int64(s.size)])
	}
	seq := t.seq
	t.restartAt(through)
	t.seq, t.ring = seq, kept
	return nil
}

func (s *memStore) history(_ context.Context, topic string, since int64) (int64, []event, error) {
	t := s.topic(topic, false)
	t.mu.Lock()
	defer t.mu.Unlock()
	if since < 0 || since >= t.seq {
		return t.seq, nil, nil
	}
	from := max(since+1, t.seq-int64(len(t.ring))+1)
	evs := make([]event, 0, t.seq-from+1)
	for q := from; q <= t.seq; q++ {
		evs = append(evs, t.ring[(q-1-t.base)%int64(s.size)])
	}
	return t.seq, evs, nil
}

func (s *memStore) seq(_ context.Context, topic string) (int64, error) {
	t := s.topic(topic, false)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq, nil
}

func (s *memStore) close() {}
