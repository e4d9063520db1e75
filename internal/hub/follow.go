package hub

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// followBuffer is how many deliveries an in-process follower may fall
// behind before it is told to resync instead.
const followBuffer = 256

// followers are the in-process subscribers of Follow. Like a websocket
// client, each sees a topic's events once and in seq order, and learns of a
// gap (a lost Redis message, a full buffer) as a resync.
type followers struct {
	mu     sync.RWMutex
	topics map[string]map[*follower]bool
}

type follower struct {
	ch chan core.Delivery

	mu     sync.Mutex
	closed bool
	last   map[string]int64 // topic -> last seq handed over
	lost   map[string]bool  // topics owed a resync once there is room
}

// Follow implements core.Feed: topics are internal names (core.Topic* or
// core.UserTopic). The channel closes when ctx ends or the hub shuts down.
func (h *Hub) Follow(ctx context.Context, topics ...string) <-chan core.Delivery {
	f := &follower{ch: make(chan core.Delivery, followBuffer), last: map[string]int64{}, lost: map[string]bool{}}
	h.followers.add(f, topics)
	go func() {
		select {
		case <-ctx.Done():
		case <-h.stop:
		}
		h.followers.remove(f, topics)
		f.mu.Lock()
		f.closed = true
		close(f.ch)
		f.mu.Unlock()
	}()
	return f.ch
}

func (fs *followers) add(f *follower, topics []string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.topics == nil {
		fs.topics = map[string]map[*follower]bool{}
	}
	for _, t := range topics {
		if fs.topics[t] == nil {
			fs.topics[t] = map[*follower]bool{}
		}
		fs.topics[t][f] = true
	}
}

func (fs *followers) remove(f *follower, topics []string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, t := range topics {
		delete(fs.topics[t], f)
		if len(fs.topics[t]) == 0 {
			delete(fs.topics, t)
		}
	}
}

func (fs *followers) of(topic string) []*follower {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	out := make([]*follower, 0, len(fs.topics[topic]))
	for f := range fs.topics[topic] {
		out = append(out, f)
	}
	return out
}

// offer hands an event to the topic's followers; it never blocks.
func (fs *followers) offer(topic string, ev event) {
	list := fs.of(topic)
	if len(list) == 0 {
		return
	}
	d, ok := decodeFrame(topic, ev)
	if !ok {
		return
	}
	for _, f := range list {
		f.offer(d)
	}
}

func (fs *followers) resync(topic string) {
	for _, f := range fs.of(topic) {
		f.mu.Lock()
		f.lost[topic] = true
		delete(f.last, topic)
		f.flushLocked()
		f.mu.Unlock()
	}
}

func (f *follower) offer(d core.Delivery) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	last, seen := f.last[d.Topic]
	if seen && d.Seq <= last {
		return
	}
	if seen && d.Seq > last+1 {
		f.lost[d.Topic] = true
	}
	f.flushLocked()
	if f.lost[d.Topic] {
		f.last[d.Topic] = d.Seq // the resync covers it
		return
	}
	select {
	case f.ch <- d:
		f.last[d.Topic] = d.Seq
	default:
		f.lost[d.Topic] = true
		f.last[d.Topic] = d.Seq
	}
}

// flushLocked sends the resyncs owed, as room allows.
func (f *follower) flushLocked() {
	if f.closed {
		return
	}
	for t := range f.lost {
		select {
		case f.ch <- core.Delivery{Topic: t, Resync: true}:
			delete(f.lost, t)
		default:
			return
		}
	}
}

// decodeFrame reads an event frame back into a Delivery.
func decodeFrame(topic string, ev event) (core.Delivery, bool) {
	var f struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
		TS    time.Time       `json:"ts"`
	}
	if err := json.Unmarshal(ev.frame(), &f); err != nil {
		return core.Delivery{}, false
	}
	return core.Delivery{Topic: topic, Seq: ev.seq, Event: f.Event, Data: f.Data, At: f.TS}, true
}
