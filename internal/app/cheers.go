package app

import (
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/cheers"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// newCheers builds the live cheers: counted per instance (their limits in
// memory, no Redis round trip per tap) and merged through Redis when there
// is one, so every spectator gets one frame per topic and window whatever
// the number of instances.
func newCheers(cfg config.Config, rdb *redis.Client, log *slog.Logger) *cheers.Service {
	svc := &cheers.Service{
		Limits: ratelimit.New(nil, "", nil, cfg.RateLimitScale, log, cheers.Rules...),
		Log:    log,
	}
	if rdb != nil {
		svc.Merge = cheers.RedisMerger{Rdb: rdb, Prefix: cfg.RedisPrefix + "cheers:", Log: log}
	}
	return svc
}
