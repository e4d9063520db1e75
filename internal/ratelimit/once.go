package ratelimit

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"
)

// Once tells the first time a key is seen in a window: a weight, not an
// abuse limit, so RATE_LIMIT_SCALE does not change it. With Redis every
// instance asks the same key (SET NX with the window as its expiry); without
// it, or while Redis fails, this instance remembers the keys it saw in a
// bounded cache. Keys are stored by an HMAC, as the limiters' are.
type Once struct {
	rdb    *redis.Client
	prefix string
	secret []byte
	window time.Duration
	log    *slog.Logger

	mu   sync.Mutex
	seen *lru.Cache[string, time.Time]
}

// onceRemembered bounds the keys an instance remembers on its own: a key
// forgotten early is only counted once more.
const onceRemembered = 100_000

// NewOnce remembers keys for window under prefix; rdb may be nil.
func NewOnce(rdb *redis.Client, prefix string, secret []byte, window time.Duration, log *slog.Logger) *Once {
	if log == nil {
		log = slog.Default()
	}
	seen, _ := lru.New[string, time.Time](onceRemembered) // fails only for a size <= 0
	return &Once{rdb: rdb, prefix: prefix, secret: secret, window: window, log: log, seen: seen}
}

// First tells whether key is seen for the first time in the window, and
// remembers it.
func (o *Once) First(ctx context.Context, key string) bool {
	m := hmac.New(sha256.New, o.secret)
	m.Write([]byte(key))
	k := o.prefix + hex.EncodeToString(m.Sum(nil)[:16])
	if o.rdb != nil {
		ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		first, err := o.rdb.SetNX(ctx, k, 1, o.window).Result()
		if err == nil {
			return first
		}
		o.log.Warn("once: Redis failed, this instance remembers alone", slog.Any("err", err))
	}
	now := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if at, ok := o.seen.Get(k); ok && now.Sub(at) < o.window {
		return false
	}
	o.seen.Add(k, now)
	return true
}
