package main

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// What the night cost its servers: CPU of the instances, of Redis and of
// PostgreSQL (the private ones: a shared server's CPU is everyone's), Redis
// commands and PostgreSQL transactions, for the capacity plan
// (docs/capacity.md).

type usageReport struct {
	Seconds    float64 `json:"seconds"`
	ServersCPU float64 `json:"servers_cpu_s"` // the instances' CPU seconds
	RedisCPU   float64 `json:"redis_cpu_s"`   // -1: not measured (a shared Redis)
	PGCPU      float64 `json:"pg_cpu_s"`      // -1: not measured (a shared PostgreSQL)
	// RedisCommands counts Redis's commands over the night (a shared Redis:
	// everyone's); PGCommits the night database's transactions.
	RedisCommands int64 `json:"redis_commands"`
	PGCommits     int64 `json:"pg_commits"`
	// RedisByCommand is a private Redis's calls per command (INFO
	// commandstats), since it last started.
	RedisByCommand map[string]int64 `json:"redis_by_command,omitempty"`
	// Derived (per): per event committed, per frame delivered, per action.
	ServerMsPerEvent  float64 `json:"server_ms_per_event"`
	ServerUsPerFrame  float64 `json:"server_us_per_frame"`
	RedisMsPerEvent   float64 `json:"redis_ms_per_event"`
	RedisCmdsPerEvent float64 `json:"redis_commands_per_event"`
	PGMsPerAction     float64 `json:"pg_ms_per_action"`
	PGCommitsPerAct   float64 `json:"pg_commits_per_action"`
	Events, Frames    int
	Actions           int
}

// sampler samples CPU once a second while the night runs: a process that
// dies (the killed instance, Redis or PostgreSQL restarted) keeps what it
// had used by its last sample.
type sampler struct {
	st         *stage
	mu         sync.Mutex
	first      map[string]int64
	last       map[string]int64
	stopc      chan struct{}
	done       chan struct{}
	start      time.Time
	redisCmds0 int64
	commits0   int64
}

func startUsage(ctx context.Context, st *stage) *sampler {
	u := &sampler{st: st, first: map[string]int64{}, last: map[string]int64{}, stopc: make(chan struct{}), done: make(chan struct{}), start: time.Now()}
	u.redisCmds0 = redisCommands(ctx, st.redisURL)
	u.commits0 = pgCommits(ctx, st)
	u.sample()
	go func() {
		defer close(u.done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-u.stopc:
				return
			case <-t.C:
				u.sample()
			}
		}
	}()
	return u
}

// sample reads each process's CPU ticks, under a key that tells the
// process apart (a restarted server is another process).
func (u *sampler) sample() {
	note := func(key string, ticks int64, err error) {
		if err != nil {
			return
		}
		u.mu.Lock()
		if _, ok := u.first[key]; !ok {
			u.first[key] = ticks
		}
		u.last[key] = ticks
		u.mu.Unlock()
	}
	for _, pid := range u.st.serverPIDs() {
		t, err := cpuTicks(pid)
		note("serve:"+strconv.Itoa(pid), t, err)
	}
	if u.st.redis != nil {
		if pid := u.st.redis.pid(); pid > 0 {
			t, err := cpuTicks(pid)
			note("redis:"+strconv.Itoa(pid), t, err)
		}
	}
	if u.st.pg != nil {
		if pids := u.st.pg.pids(); len(pids) > 0 {
			t, err := clusterTicks(pids)
			note("pg:"+strconv.Itoa(pids[0]), t, err)
		}
	}
}

// clusterTicks is a PostgreSQL cluster's CPU: the postmaster's own and its
// reaped children's, and its live children's.
func clusterTicks(pids []int) (int64, error) {
	total, err := cpuTicksWithChildren(pids[0])
	if err != nil {
		return 0, err
	}
	for _, p := range pids[1:] {
		if t, err := cpuTicks(p); err == nil {
			total += t
		}
	}
	return total, nil
}

func (u *sampler) stop(ctx context.Context) *usageReport {
	u.sample()
	close(u.stopc)
	<-u.done
	r := &usageReport{Seconds: time.Since(u.start).Seconds(), RedisCPU: -1, PGCPU: -1}
	u.mu.Lock()
	defer u.mu.Unlock()
	for key, last := range u.last {
		s := float64(last-u.first[key]) / ticksPerSecond
		switch {
		case strings.HasPrefix(key, "serve:"):
			r.ServersCPU += s
		case strings.HasPrefix(key, "redis:"):
			r.RedisCPU = max(r.RedisCPU, 0) + s
		case strings.HasPrefix(key, "pg:"):
			r.PGCPU = max(r.PGCPU, 0) + s
		}
	}
	r.RedisCommands = redisCommands(ctx, u.st.redisURL) - u.redisCmds0
	if u.st.redis != nil {
		// A restarted Redis counts from zero again: what its first life
		// counted is not known, so count the second's alone.
		r.RedisCommands = max(r.RedisCommands, redisCommands(ctx, u.st.redisURL))
	}
	r.PGCommits = pgCommits(ctx, u.st) - u.commits0
	if u.st.redis != nil {
		r.RedisByCommand = redisCommandStats(ctx, u.st.redisURL)
	}
	return r
}

// per derives the per-event, per-frame and per-action figures.
func (r *usageReport) per(rep *nightReport) {
	if r == nil {
		return
	}
	for _, n := range rep.Events {
		r.Events += n
	}
	if rep.Spectators != nil {
		r.Frames = rep.Spectators.Delivered
	}
	if rep.Members != nil {
		r.Frames += rep.Members.Delivered
	}
	for _, a := range rep.Actions {
		r.Actions += a.Count
	}
	div := func(a, b float64) float64 {
		if b == 0 || a < 0 {
			return 0
		}
		return a / b
	}
	r.ServerMsPerEvent = div(r.ServersCPU*1000, float64(r.Events))
	r.ServerUsPerFrame = div(r.ServersCPU*1e6, float64(r.Frames))
	r.RedisMsPerEvent = div(r.RedisCPU*1000, float64(r.Events))
	r.RedisCmdsPerEvent = div(float64(r.RedisCommands), float64(r.Events))
	r.PGMsPerAction = div(r.PGCPU*1000, float64(r.Actions))
	r.PGCommitsPerAct = div(float64(r.PGCommits), float64(r.Actions))
}

// redisCommands is INFO's total_commands_processed.
func redisCommands(ctx context.Context, redisURL string) int64 {
	n, _ := strconv.ParseInt(redisInfo(ctx, redisURL, "stats")["total_commands_processed"], 10, 64)
	return n
}

// redisCommandStats is INFO commandstats: calls per command.
func redisCommandStats(ctx context.Context, redisURL string) map[string]int64 {
	out := map[string]int64{}
	for name, v := range redisInfo(ctx, redisURL, "commandstats") {
		// cmdstat_evalsha:calls=123,usec=...
		calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
		out[strings.TrimPrefix(name, "cmdstat_")], _ = strconv.ParseInt(calls, 10, 64)
	}
	return out
}

// redisInfo is one section of INFO, as name: value.
func redisInfo(ctx context.Context, redisURL, section string) map[string]string {
	out := map[string]string{}
	o, err := redis.ParseURL(redisURL)
	if err != nil {
		return out
	}
	rdb := redis.NewClient(o)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	info, err := rdb.Info(ctx, section).Result()
	if err != nil {
		return out
	}
	for line := range strings.SplitSeq(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			out[k] = v
		}
	}
	return out
}

// pgCommits is the night database's committed transactions.
func pgCommits(ctx context.Context, st *stage) int64 {
	var n int64
	_ = st.db.QueryRow(ctx, `SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`).Scan(&n)
	return n
}

// hubReads is what an instance's hub read for its clients: history reads
// (subscriptions with since) and pages read for mass resyncs, from its
// metrics; -1 when the instance could not be asked (killed).
type hubReads struct {
	History float64 `json:"history"`
	Pages   float64 `json:"pages"`
}

// readHubReads scrapes the instance's metrics for its hub's reads.
func (in *instance) readHubReads() hubReads {
	r := hubReads{History: -1, Pages: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+in.metricsAddr+"/metrics", nil)
	if err != nil {
		return r
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return r
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil {
			continue
		}
		switch name {
		case "pitlane_hub_history_reads_total":
			r.History = v
		case "pitlane_hub_page_reads_total":
			r.Pages = v
		}
	}
	return r
}
