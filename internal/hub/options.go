package hub

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/redisconn"
)

// Options configures a Hub. Zero values take the defaults named per field.
type Options struct {
	// Auth checks the token of an "auth" frame. Nil rejects every token.
	Auth Authenticator
	// Guard says whether the actor may follow a topic core's rule
	// (core.Actor.MayFollow) leaves to the store: a room's members only.
	// Nil: every topic MayFollow allows.
	Guard func(ctx context.Context, a core.Actor, topic string) error
	// Cheers counts "cheer" frames (internal/cheers); nil refuses them.
	Cheers Cheerer
	// Broker is how events reach every instance and where seqs and history
	// live: MemoryBroker (one instance, the default) or RedisBroker (any
	// number of instances through Redis).
	Broker Broker
	// Prefix starts every Redis key and channel the hub uses; instances
	// that share it share events. Default "pitlane:hub:".
	Prefix string
	// OriginPatterns are the cross-origin hosts allowed to connect
	// (websocket.AcceptOptions.OriginPatterns). Empty: same origin only.
	OriginPatterns []string
	// MaxConnsPerIP bounds the websockets one client address may hold at
	// once on this instance; an upgrade past it is refused with 429. The
	// address is the one WithClientIP gives the request, else the peer's.
	// Default 200; negative: no bound.
	MaxConnsPerIP int
	// History is how many events per topic stay replayable. Default 1000.
	History int
	// UserTopicTTL is how long a user's own topic keeps its seq and history
	// after its last event; then it is forgotten (its memory freed) and
	// starts over at seq 1, its subscribers getting a resync. Default 24h.
	UserTopicTTL time.Duration
	// QueueLen and QueueBytes bound what may wait to be written to one
	// connection; a client past either is closed with 1013.
	// Defaults 1024 frames and 1 MiB.
	QueueLen   int
	QueueBytes int
	// SendBuffer is the kernel send buffer (SO_SNDBUF) of each websocket's
	// socket, in bytes; Linux doubles it for its bookkeeping. The hub's
	// writes never wait, so frames pile up in its queue, where the bounds
	// above apply, only once this buffer is full: left to the kernel's
	// autotuning (up to 4 MiB on Linux), a client that stops reading would
	// hold megabytes of the server's memory before anything noticed.
	// Default 64 KiB; negative leaves the kernel's size.
	SendBuffer int
	// PingInterval is how often the server pings each connection (default
	// 25s); a pong must come within PongTimeout (default 10s).
	PingInterval time.Duration
	PongTimeout  time.Duration
	// WriteTimeout bounds every write to a connection. Default 5s.
	WriteTimeout time.Duration
	// ReauthInterval is how often a signed-in connection's token is checked
	// again (at a ping), so a password change or a lost role ends sessions
	// that are already open. Default 5 minutes.
	ReauthInterval time.Duration
	// ReadLimit is the largest client frame in bytes; a bigger one closes
	// the connection with 1009. Default 4096.
	ReadLimit int64
	// RedisTimeout bounds each Redis call made for a publish, a replay or a
	// seq, so an outage fails fast instead of stalling. Default 2s.
	RedisTimeout time.Duration
	// ResyncRate is how many pages a second the instance expects to answer
	// when they read their state again after a resync. When Redis lost its
	// data and more subscriptions than 2 s of it are told to resync at once,
	// their resync frames say over how long to spread the reads
	// (retry_after_ms). Default 1000; negative: never.
	ResyncRate int
	// Pages reads a page of the site as an anonymous visitor (GET path) for
	// the clients that named it when they subscribed: a mass resync (Redis
	// lost its data) sends it in their resync frames, one read per page
	// (pages.go). Nil: every resync is plain and pages read over REST.
	Pages func(ctx context.Context, path string) (Page, error)
	// Logger gets connection and Redis trouble. Default: discarded.
	Logger *slog.Logger
	// Registerer gets the hub's metrics. Nil: metrics are kept but not
	// registered.
	Registerer prometheus.Registerer
}

func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = "pitlane:hub:"
	}
	if o.MaxConnsPerIP == 0 {
		o.MaxConnsPerIP = 200
	}
	if o.History <= 0 {
		o.History = 1000
	}
	if o.UserTopicTTL <= 0 {
		o.UserTopicTTL = 24 * time.Hour
	}
	if o.QueueLen <= 0 {
		o.QueueLen = 1024
	}
	if o.QueueBytes <= 0 {
		o.QueueBytes = 1 << 20
	}
	if o.SendBuffer == 0 {
		o.SendBuffer = 64 << 10
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 25 * time.Second
	}
	if o.PongTimeout <= 0 {
		o.PongTimeout = 10 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 5 * time.Second
	}
	if o.ReauthInterval <= 0 {
		o.ReauthInterval = 5 * time.Minute
	}
	if o.ReadLimit <= 0 {
		o.ReadLimit = 4096
	}
	if o.RedisTimeout <= 0 {
		o.RedisTimeout = 2 * time.Second
	}
	if o.ResyncRate == 0 {
		o.ResyncRate = 1000
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Broker carries events between the hub's instances and keeps each topic's
// seq and history. The hub is given one, as centrifuge is given its
// Broker: MemoryBroker or RedisBroker.
type Broker interface {
	open(h *Hub) (store, error)
}

// MemoryBroker keeps seqs and history in this process: one instance.
type MemoryBroker struct{}

func (MemoryBroker) open(h *Hub) (store, error) {
	return newMemStore(h.opts.History, h.opts.UserTopicTTL, h.dispatch), nil
}

// RedisBroker fans events out through Redis pub/sub, with seqs and history
// in Redis, so any number of instances share them. URL is
// redis://host:port/db (its query may set timeouts); or Target names Redis
// Sentinels that name the primary (and overrides URL when set).
type RedisBroker struct {
	URL    string
	Target redisconn.Target
}

func (b RedisBroker) open(h *Hub) (store, error) {
	t := b.Target
	if !t.Set() {
		t = redisconn.Target{URL: b.URL}
	}
	rs, err := newRedisStore(h, t)
	if err != nil {
		return nil, err
	}
	rs.start()
	return rs, nil
}
