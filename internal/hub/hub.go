package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// ErrClosed is returned by Publish and Seq after Shutdown.
var ErrClosed = errors.New("hub: shut down")

// Hub is the websocket endpoint, the core.Broadcaster the outbox relay
// delivers to, and a core.Feed for in-process followers. Mount it at GET /api/ws;
// call Shutdown when the server stops, since http.Server.Shutdown does not
// see hijacked websocket connections.
type Hub struct {
	opts    Options
	log     *slog.Logger
	metrics *metrics
	store   store
	history *historyReads                // the store's history, one read per topic at a time
	pages   *sharedReads[struct{}, page] // pages for mass resyncs, one read per page at a time
	reg     registry

	closed  atomic.Bool
	stop    chan struct{} // ends the sweeper
	mu      sync.Mutex    // guards clients and perIP
	clients map[*client]struct{}
	perIP   map[string]int // open connections per client address, when bounded
	conns   sync.WaitGroup // connections' read goroutines

	followers followers
	pressure  pressure
}

var (
	_ core.Broadcaster = (*Hub)(nil)
	_ core.Feed        = (*Hub)(nil)
)

// New builds a hub. With a RedisBroker it subscribes to Redis before
// returning (waiting a moment at most: an unreachable Redis is retried in
// the background, not an error).
func New(opts Options) (*Hub, error) {
	opts = opts.withDefaults()
	m, err := newMetrics(opts.Registerer)
	if err != nil {
		return nil, err
	}
	h := &Hub{
		opts:    opts,
		log:     opts.Logger,
		metrics: m,
		reg:     registry{topics: make(map[string]*localTopic)},
		clients: make(map[*client]struct{}),
		perIP:   make(map[string]int),
		stop:    make(chan struct{}),
	}
	h.pressure.rate = opts.ResyncRate
	broker := opts.Broker
	if broker == nil {
		broker = MemoryBroker{}
	}
	if h.store, err = broker.open(h); err != nil {
		return nil, err
	}
	h.history = newHistoryReads(h.store.history, opts.RedisTimeout, m.historyReads.Inc)
	h.pages = newSharedReads(h.readPage, nil, pageTimeout, m.pageReads.Inc)
	go h.sweep()
	return h, nil
}

// ServeHTTP upgrades the request to a websocket speaking the live protocol
// (docs/hub.md), or refuses it with 429 when its client address holds
// MaxConnsPerIP connections already. It returns once the connection is set
// up; the connection lives on in its own goroutine, so net/http can free
// the request's memory and no handler timeout applies to it.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.closed.Load() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message":"Server is shutting down"}` + "\n"))
		return
	}
	ip := clientIP(r)
	if !h.admit(ip) {
		h.metrics.perIPRefusals.Inc()
		h.log.Debug("hub: too many connections from one address; upgrade refused", "ip", ip, "max", h.opts.MaxConnsPerIP)
		refusePerIP(w)
		return
	}
	hw := &hijackWriter{ResponseWriter: w, sendBuf: h.opts.SendBuffer}
	conn, err := websocket.Accept(hw, r, &websocket.AcceptOptions{
		OriginPatterns:  h.opts.OriginPatterns,
		CompressionMode: websocket.CompressionDisabled, // frames are shared; compressing per client would undo that
	})
	if err != nil {
		h.release(ip)
		h.log.Debug("hub: websocket refused", "err", err, "origin", r.Header.Get("Origin"))
		return // Accept has written the HTTP error
	}
	if hw.sendBufErr != nil {
		h.log.Debug("hub: socket send buffer left unbounded", "err", hw.sendBufErr)
	}
	conn.SetReadLimit(h.opts.ReadLimit)
	c := newClient(h, conn, hw.out, ip)
	if !h.addClient(c) {
		h.release(ip)
		c.ping.Stop()
		_ = conn.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	go func() {
		defer h.removeClient(c)
		c.readLoop()
	}()
}

func (h *Hub) addClient(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed.Load() {
		return false
	}
	h.clients[c] = struct{}{}
	h.conns.Add(1)
	h.metrics.connections.Inc()
	return true
}

func (h *Hub) removeClient(c *client) {
	c.cleanup()
	h.mu.Lock()
	delete(h.clients, c)
	h.releaseLocked(c.ip)
	h.mu.Unlock()
	h.metrics.connections.Dec()
	h.conns.Done()
}

// Publish sends event with data to topic's subscribers on every instance,
// as the topic's next seq. The application's events come through the outbox
// (Deliver) instead; Publish serves tools and tests that own their topics.
// data is marshalled once; the frame is shared by every subscriber. With
// Redis, an outage makes it fail fast.
func (h *Hub) Publish(ctx context.Context, topic, event string, data any) error {
	if h.closed.Load() {
		return ErrClosed
	}
	prefix, suffix, err := eventParts(topic, event, data, time.Now())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RedisTimeout)
	defer cancel()
	_, _, err = h.store.publish(ctx, topic, 0, prefix, suffix)
	return err
}

// Deliver implements core.Broadcaster: each event goes out with its own
// seq, once; a seq its topic already has is skipped.
func (h *Hub) Deliver(ctx context.Context, evs []core.Event) (int, error) {
	for i, ev := range evs {
		if h.closed.Load() {
			return i, ErrClosed
		}
		if ev.Seq <= 0 {
			return i, fmt.Errorf("hub: deliver %s to %s: no seq", ev.Name, ev.Topic)
		}
		var data any
		if len(ev.Data) > 0 {
			data = ev.Data
		}
		prefix, suffix, err := eventParts(ev.Topic, ev.Name, data, ev.At)
		if err != nil {
			return i, fmt.Errorf("%w: %w", core.ErrBadEvent, err)
		}
		cctx, cancel := context.WithTimeout(ctx, h.opts.RedisTimeout)
		_, dup, err := h.store.publish(cctx, ev.Topic, ev.Seq, prefix, suffix)
		cancel()
		if err != nil {
			return i, err
		}
		if dup {
			h.metrics.duplicates.Inc()
		}
	}
	return len(evs), nil
}

// Prime implements core.Broadcaster.
func (h *Hub) Prime(ctx context.Context, topic string, seq int64) error {
	if h.closed.Load() {
		return ErrClosed
	}
	if _, ok := publicTopic(topic); !ok {
		return errUnknownTopic
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RedisTimeout)
	defer cancel()
	return h.store.prime(ctx, topic, seq)
}

// Forget implements core.HistoryKeeper: the topic's history up to seq
// through goes (a hidden profile's or an erased account's cards were in
// it), its seq stays, and a client that comes back from before it is told
// to reload.
func (h *Hub) Forget(ctx context.Context, topic string, through int64) error {
	if h.closed.Load() {
		return ErrClosed
	}
	if _, ok := publicTopic(topic); !ok {
		return errUnknownTopic
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RedisTimeout)
	defer cancel()
	return h.store.forget(ctx, topic, through)
}

// Seq is the topic's latest seq in the live layer.
func (h *Hub) Seq(ctx context.Context, topic string) (int64, error) {
	if h.closed.Load() {
		return 0, ErrClosed
	}
	if _, ok := publicTopic(topic); !ok {
		return 0, errUnknownTopic
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RedisTimeout)
	defer cancel()
	return h.store.seq(ctx, topic)
}

// dispatch queues one event to this instance's subscribers of topic. It is
// called in seq order per topic and never blocks on a client.
func (h *Hub) dispatch(topic string, ev event) {
	if uid := core.UserOfTopic(topic); uid != 0 && (bytes.Contains(ev.frame(), sessionEndedMark) || bytes.Contains(ev.frame(), rolesChangedMark)) {
		h.recheckUser(uid)
	}
	public, _ := publicTopic(topic)
	h.metrics.eventsIn.WithLabelValues(public).Inc()
	n := 0
	var ready []*client
	h.reg.each(topic, func(c *client, s *sub) {
		queued, write := c.offer(s, ev)
		if queued {
			n++
		}
		if write {
			ready = append(ready, c)
		}
	})
	flushAll(ready)
	if n > 0 {
		h.metrics.eventsOut.WithLabelValues(public).Add(float64(n))
	}
	h.followers.offer(topic, ev)
}

// sessionEndedMark and rolesChangedMark are how a frame on a user's topic
// says some of the user's sessions ended or their roles changed
// (core.EventSessionEnded, core.EventRolesChanged); the frames of that
// topic are the server's own, and few.
var (
	sessionEndedMark = []byte(`,"event":"` + core.EventSessionEnded + `"`)
	rolesChangedMark = []byte(`,"event":"` + core.EventRolesChanged + `"`)
)

// recheckUser checks the session of every connection of this instance
// signed in as userID again now, rather than at its next ReauthInterval:
// one whose session ended is closed (1008) at once.
func (h *Hub) recheckUser(userID int64) {
	h.mu.Lock()
	var mine []*client
	for c := range h.clients {
		if st := c.signedIn.Load(); st != nil && st.id.UserID == userID {
			mine = append(mine, c)
		}
	}
	h.mu.Unlock()
	for _, c := range mine {
		go c.recheckNow()
	}
}

// Shutdown stops accepting connections and closes every open one with 1001
// (going away), waiting for the close handshakes until ctx ends; whatever
// is left then is dropped. Publish and Seq fail afterwards.
func (h *Hub) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	if h.closed.Swap(true) {
		h.mu.Unlock()
		return nil
	}
	clients := make([]*client, 0, len(h.clients))
	for c := range h.clients {
		clients = append(clients, c)
	}
	h.mu.Unlock()

	close(h.stop)
	for _, c := range clients {
		c.closeWith(websocket.StatusGoingAway, "server shutting down", false)
	}
	done := make(chan struct{})
	go func() {
		h.conns.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		for _, c := range clients {
			_ = c.out.conn.Close() // cuts short close handshakes with silent peers
		}
		<-done
	}
	h.store.close()
	return err
}

// resyncTopic tells every local subscriber of topic to reload: its events
// since their last one can no longer be delivered. Those that named their
// page get it in the frame (pages.go).
func (h *Hub) resyncTopic(topic string) {
	h.resyncWithPages(topic)
	h.followers.resync(topic)
}

// sweep enforces WriteTimeout: a connection whose write has been stuck
// longer is dropped, which ends the write. Checking every connection a few
// times a second costs far less than a timer per write.
func (h *Hub) sweep() {
	tick := time.NewTicker(min(h.opts.WriteTimeout/4, time.Second))
	defer tick.Stop()
	var stuck []*client
	for {
		select {
		case <-h.stop:
			return
		case now := <-tick.C:
			limit := now.Add(-h.opts.WriteTimeout).UnixNano()
			stuck = stuck[:0]
			h.mu.Lock()
			for c := range h.clients {
				if t := c.writeStart.Load(); t != 0 && t < limit {
					stuck = append(stuck, c)
				}
			}
			h.mu.Unlock()
			for _, c := range stuck {
				h.log.Info("hub: write timed out; dropping connection")
				_ = c.out.conn.Close()
			}
		}
	}
}
