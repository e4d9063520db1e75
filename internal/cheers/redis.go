package cheers

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The Redis layout, under RedisMerger.Prefix (the instances of one site
// share it; like the hub's keys, one Redis server or a Sentinel-watched
// primary, not a cluster: the scripts name the hashes they build):
//
//	w:<window>:<topic>  a hash kind -> taps of the window on the topic, all instances'
//	topics:<window>     the set of topics with taps in the window
//	done:<window>       set by the instance that merged the window (once)
//	frames              the pub/sub channel of merged frames: "<topic>\n<frame>"
//
// Everything expires after keep: a window no instance merged (all of them
// down) leaves nothing behind.
const keep = 10 * time.Second

// addScript adds one instance's counts to window ARGV[2], or to the next
// window when that one was merged already (a late instance's taps are not
// lost, only a window late). ARGV from 4: topic, kind, n triples.
var addScript = redis.NewScript(`
local w = tonumber(ARGV[2])
local set = KEYS[2]
if redis.call('EXISTS', KEYS[1]) == 1 then
  w = w + 1
  set = KEYS[3]
end
local ws = string.format('%d', w)
for i = 4, #ARGV, 3 do
  local h = ARGV[1] .. 'w:' .. ws .. ':' .. ARGV[i]
  redis.call('HINCRBY', h, ARGV[i + 1], ARGV[i + 2])
  redis.call('PEXPIRE', h, ARGV[3])
  redis.call('SADD', set, ARGV[i])
end
redis.call('PEXPIRE', set, ARGV[3])
return w
`)

// mergeScript claims window ARGV[2] (once across instances) and publishes
// one frame per topic with its merged counts, then drops the window's keys.
var mergeScript = redis.NewScript(`
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[5]) then return -1 end
local topics = redis.call('SMEMBERS', KEYS[2])
for _, t in ipairs(topics) do
  local h = ARGV[1] .. 'w:' .. ARGV[2] .. ':' .. t
  local kv = redis.call('HGETALL', h)
  local counts = {}
  for i = 1, #kv, 2 do counts[kv[i]] = tonumber(kv[i + 1]) end
  local frame = cjson.encode({type = 'cheers', topic = t, counts = counts, window_ms = tonumber(ARGV[3]), window = tonumber(ARGV[2])})
  redis.call('PUBLISH', ARGV[4], t .. '\n' .. frame)
  redis.call('DEL', h)
end
redis.call('DEL', KEYS[2])
return #topics
`)

// RedisMerger merges the instances' windows through Redis.
type RedisMerger struct {
	Rdb    *redis.Client
	Prefix string // e.g. "pitlane:cheers:"
	Log    *slog.Logger
}

func (m RedisMerger) key(parts ...string) string { return m.Prefix + strings.Join(parts, ":") }

func win(w int64) string { return strconv.FormatInt(w, 10) }

// Add implements Merger.
func (m RedisMerger) Add(ctx context.Context, w int64, counts map[string]map[string]int64) error {
	args := []any{m.Prefix, win(w), keep.Milliseconds()}
	for topic, byKind := range counts {
		for kind, n := range byKind {
			args = append(args, topic, kind, n)
		}
	}
	keys := []string{m.key("done", win(w)), m.key("topics", win(w)), m.key("topics", win(w+1))}
	return addScript.Run(ctx, m.Rdb, keys, args...).Err()
}

// Merge implements Merger.
func (m RedisMerger) Merge(ctx context.Context, w int64) error {
	keys := []string{m.key("done", win(w)), m.key("topics", win(w))}
	return mergeScript.Run(ctx, m.Rdb, keys, m.Prefix, win(w), Window.Milliseconds(), m.key("frames"), keep.Milliseconds()).Err()
}

// Listen implements Merger: go-redis resubscribes after a lost connection;
// the windows merged meanwhile are lost, which for cheers is only a gap.
func (m RedisMerger) Listen(ctx context.Context, deliver func(topic string, frame []byte)) {
	ps := m.Rdb.Subscribe(ctx, m.key("frames"))
	defer ps.Close()
	ch := ps.Channel(redis.WithChannelSize(1024))
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-ch:
			if !ok {
				return
			}
			topic, frame, found := strings.Cut(msg.Payload, "\n")
			if !found {
				continue
			}
			deliver(topic, []byte(frame))
		}
	}
}
