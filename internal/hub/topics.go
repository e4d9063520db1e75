package hub

import (
	"sync"

	"github.com/pitlane/pitlane/internal/core"
)

// sub is one connection's subscription to one topic. Its fields are guarded
// by the owning client's mu.
type sub struct {
	topic  string // internal name, e.g. "user:42"
	public string // what the client calls it, e.g. "user"
	page   string // the page the client shows for it, read for a mass resync ("" none)
	// last is the seq of the last event queued for this subscription, -1
	// when unknown (Redis unreachable or its data lost). It drops duplicates
	// and spots gaps.
	last int64
	// While replaying history, live events wait in pending so the client
	// sees seqs in order.
	replaying bool
	pending   []event
	// stale marks a replay overtaken by a Redis loss: what it read may
	// predate the loss, so it must not be trusted.
	stale   bool
	removed bool
}

// localTopic is the set of this instance's subscribers to one topic.
type localTopic struct {
	mu   sync.RWMutex
	subs map[*client]*sub
}

// registry maps internal topics to local subscribers.
type registry struct {
	mu     sync.RWMutex
	topics map[string]*localTopic
}

func (r *registry) add(c *client, s *sub) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.topics[s.topic]
	if t == nil {
		t = &localTopic{subs: make(map[*client]*sub)}
		r.topics[s.topic] = t
	}
	t.mu.Lock()
	t.subs[c] = s
	t.mu.Unlock()
}

func (r *registry) remove(c *client, s *sub) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.topics[s.topic]
	if t == nil {
		return
	}
	t.mu.Lock()
	delete(t.subs, c)
	empty := len(t.subs) == 0
	t.mu.Unlock()
	if empty {
		delete(r.topics, s.topic)
	}
}

func (r *registry) get(topic string) *localTopic {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.topics[topic]
}

// names lists the topics that have local subscribers.
func (r *registry) names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.topics))
	for name := range r.topics {
		out = append(out, name)
	}
	return out
}

// each calls fn for every local subscriber of topic; fn must not block.
func (r *registry) each(topic string, fn func(*client, *sub)) {
	t := r.get(topic)
	if t == nil {
		return
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	for c, s := range t.subs {
		fn(c, s)
	}
}

// isUserTopic tells a user's own topic, which expires when idle, from the
// shared ones, which never do.
func isUserTopic(topic string) bool { return core.UserOfTopic(topic) != 0 }
