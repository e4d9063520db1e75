package hub

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// client is one websocket connection. Its read goroutine (started by
// ServeHTTP) owns id and subs; what other goroutines touch is under mu.
//
// An idle connection holds no goroutine besides its reader: the writer is
// started when a frame is queued and ends when the queue is empty, and
// pings run from a timer. That keeps memory per idle connection small.
type client struct {
	h      *Hub
	conn   *websocket.Conn
	out    *frameWriter    // under conn: the socket, written by the hub directly
	ctx    context.Context // ends with the connection; bounds auth and store calls
	cancel context.CancelFunc
	ip     string // the client address it counts against (Options.MaxConnsPerIP)

	id    *core.Actor
	subs  map[string]*sub // by public topic name
	auths int             // auth frames received (read loop only)
	// limiter pays for subscribe and unsubscribe frames; refusals counts
	// the frames refused since refusedSince (read loop only).
	limiter      bucket
	refusals     int
	refusedSince time.Time

	ping *time.Timer
	// signedIn is the token and identity of the last good auth frame, read
	// by the ping timer to check them again.
	signedIn atomic.Pointer[authState]

	// writeStart is when the waiting write in progress began (Unix ns), 0 if
	// none.
	writeStart atomic.Int64

	mu     sync.Mutex
	queue  [][]byte // websocket frames to write, from head on; shared, never modified
	head   int
	qbytes int
	// writing: a writer owns the socket's frames, a flushNow call or a
	// writeLoop goroutine (running or about to be started).
	writing bool
	// deferStart asks startWriterLocked to leave the writer to offer's
	// caller, noting it in startPending.
	deferStart, startPending bool
	closing                  bool // no more frames are accepted
	flush                    bool // write what is queued before closing
	code                     websocket.StatusCode
	reason                   string
}

func newClient(h *Hub, conn *websocket.Conn, out *frameWriter, ip string) *client {
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{h: h, conn: conn, out: out, ctx: ctx, cancel: cancel, ip: ip, subs: make(map[string]*sub)}
	c.ping = time.AfterFunc(h.opts.PingInterval, c.pingOnce)
	return c
}

// send queues a control frame (error, resync) for this client.
func (c *client) send(b []byte) { c.sendWire(wireText(b)) }

// sendWire queues an encoded websocket frame.
func (c *client) sendWire(w []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enqueueLocked(w)
}

func (c *client) sendError(msg string) { c.send(errorFrame(msg)) }

// offer hands a live event to one subscription. It never blocks and reports
// whether the event was queued and whether the caller must write it
// (c.flushNow): a broadcast first queues to everyone and only then writes,
// from a few goroutines, not one per client.
func (c *client) offer(s *sub, ev event) (queued, start bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed {
		return false, false
	}
	if s.replaying {
		if len(s.pending) >= c.h.opts.QueueLen {
			c.slowLocked()
			return false, false
		}
		s.pending = append(s.pending, ev)
		return true, false
	}
	c.deferStart = true
	queued = c.deliverLocked(s, ev)
	c.deferStart = false
	if c.startPending {
		c.startPending = false
		return queued, true
	}
	return queued, false
}

// deliverLocked queues ev unless the subscription already had it; a seq
// that skips ahead means events were lost, which the client must learn.
func (c *client) deliverLocked(s *sub, ev event) bool {
	if s.last >= 0 && ev.seq <= s.last {
		return false
	}
	if s.last >= 0 && ev.seq > s.last+1 {
		c.resyncLocked(s)
	}
	s.last = ev.seq
	return c.enqueueLocked(ev.wire)
}

func (c *client) resyncLocked(s *sub) {
	c.h.metrics.resyncs.Inc()
	c.enqueueLocked(wireText(resyncFrame(s.public, c.h.pressure.retryAfter(time.Now()))))
}

// enqueueLocked adds a frame to the send queue, closing the connection with
// 1013 when the queue is full rather than letting anyone wait for it.
func (c *client) enqueueLocked(b []byte) bool {
	if c.closing {
		c.h.metrics.drops.Inc()
		return false
	}
	o := &c.h.opts
	if len(c.queue)-c.head >= o.QueueLen || c.qbytes+len(b) > o.QueueBytes {
		c.h.metrics.drops.Inc()
		c.slowLocked()
		return false
	}
	c.queue = append(c.queue, b)
	c.qbytes += len(b)
	c.startWriterLocked()
	return true
}

// fitsLocked tells whether n more frames of size bytes fit in the queue.
func (c *client) fitsLocked(n, size int) bool {
	o := &c.h.opts
	return len(c.queue)-c.head+n <= o.QueueLen && c.qbytes+size <= o.QueueBytes
}

func (c *client) slowLocked() {
	if c.closing {
		return
	}
	c.h.metrics.slowCloses.Inc()
	c.h.log.Info("hub: closing slow consumer", "queued", len(c.queue)-c.head, "bytes", c.qbytes)
	c.closeLocked(websocket.StatusTryAgainLater, "slow consumer", false)
}

// closeWith closes the connection with code; with flush, queued frames (an
// error frame explaining why, say) are written first.
func (c *client) closeWith(code websocket.StatusCode, reason string, flush bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked(code, reason, flush)
}

func (c *client) closeLocked(code websocket.StatusCode, reason string, flush bool) {
	if c.closing {
		return
	}
	c.closing, c.code, c.reason, c.flush = true, code, reason, flush
	if !flush {
		c.dropLocked()
	}
	// The writer does the close handshake, after any write in progress, so
	// the caller (maybe a publisher) never waits for this connection.
	c.startWriterLocked()
}

func (c *client) dropLocked() {
	if n := len(c.queue) - c.head; n > 0 {
		c.h.metrics.drops.Add(float64(n))
	}
	c.queue, c.head, c.qbytes = nil, 0, 0
}

func (c *client) startWriterLocked() {
	if !c.writing {
		c.writing = true
		if c.deferStart {
			c.startPending = true
			return
		}
		go c.writeLoop()
	}
}

// takeLocked moves up to len(buf) queued frames into buf.
func (c *client) takeLocked(buf [][]byte) [][]byte {
	n := min(len(c.queue)-c.head, len(buf))
	batch := buf[:n]
	copy(batch, c.queue[c.head:])
	for i := range n {
		c.qbytes -= len(batch[i])
		c.queue[c.head+i] = nil
	}
	c.head += n
	return batch
}

// idleLocked ends the writer's turn: the queue is empty.
func (c *client) idleLocked() {
	c.writing = false
	if cap(c.queue) > 64 {
		c.queue = nil // let a burst's backing array go
	} else {
		c.queue = c.queue[:0]
	}
	c.head = 0
}

// flushNow writes what is queued without ever waiting, as the writer that
// offer's caller was handed. What the socket will not take at once, and a
// close handshake, are left to a writeLoop goroutine; most clients of a
// broadcast never need one.
func (c *client) flushNow() {
	var buf [maxBatch][]byte
	c.mu.Lock()
	for {
		if c.closing {
			c.mu.Unlock()
			go c.writeLoop()
			return
		}
		if c.head == len(c.queue) {
			c.idleLocked()
			c.mu.Unlock()
			return
		}
		// The websocket library may be writing a ping or a close, which
		// can wait: then so does this.
		if !c.out.mu.TryLock() {
			c.mu.Unlock()
			go c.writeLoop()
			return
		}
		batch := c.takeLocked(buf[:])
		c.mu.Unlock()
		done, err := c.out.writeNowLocked(batch)
		c.out.mu.Unlock()
		clear(batch)
		if err != nil {
			c.h.log.Debug("hub: write failed", "err", err)
			c.abort()
			return
		}
		if !done {
			go c.writeLoop()
			return
		}
		c.mu.Lock()
	}
}

// flushAll writes to each client that was handed the writer by offer, from
// a few goroutines: one per 256 clients, so a broadcast to many uses every
// core without a goroutine per client.
func flushAll(cs []*client) {
	const chunk = 256
	for len(cs) > 0 {
		part := cs[:min(chunk, len(cs))]
		cs = cs[len(part):]
		go func() {
			for _, c := range part {
				c.flushNow()
			}
		}()
	}
}

// writeLoop writes queued frames, waiting for the socket as long as it
// takes, until the queue is empty, then exits; on closing it performs the
// close handshake instead.
func (c *client) writeLoop() {
	var buf [maxBatch][]byte // on the stack: no allocation per writer
	for {
		c.mu.Lock()
		if c.closing && (!c.flush || c.head == len(c.queue)) {
			code, reason := c.code, c.reason
			c.dropLocked()
			c.mu.Unlock()                  // writing stays true: no writer after this one
			_ = c.conn.Close(code, reason) // after what is left of a frame
			return
		}
		if c.head == len(c.queue) {
			c.mu.Unlock()
			// A write that flushNow could not finish ends first, even if
			// nothing follows it.
			if c.out.pending() {
				if err := c.timed(c.out.finish); err != nil {
					c.h.log.Debug("hub: write failed", "err", err)
					c.abort()
					return
				}
				continue
			}
			c.mu.Lock()
			if c.head == len(c.queue) && !c.closing {
				c.idleLocked()
				c.mu.Unlock()
				return
			}
			c.mu.Unlock()
			continue
		}
		batch := c.takeLocked(buf[:])
		c.mu.Unlock()
		err := c.timed(func() error { return c.out.writeBlocking(batch) })
		clear(batch)
		if err != nil {
			c.h.log.Debug("hub: write failed", "err", err)
			c.abort()
			return
		}
	}
}

// timed runs a write that may wait, where the hub's sweeper sees it: a
// context or socket deadline per write would cost a broadcast of one write
// per client several percent of its CPU.
func (c *client) timed(write func() error) error {
	c.writeStart.Store(time.Now().UnixNano())
	defer c.writeStart.Store(0)
	return write()
}

// maxBatch is how many queued frames one write carries at most.
const maxBatch = 16

// abort drops the connection without a close handshake (a dead peer).
func (c *client) abort() {
	c.mu.Lock()
	c.closing = true
	c.dropLocked()
	c.mu.Unlock()
	_ = c.conn.CloseNow()
}

func (c *client) isClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closing
}

type authState struct {
	token   string
	id      core.Actor
	checked time.Time
}

// recheck authenticates a signed-in connection's token again once
// ReauthInterval has passed: a token that no longer holds (password changed,
// account gone) or rights that changed (a role, a captaincy: the captains
// rooms it may hear) end the session with 1008, and the client reconnects
// as whoever it now is.
func (c *client) recheck() bool {
	st := c.signedIn.Load()
	if st == nil || time.Since(st.checked) < c.h.opts.ReauthInterval {
		return true
	}
	return c.recheckState(st)
}

// recheckNow checks the connection's session at once (its user's sessions
// changed: recheckUser).
func (c *client) recheckNow() {
	if st := c.signedIn.Load(); st != nil && !c.isClosing() {
		c.recheckState(st)
	}
}

func (c *client) recheckState(st *authState) bool {
	id, err := c.authenticate(st.token)
	if err == nil && id.SameRights(st.id) {
		c.signedIn.CompareAndSwap(st, &authState{token: st.token, id: id, checked: time.Now()})
		return true
	}
	if err != nil && c.ctx.Err() != nil {
		return false
	}
	if err != nil && !errors.Is(err, ErrRejected) {
		// The check could not be made (database down, time-out): keep the
		// session and try again at the next ping.
		c.h.log.Debug("hub: session recheck failed; keeping the session", "err", err)
		return true
	}
	if c.signedIn.Load() != st {
		return true // signed in again meanwhile: that token is the one that counts
	}
	c.h.log.Debug("hub: session no longer valid", "err", err)
	c.sendError("session ended: please sign in again")
	c.closeWith(websocket.StatusPolicyViolation, "session ended", true)
	return false
}

// pingOnce runs from the ping timer: a websocket ping whose pong must come
// within PongTimeout, or the peer is taken for dead. It also rechecks a
// signed-in session now and then.
func (c *client) pingOnce() {
	if c.isClosing() || !c.recheck() {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.h.opts.PongTimeout)
	err := c.conn.Ping(ctx)
	cancel()
	if err != nil {
		if c.ctx.Err() == nil {
			c.h.log.Debug("hub: ping failed", "err", err)
			c.abort()
		}
		return
	}
	c.ping.Reset(c.h.opts.PingInterval)
}
