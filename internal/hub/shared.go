package hub

import (
	"context"
	"sync"
	"time"
)

// sharedReads shares the reads of one key among the callers waiting on it:
// a burst of callers (every client of an instance coming back after a Redis
// restart) costs one read in flight and one queued behind it, not one per
// caller. A caller never joins a read begun before it arrived: what changed
// before it asked must be in the read it gets. A read's parameter is that
// of its first caller, folded with each newcomer's by merge if any (the
// history's reads start from the oldest position among them).
type sharedReads[P, R any] struct {
	read    func(ctx context.Context, key string, p P) (R, error)
	merge   func(next, p P) P
	timeout time.Duration // a read's own deadline: it serves many callers, not the first one
	count   func()        // counts a read (the metric)

	mu   sync.Mutex
	keys map[string]*keyReads[P, R]
}

type keyReads[P, R any] struct {
	running bool
	next    *sharedRead[P, R] // gathering callers for the read after the running one
	waiting int               // callers in next (for tests)
}

type sharedRead[P, R any] struct {
	p    P
	done chan struct{}
	r    R
	err  error
}

func newSharedReads[P, R any](read func(context.Context, string, P) (R, error), merge func(next, p P) P,
	timeout time.Duration, count func()) *sharedReads[P, R] {
	return &sharedReads[P, R]{read: read, merge: merge, timeout: timeout, count: count, keys: make(map[string]*keyReads[P, R])}
}

// get waits for a read of key begun after this call, sharing it with the
// callers that came meanwhile.
func (s *sharedReads[P, R]) get(ctx context.Context, key string, p P) (R, error) {
	s.mu.Lock()
	k := s.keys[key]
	if k == nil {
		k = &keyReads[P, R]{}
		s.keys[key] = k
	}
	sr := k.next
	if sr == nil {
		sr = &sharedRead[P, R]{p: p, done: make(chan struct{})}
		k.next = sr
	} else if s.merge != nil {
		sr.p = s.merge(sr.p, p)
	}
	k.waiting++
	if !k.running {
		k.running, k.next, k.waiting = true, nil, 0
		go s.run(key, k, sr)
	}
	s.mu.Unlock()

	select {
	case <-sr.done:
		return sr.r, sr.err
	case <-ctx.Done():
		var zero R
		return zero, ctx.Err()
	}
}

// run does sr and then each read that gathered callers meanwhile.
func (s *sharedReads[P, R]) run(key string, k *keyReads[P, R], sr *sharedRead[P, R]) {
	for sr != nil {
		s.count()
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
		sr.r, sr.err = s.read(ctx, key, sr.p)
		cancel()
		close(sr.done)
		s.mu.Lock()
		sr, k.next, k.waiting = k.next, nil, 0
		if sr == nil {
			k.running = false
			delete(s.keys, key)
		}
		s.mu.Unlock()
	}
}

// waiters is how many callers wait for the read after the running one.
func (s *sharedReads[P, R]) waiters(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := s.keys[key]; k != nil {
		return k.waiting
	}
	return 0
}
