package hub

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Cheerer counts a spectator's tap (internal/cheers): a "cheer" frame is
// one, as POST /api/cheers is.
type Cheerer interface {
	Cheer(ctx context.Context, a core.Actor, ip, topic, kind string) error
}

// cheerTimeout bounds one Cheerer call (it counts in memory).
const cheerTimeout = time.Second

// cheer handles a "cheer" frame: nothing comes back unless it is refused.
func (c *client) cheer(topic, kind string) {
	if c.h.opts.Cheers == nil {
		c.sendError("cheers are off")
		return
	}
	var a core.Actor
	if c.id != nil {
		a = *c.id
	}
	ctx, cancel := context.WithTimeout(c.ctx, cheerTimeout)
	defer cancel()
	if err := c.h.opts.Cheers.Cheer(ctx, a, c.ip, topic, kind); err != nil {
		c.sendError(errs.MessageOf(err))
	}
}

// SendLocal queues frame, a complete JSON frame without a seq (a window of
// cheers), to this instance's live subscribers of the public topic. Such a
// frame is not kept in history nor replayed; a subscription in the middle
// of a replay, or a connection whose queue is half full, goes without it
// rather than being closed as slow for it.
func (h *Hub) SendLocal(topic string, frame []byte) {
	if h.closed.Load() {
		return
	}
	wire := wireText(frame)
	var ready []*client
	h.reg.each(topic, func(c *client, s *sub) {
		if c.offerEphemeral(s, wire) {
			ready = append(ready, c)
		}
	})
	flushAll(ready)
}

// offerEphemeral queues a frame that may be dropped; it reports whether the
// caller must write it (see offer).
func (c *client) offerEphemeral(s *sub, wire []byte) (start bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed || s.replaying {
		return false
	}
	o := &c.h.opts
	if len(c.queue)-c.head >= o.QueueLen/2 || c.qbytes+len(wire) > o.QueueBytes/2 {
		return false
	}
	c.deferStart = true
	c.enqueueLocked(wire)
	c.deferStart = false
	if c.startPending {
		c.startPending = false
		return true
	}
	return false
}
