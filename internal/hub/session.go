package hub

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// authTimeout bounds one Authenticator call.
const authTimeout = 5 * time.Second

// readLoop handles the client's frames in order until the connection ends.
// Because frames are handled in order, a "pong" answering a "ping" sent
// after a "subscribe" proves the subscription is in place.
func (c *client) readLoop() {
	for {
		// A context without Done costs coder/websocket nothing per read;
		// dead peers are found by pings, not read deadlines.
		typ, b, err := c.conn.Read(context.Background())
		if err != nil {
			if s := websocket.CloseStatus(err); s == -1 && !errors.Is(err, context.Canceled) {
				c.h.log.Debug("hub: read ended", "err", err)
			}
			return
		}
		if c.isClosing() {
			continue // closing: wait for the peer's close frame, ignore the rest
		}
		if typ != websocket.MessageText {
			c.sendError("frames must be JSON text")
			continue
		}
		var f inFrame
		if err := json.Unmarshal(b, &f); err != nil {
			c.sendError("invalid JSON frame")
			continue
		}
		switch f.Type {
		case "auth":
			c.auth(f.Token)
		case "subscribe", "unsubscribe":
			topics, ok := c.admitTopics(f.Type, f.Topics)
			if !ok {
				continue
			}
			if f.Type == "subscribe" {
				c.subscribe(topics, f.Since, f.Pages)
			} else {
				c.unsubscribe(topics)
			}
		case "ping":
			c.sendWire(pongWire)
		case "cheer":
			c.cheer(f.Topic, f.Kind)
		default:
			c.sendError("unknown frame type: " + truncate(f.Type, 32))
		}
	}
}

// Subscriptions cost the server a history read and maybe a replay of up to
// QueueLen frames each, so a client may not ask for them without bound.
const (
	// maxTopicsPerFrame bounds the distinct topics of one frame; there are
	// six topics, so an honest client never comes near it.
	maxTopicsPerFrame = 16
	// subscribeBurst tokens, refilled at subscribeRate a second, pay for
	// subscribe (one per topic) and unsubscribe (one per frame) frames:
	// the web app spends six on a reconnect and one per topic a page mounts.
	subscribeBurst = 24
	subscribeRate  = 4
	// maxRefusals refused frames within refusalWindow close the connection
	// with 1008: the client ignores the error frames it is sent.
	maxRefusals   = 10
	refusalWindow = 10 * time.Second
)

// admitTopics checks a subscribe or unsubscribe frame against the limits and
// returns its topics without repeats, or sends the client an error frame
// (and closes a client that keeps going) and reports false.
func (c *client) admitTopics(typ string, topics []string) ([]string, bool) {
	if len(topics) == 0 {
		c.sendError(typ + ` needs "topics": a list of topic names`)
		return nil, false
	}
	seen := make(map[string]bool, len(topics))
	uniq := topics[:0:0]
	for _, t := range topics {
		if !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
		}
	}
	if len(uniq) > maxTopicsPerFrame {
		c.refuse(typ + " names at most " + strconv.Itoa(maxTopicsPerFrame) + " topics")
		return nil, false
	}
	cost := 1.0
	if typ == "subscribe" {
		cost = float64(len(uniq))
	}
	if !c.limiter.take(time.Now(), cost) {
		c.refuse("too many subscribe and unsubscribe frames: slow down")
		return nil, false
	}
	return uniq, true
}

// refuse answers a frame with an error, and ends a connection whose frames
// keep being refused.
func (c *client) refuse(msg string) {
	c.sendError(msg)
	now := time.Now()
	if now.Sub(c.refusedSince) > refusalWindow {
		c.refusedSince, c.refusals = now, 0
	}
	c.refusals++
	if c.refusals >= maxRefusals {
		c.closeWith(websocket.StatusPolicyViolation, "too many refused frames", true)
	}
}

// bucket is a token bucket: up to burst tokens, refilled at rate a second.
type bucket struct {
	tokens float64
	at     time.Time
}

func (b *bucket) take(now time.Time, n float64) bool {
	if b.at.IsZero() {
		b.tokens = subscribeBurst
	} else {
		b.tokens = min(subscribeBurst, b.tokens+now.Sub(b.at).Seconds()*subscribeRate)
	}
	b.at = now
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}

// maxAuths bounds the auth frames of one connection: each costs a database
// read, and a client needs one per sign-in.
const maxAuths = 20

// auth checks a token; a bad one ends the connection with 1008 after an
// error frame, so a client never keeps a session it thinks is signed in.
func (c *client) auth(token string) {
	c.auths++
	if c.auths > maxAuths {
		c.sendError("too many auth frames")
		c.closeWith(websocket.StatusPolicyViolation, "too many auth frames", true)
		return
	}
	id, err := c.authenticate(token)
	if err != nil {
		c.h.log.Debug("hub: authentication failed", "err", err)
		c.sendError("authentication failed")
		c.closeWith(websocket.StatusPolicyViolation, "authentication failed", true)
		return
	}
	if c.id != nil && c.id.UserID != id.UserID {
		c.sendError("already authenticated as another user")
		return
	}
	c.id = &id
	c.signedIn.Store(&authState{token: token, id: id, checked: time.Now()})
	// A refreshed token may carry lesser rights: drop the rooms it may no
	// longer hear.
	for public := range c.subs {
		if _, err := c.resolve(public); err != nil {
			c.unsubscribeOne(public)
			c.sendError(err.Error())
		}
	}
}

func (c *client) authenticate(token string) (core.Actor, error) {
	if token == "" {
		return core.Actor{}, errors.New("empty token")
	}
	if c.h.opts.Auth == nil {
		return core.Actor{}, errors.New("no authenticator configured")
	}
	ctx, cancel := context.WithTimeout(c.ctx, authTimeout)
	defer cancel()
	return c.h.opts.Auth.Authenticate(ctx, token)
}

func (c *client) subscribe(topics []string, since map[string]int64, pages map[string]string) {
	for _, public := range topics {
		topic, err := c.resolve(public)
		if err != nil {
			c.sendError(err.Error())
			continue
		}
		from, replay := since[public]
		page := pages[public]
		if page != "" && !validPagePath(page) {
			c.sendError("pages: a page is a path under /api/ of at most " + strconv.Itoa(maxPagePath) + " characters")
			page = ""
		}
		if s, ok := c.subs[public]; ok {
			if !replay {
				if page != "" {
					c.namePage(s, page) // already live: only the page is new
				}
				continue
			}
			c.unsubscribeOne(public) // start over from since
		}
		c.subscribeOne(public, topic, page, from, replay)
	}
}

// subscribeOne registers the subscription first and reads history second,
// holding back live events meanwhile: whatever is published during the
// read shows up in one or the other, and seq order plus dedup sort it out.
func (c *client) subscribeOne(public, topic, page string, since int64, replay bool) {
	s := &sub{topic: topic, public: public, page: page, last: -1, replaying: true}
	c.subs[public] = s
	c.h.reg.add(c, s)
	c.h.metrics.subscriptions.WithLabelValues(public).Inc()

	from := int64(-1)
	if replay {
		from = max(since, 0)
	}
	// Up to two reads: the one running when this client came, which it may
	// not join, and its own, shared with whoever comes meanwhile.
	ctx, cancel := context.WithTimeout(c.ctx, 2*c.h.opts.RedisTimeout)
	cur, evs, complete, err := c.h.history.get(ctx, topic, from)
	cancel()

	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case s.stale:
		s.last = -1 // the resync was sent when the loss was found
	case err != nil:
		c.h.log.Warn("hub: reading history failed", "topic", topic, "err", err)
		if replay {
			c.resyncLocked(s)
		}
	case !replay:
		s.last = cur
	case from > cur:
		// The client read its state after a commit whose event is still on
		// its way (the outbox relay delivers after the commit): it is ahead,
		// and waits for the events after since. A store that lost its data
		// is primed with the outbox's seqs, so this is never a reset.
		s.last = from
	case !complete || !c.fitsLocked(len(evs), frameBytes(evs)):
		// History no longer reaches back to since, or the replay would not
		// fit the queue.
		c.resyncLocked(s)
		s.last = cur
	default:
		for _, ev := range evs {
			c.deliverLocked(s, ev)
		}
		c.h.metrics.eventsOut.WithLabelValues(public).Add(float64(len(evs)))
		s.last = cur
	}
	c.endHoldLocked(s)
}

// endHoldLocked ends a replay or a wait for a page: the events held back
// meanwhile are delivered (those already had are dropped, a gap resyncs),
// and a loss seen during the hold, answered when it was seen, is done with.
func (c *client) endHoldLocked(s *sub) {
	for _, ev := range s.pending {
		c.deliverLocked(s, ev)
	}
	s.pending, s.replaying, s.stale = nil, false, false
}

func frameBytes(evs []event) int {
	n := 0
	for _, ev := range evs {
		n += len(ev.wire)
	}
	return n
}

func (c *client) unsubscribe(topics []string) {
	for _, public := range topics {
		if _, ok := c.subs[public]; ok {
			c.unsubscribeOne(public)
		}
	}
}

func (c *client) unsubscribeOne(public string) {
	s := c.subs[public]
	delete(c.subs, public)
	c.h.reg.remove(c, s)
	c.h.metrics.subscriptions.WithLabelValues(public).Dec()
	c.mu.Lock()
	s.removed, s.pending = true, nil
	c.mu.Unlock()
}

// cleanup runs when the read loop ends: nothing may reach the client after.
func (c *client) cleanup() {
	for public := range c.subs {
		c.unsubscribeOne(public)
	}
	c.ping.Stop()
	c.cancel()
	c.mu.Lock()
	c.closing = true
	c.dropLocked()
	c.mu.Unlock()
	_ = c.conn.CloseNow()
}
