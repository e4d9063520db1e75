// Package ratelimit holds Pitlane's abuse limits: go-chi/httprate limiters
// whose counters live in Redis when REDIS_URL is set (so every instance counts
// together) and fall back to memory when Redis is unreachable.
package ratelimit

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/httprate"
	"github.com/redis/go-redis/v9"
)

// RedisCounter is an httprate.LimitCounter on Redis. A Redis failure degrades
// it to the in-memory counter of this instance rather than refusing requests.
type RedisCounter struct {
	rdb    *redis.Client
	prefix string
	secret []byte
	window time.Duration
	local  httprate.LimitCounter
	log    *slog.Logger

	mu        sync.Mutex
	failingAt time.Time
}

// NewRedisCounter counts in rdb under prefix.
// Keys are named by an HMAC under secret, so what they limit (an e-mail
// address, an IP) cannot be recovered from Redis by trying candidates.
func NewRedisCounter(rdb *redis.Client, prefix string, secret []byte, log *slog.Logger) *RedisCounter {
	return &RedisCounter{rdb: rdb, prefix: prefix, secret: secret, log: log}
}

// Config implements httprate.LimitCounter.
func (c *RedisCounter) Config(limit int, window time.Duration) {
	c.window = window
	c.local = httprate.NewLocalLimitCounter(window)
	c.local.Config(limit, window)
}

// key names a window's counter by a hash of the limited key, so no e-mail
// address or IP is written to Redis.
func (c *RedisCounter) key(key string, win time.Time) string {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(key))
	return c.prefix + hex.EncodeToString(m.Sum(nil)[:16]) + ":" + strconv.FormatInt(win.Unix(), 10)
}

// Increment implements httprate.LimitCounter.
func (c *RedisCounter) Increment(key string, win time.Time) error { return c.IncrementBy(key, win, 1) }

// IncrementBy implements httprate.LimitCounter.
func (c *RedisCounter) IncrementBy(key string, win time.Time, n int) error {
	if c.down() {
		return c.local.IncrementBy(key, win, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	k := c.key(key, win)
	pipe := c.rdb.TxPipeline()
	pipe.IncrBy(ctx, k, int64(n))
	pipe.Expire(ctx, k, 3*c.window)
	if _, err := pipe.Exec(ctx); err != nil {
		c.fail(err)
		return c.local.IncrementBy(key, win, n)
	}
	return nil
}

// Get implements httprate.LimitCounter.
func (c *RedisCounter) Get(key string, cur, prev time.Time) (int, int, error) {
	if c.down() {
		return c.local.Get(key, cur, prev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	vals, err := c.rdb.MGet(ctx, c.key(key, cur), c.key(key, prev)).Result()
	if err != nil {
		c.fail(err)
		return c.local.Get(key, cur, prev)
	}
	return atoi(vals[0]), atoi(vals[1]), nil
}

// down reports a recent failure; Redis is tried again after a few seconds.
func (c *RedisCounter) down() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.failingAt.IsZero() && time.Since(c.failingAt) < 5*time.Second
}

func (c *RedisCounter) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failingAt.IsZero() || time.Since(c.failingAt) >= 5*time.Second {
		c.log.Warn("rate-limit counters fall back to memory", slog.Any("err", err))
	}
	c.failingAt = time.Now()
}

func atoi(v any) int {
	s, _ := v.(string)
	n, _ := strconv.Atoi(s)
	return n
}
