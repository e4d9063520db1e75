package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/redisconn"
)

// The Redis layout, all under Options.Prefix:
//
//	stream:<topic>  a stream per topic; entry ID "<seq>-0", field f = the frame,
//	                trimmed to about History entries; user topics' streams
//	                expire UserTopicTTL after their last event
//	seq:<topic>     a floor under the topic's seq: a user topic's last seq,
//	                kept when its stream expires, or the seq the outbox relay
//	                primed the topic with (Prime); the seq is the greater of
//	                it and the stream's top
//	events          the pub/sub channel every instance listens on; a message
//	                is "<topic>\n<seq>\n<frame>"
//	epoch           a random value set when the keys are first used; a new
//	                value means Redis lost its data and every seq restarted
//
// A publication's seq is the outbox's (PostgreSQL's), or for Publish the
// stream's top ID plus one; either way one script checks and writes it, so a
// seq the topic already has is skipped (a relay retrying after a lost reply
// publishes nothing twice) and one key per topic holds both counter and
// history (they cannot drift apart). PUBLISH runs inside the same script, so
// every instance receives a topic's events in seq order.

// curLua sets cur to the topic's seq: the stream's top, or the floor.
const curLua = `
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local cur = 0
if #top > 0 then cur = tonumber(string.match(top[1][1], '^(%d+)')) end
local floor = tonumber(redis.call('GET', KEYS[2]) or '0')
if floor > cur then cur = floor end
`

// publishScript returns {seq, dup}.
var publishScript = redis.NewScript(curLua + `
local seq = tonumber(ARGV[7])
if seq == 0 then seq = cur + 1
elseif seq <= cur then return {cur, 1} end
local s = string.format('%d', seq)
local frame = ARGV[2] .. s .. ARGV[3]
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], s .. '-0', 'f', frame)
redis.call('PUBLISH', ARGV[4], ARGV[5] .. '\n' .. s .. '\n' .. frame)
if tonumber(ARGV[6]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('SET', KEYS[2], s)
end
return {seq, 0}
`)

// primeScript raises the floor of a topic whose seq is below ARGV[1].
var primeScript = redis.NewScript(curLua + `
if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[2], ARGV[1]) end
return cur
`)

// historyScript returns {cur, frame...}: the latest seq and, when
// 0 <= since < cur, the frames of the last unbroken run of seqs after since
// that ends at cur (none when the stream does not reach cur).
var historyScript = redis.NewScript(curLua + `
local since = tonumber(ARGV[1])
if since < 0 or since >= cur then return {cur} end
local out = {cur}
local want = since + 1
for _, e in ipairs(redis.call('XRANGE', KEYS[1], string.format('%d-0', since + 1), '+')) do
  local q = tonumber(string.match(e[1], '^(%d+)'))
  if q ~= want then out = {cur} end
  out[#out + 1] = e[2][2]
  want = q + 1
end
if want - 1 ~= cur then return {cur} end
return out
`)

// forgetScript drops the stream's entries up to seq ARGV[1], first setting
// the floor to the topic's seq so that it stays when the stream empties.
var forgetScript = redis.NewScript(curLua + `
if cur > floor then redis.call('SET', KEYS[2], string.format('%d', cur)) end
redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d-0', tonumber(ARGV[1]) + 1))
return cur
`)

var epochScript = redis.NewScript(`
local e = redis.call('GET', KEYS[1])
if e then return e end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`)

// healthInterval is how long the subscriber waits in silence before it
// pings Redis; a second silent interval means the connection is dead.
const healthInterval = 5 * time.Second

type redisStore struct {
	h       *Hub
	rdb     *redis.Client
	prefix  string
	channel string

	cancel context.CancelFunc
	done   chan struct{}
	ready  chan struct{} // closed at the first subscription

	epoch string // the subscriber goroutine's own
}

func newRedisStore(h *Hub, target redisconn.Target) (*redisStore, error) {
	rdb, err := target.Client(func(o *redis.Options) {
		// Fail fast during an outage: publishers must not stall (the URL can
		// still set these).
		t := h.opts.RedisTimeout
		if o.DialTimeout == 0 {
			o.DialTimeout = t
		}
		if o.ReadTimeout == 0 {
			o.ReadTimeout = t
		}
		if o.WriteTimeout == 0 {
			o.WriteTimeout = t
		}
		if o.PoolTimeout == 0 {
			o.PoolTimeout = t
		}
		if o.MaxRetries == 0 {
			o.MaxRetries = -1 // a retried publish whose reply was lost would publish twice
		}
	})
	if err != nil {
		return nil, fmt.Errorf("hub: redis: %w", err)
	}
	return &redisStore{
		h:       h,
		rdb:     rdb,
		prefix:  h.opts.Prefix,
		channel: h.opts.Prefix + "events",
		done:    make(chan struct{}),
		ready:   make(chan struct{}),
	}, nil
}

func (s *redisStore) streamKey(topic string) string { return s.prefix + "stream:" + topic }

// seqKey keeps the last seq of a topic whose stream expires (user topics),
// so the topic goes on from it instead of starting over.
func (s *redisStore) seqKey(topic string) string { return s.prefix + "seq:" + topic }

// start runs the subscriber and waits a moment for its first subscription,
// so events published right after New reach this instance.
func (s *redisStore) start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go s.run(ctx)
	select {
	case <-s.ready:
	case <-time.After(s.h.opts.RedisTimeout):
		s.h.log.Warn("hub: redis not reachable yet; retrying in the background")
	}
}

func (s *redisStore) close() {
	s.cancel()
	<-s.done
	_ = s.rdb.Close()
}

func (s *redisStore) publish(ctx context.Context, topic string, seq int64, prefix, suffix []byte) (int64, bool, error) {
	var ttl int64 // ms; 0: the topic's stream never expires
	if isUserTopic(topic) {
		ttl = s.h.opts.UserTopicTTL.Milliseconds()
	}
	res, err := publishScript.Run(ctx, s.rdb, []string{s.streamKey(topic), s.seqKey(topic)},
		s.h.opts.History, prefix, suffix, s.channel, topic, ttl, seq).Int64Slice()
	if err != nil || len(res) != 2 {
		return 0, false, fmt.Errorf("hub: publish to %s: %w", topic, err)
	}
	return res[0], res[1] == 1, nil
}

func (s *redisStore) prime(ctx context.Context, topic string, seq int64) error {
	if err := primeScript.Run(ctx, s.rdb, []string{s.streamKey(topic), s.seqKey(topic)}, seq).Err(); err != nil {
		return fmt.Errorf("hub: prime %s: %w", topic, err)
	}
	return nil
}

func (s *redisStore) forget(ctx context.Context, topic string, through int64) error {
	if err := forgetScript.Run(ctx, s.rdb, []string{s.streamKey(topic), s.seqKey(topic)}, through).Err(); err != nil {
		return fmt.Errorf("hub: forget %s: %w", topic, err)
	}
	return nil
}

func (s *redisStore) history(ctx context.Context, topic string, since int64) (int64, []event, error) {
	res, err := historyScript.Run(ctx, s.rdb, []string{s.streamKey(topic), s.seqKey(topic)}, since).Slice()
	if err != nil {
		return 0, nil, fmt.Errorf("hub: history of %s: %w", topic, err)
	}
	if len(res) < 1 {
		return 0, nil, fmt.Errorf("hub: history of %s: short reply", topic)
	}
	cur, _ := res[0].(int64)
	first := cur - int64(len(res)-1) + 1
	evs := make([]event, 0, len(res)-1)
	for i, f := range res[1:] {
		frame, _ := f.(string)
		evs = append(evs, newEvent(first+int64(i), frame))
	}
	return cur, evs, nil
}

var seqScript = redis.NewScript(curLua + `return cur`)

func (s *redisStore) seq(ctx context.Context, topic string) (int64, error) {
	n, err := seqScript.Run(ctx, s.rdb, []string{s.streamKey(topic), s.seqKey(topic)}).Int64()
	if err != nil {
		return 0, fmt.Errorf("hub: seq of %s: %w", topic, err)
	}
	return n, nil
}

// run is the subscriber: it delivers the channel's events to local
// subscribers and, whenever the subscription is (re-)established, catches
// them up on what they may have missed.
func (s *redisStore) run(ctx context.Context) {
	defer close(s.done)
	// Receive does not watch ctx; closing the PubSub is what wakes it.
	var mu sync.Mutex
	var ps *redis.PubSub
	subscribe := func() {
		mu.Lock()
		defer mu.Unlock()
		if ps != nil {
			_ = ps.Close()
		}
		ps = s.rdb.Subscribe(ctx, s.channel)
		if ctx.Err() != nil {
			_ = ps.Close()
		}
	}
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		_ = ps.Close()
	})
	defer stop()
	subscribe()

	subscriptions := 0
	pinged := false
	down := false
	backoff := 50 * time.Millisecond
	for {
		msg, err := ps.ReceiveTimeout(ctx, healthInterval)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			if isTimeout(err) {
				if !pinged {
					_ = ps.Ping(ctx)
					pinged = true
					continue
				}
				// No pong within a whole interval: the connection is dead
				// without having said so. Start over on a fresh one.
				s.h.log.Warn("hub: redis subscription silent; reconnecting")
				subscribe()
				pinged = false
				continue
			}
			// go-redis has already tried to reconnect once; keep trying.
			if !down {
				s.h.log.Warn("hub: redis subscription lost", "err", err)
				down = true
			}
			pinged = false
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			// At most a quarter second: a Redis back is found soon after, and a
			// dial four times a second costs nothing.
			backoff = min(backoff*2, 250*time.Millisecond)
			continue
		}
		pinged, backoff = false, 50*time.Millisecond
		switch m := msg.(type) {
		case *redis.Message:
			s.receive(m.Payload)
		case *redis.Subscription:
			if m.Kind != "subscribe" {
				continue
			}
			subscriptions++
			if subscriptions > 1 {
				s.h.metrics.redisReconnects.Inc()
				s.h.log.Info("hub: redis subscription restored")
			}
			down = false
			s.recover(ctx)
			if subscriptions == 1 {
				close(s.ready)
			}
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func (s *redisStore) receive(payload string) {
	topic, rest, ok1 := strings.Cut(payload, "\n")
	seqText, frame, ok2 := strings.Cut(rest, "\n")
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if !ok1 || !ok2 || err != nil {
		s.h.log.Warn("hub: malformed redis message", "payload", truncate(payload, 80))
		return
	}
	s.h.dispatch(topic, newEvent(seq, frame))
}

// recover runs on every (re)subscription, before any event that arrives on
// it. If Redis lost its data (new epoch), every subscriber must resync;
// otherwise each topic is caught up from its stream, and only subscribers
// the stream cannot cover are told to resync.
func (s *redisStore) recover(ctx context.Context) {
	topics := s.h.reg.names()
	ctx, cancel := context.WithTimeout(ctx, s.h.opts.RedisTimeout)
	defer cancel()
	epoch, err := epochScript.Run(ctx, s.rdb, []string{s.prefix + "epoch"}, randomID()).Text()
	if err != nil {
		s.h.log.Warn("hub: reading redis epoch failed; resyncing all subscribers", "err", err)
		s.resyncAll(topics)
		return
	}
	lost := s.epoch != "" && epoch != s.epoch
	s.epoch = epoch
	if lost {
		s.h.log.Warn("hub: redis lost its data; seqs restart and clients resync", "topics", len(topics))
		s.resyncAll(topics)
		return
	}
	for _, t := range topics {
		s.catchUp(ctx, t)
	}
}

// resyncAll tells every local subscriber to resync, asking them to spread
// their reads when there are many.
func (s *redisStore) resyncAll(topics []string) {
	n := 0
	for _, t := range topics {
		n += s.h.countPlainResyncs(t)
	}
	s.h.pressure.resyncing(n, time.Now())
	for _, t := range topics {
		s.h.resyncTopic(t)
	}
}

// catchUp delivers from the stream what the topic's subscribers missed.
func (s *redisStore) catchUp(ctx context.Context, topic string) {
	since := int64(-1)
	s.h.reg.each(topic, func(c *client, sb *sub) {
		if last := c.lastSeq(sb); last >= 0 && (since < 0 || last < since) {
			since = last
		}
	})
	cur, evs, err := s.history(ctx, topic, since)
	if err != nil {
		s.h.log.Warn("hub: catching up failed; resyncing", "topic", topic, "err", err)
	}
	s.h.reg.each(topic, func(c *client, sb *sub) {
		c.catchUp(sb, cur, evs, err != nil)
	})
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
