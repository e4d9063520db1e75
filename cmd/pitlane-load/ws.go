package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

type wsConfig struct {
	url, publishURL, token string
	serverPID              int
	inprocess              bool
	redis, prefix          string
	instances              int
	clients, procs         int
	localIPs               int
	dialConcurrency        int
	events                 int
	interval, settle, idle time.Duration
	timeout                time.Duration
	slideBase              int64
	clientToken            string
	jsonOut                bool
}

func parseWS(args []string) (wsConfig, error) {
	var c wsConfig
	fs := flag.NewFlagSet("ws", flag.ContinueOnError)
	fs.StringVar(&c.url, "url", "ws://127.0.0.1:8080/api/ws", "websocket endpoint of a running server")
	fs.StringVar(&c.publishURL, "publish-url", "http://127.0.0.1:8080/api/deck", `endpoint taking POST {"slide":N} that publishes slide.changed on "deck"`)
	fs.StringVar(&c.token, "token", "", "admin bearer token for -publish-url")
	fs.IntVar(&c.serverPID, "server-pid", 0, "pid of the running server, for its RSS and CPU")
	fs.BoolVar(&c.inprocess, "inprocess", false, "start hub instances here (child processes on loopback, no-op auth) instead of using -url")
	fs.StringVar(&c.redis, "redis", "", "with -inprocess: Redis URL for fan-out across instances")
	fs.StringVar(&c.prefix, "prefix", "", "with -inprocess -redis: key prefix (default: unique per run)")
	fs.IntVar(&c.instances, "instances", 1, "with -inprocess: hub instances (more than 1 needs -redis)")
	fs.IntVar(&c.clients, "clients", 10000, "websocket clients")
	fs.IntVar(&c.procs, "procs", 0, "client worker processes (0 = one per 9000 clients)")
	fs.IntVar(&c.localIPs, "local-ips", 8, "dial from 127.0.0.2 .. 127.0.0.(N+1), past the ephemeral-port limit of one address")
	fs.IntVar(&c.dialConcurrency, "dial-concurrency", 128, "dials in flight, over all workers")
	fs.IntVar(&c.events, "events", 20, "events to publish")
	fs.DurationVar(&c.interval, "interval", 500*time.Millisecond, "time between publishes")
	fs.DurationVar(&c.settle, "settle", 3*time.Second, "wait after the last publish before counting losses")
	fs.DurationVar(&c.idle, "idle", 10*time.Second, "hold all clients idle this long before measuring memory")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "hard limit for the whole run")
	fs.Int64Var(&c.slideBase, "slide-base", 1, "slide number of the first event (the next ones count up)")
	fs.StringVar(&c.clientToken, "client-token", "", "token clients send in an auth frame (optional)")
	fs.BoolVar(&c.jsonOut, "json", false, "print the summary as JSON too")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case c.clients < 1 || c.events < 1:
		return c, errors.New("-clients and -events must be positive")
	case c.instances < 1:
		return c, errors.New("-instances must be positive")
	case c.instances > 1 && (!c.inprocess || c.redis == ""):
		return c, errors.New("-instances > 1 needs -inprocess and -redis")
	case c.localIPs < 1 || c.localIPs > 250:
		return c, errors.New("-local-ips must be 1..250")
	}
	if c.procs <= 0 {
		c.procs = (c.clients + 8999) / 9000
	}
	if c.redis != "" {
		u, err := url.Parse(c.redis)
		if err != nil {
			return c, err
		}
		if err := checkLoopback(u.Hostname()); err != nil {
			return c, err
		}
	}
	if c.prefix == "" {
		c.prefix = fmt.Sprintf("pitlane:load:%d:", time.Now().UnixNano())
	}
	if !c.inprocess {
		for _, raw := range []string{c.url, c.publishURL} {
			u, err := url.Parse(raw)
			if err != nil {
				return c, err
			}
			if err := checkLoopback(u.Hostname()); err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// runWS is the load test: start servers (with -inprocess), connect the
// clients through workers, hold them idle, broadcast, report.
func runWS(ctx context.Context, args []string) error {
	cfg, err := parseWS(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()

	wsURLs := []string{cfg.url}
	publishURL := cfg.publishURL
	var pids []int
	if cfg.serverPID > 0 {
		pids = append(pids, cfg.serverPID)
	}
	var memURLs []string
	if cfg.inprocess {
		hubs, err := startHubs(ctx, cfg)
		if err != nil {
			return err
		}
		defer hubs.stop()
		wsURLs, pids = nil, nil
		for _, h := range hubs.procs {
			wsURLs = append(wsURLs, "ws://"+h.addr+"/api/ws")
			memURLs = append(memURLs, "http://"+h.addr+"/debug/mem")
			pids = append(pids, h.cmd.Process.Pid)
		}
		publishURL = "http://" + hubs.procs[0].addr + "/api/deck"
		defer cleanRedis(cfg)
	}

	rep := report{Config: cfg.describe(len(wsURLs)), Clients: cfg.clients}
	time.Sleep(500 * time.Millisecond) // let servers settle before the baseline
	baseRSS, _ := sumRSS(pids)

	start := time.Now()
	ws, err := startWorkers(ctx, cfg, wsURLs)
	if err != nil {
		return err
	}
	defer ws.stop()
	for _, r := range ws.ready {
		rep.Connected += r.Connected
		rep.ConnectErrors += r.Errors
		if rep.FirstConnectError == "" {
			rep.FirstConnectError = r.FirstError
		}
	}
	rep.ConnectSeconds = time.Since(start).Seconds()
	logf("%d connected, %d errors in %.1fs; holding them idle for %v", rep.Connected, rep.ConnectErrors, rep.ConnectSeconds, cfg.idle)

	ticks0, _ := sumTicks(pids)
	if err := sleep(ctx, cfg.idle); err != nil {
		return err
	}
	ticks1, _ := sumTicks(pids)
	if len(pids) > 0 {
		rss, err := sumRSS(pids)
		if err == nil && rep.Connected > 0 {
			rep.ServerRSSBaseMB = float64(baseRSS) / 1024
			rep.ServerRSSIdleMB = float64(rss) / 1024
			rep.RSSPerConnKB = float64(rss-baseRSS) / float64(rep.Connected)
		}
		rep.ServerCPUIdle = percent(ticks1-ticks0, cfg.idle)
	}
	rep.GoMem = fetchMem(memURLs)

	logf("publishing %d events every %v", cfg.events, cfg.interval)
	wticks0 := ws.ticks()
	bstart := time.Now()
	t0 := make([]int64, cfg.events)
	for i := range cfg.events {
		t0[i] = time.Now().UnixNano()
		d, err := postSlide(ctx, publishURL, cfg.token, cfg.slideBase+int64(i), t0[i])
		if err != nil {
			rep.PublishErrors++
			logf("publish %d: %v", i, err)
		}
		rep.PublishMaxMs = max(rep.PublishMaxMs, ms(d))
		if err := sleep(ctx, cfg.interval); err != nil {
			return err
		}
	}
	if err := sleep(ctx, cfg.settle); err != nil {
		return err
	}
	elapsed := time.Since(bstart)
	ticks2, _ := sumTicks(pids)
	if len(pids) > 0 {
		rep.ServerCPUBroadcast = percent(ticks2-ticks1-(ticks1-ticks0)*int64(elapsed)/int64(max(cfg.idle, 1)), elapsed)
		rep.ServerCPUBroadcastRaw = percent(ticks2-ticks1, elapsed)
	}
	rep.LoadCPU = percent(ws.ticks()-wticks0, elapsed)

	results, err := ws.finish(t0)
	if err != nil {
		return err
	}
	rep.add(results, cfg.events)
	rep.print(os.Stdout)
	if cfg.jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Println(string(b))
	}
	return nil
}

func (c wsConfig) describe(instances int) string {
	mode := "running server " + c.url
	if c.inprocess {
		mode = fmt.Sprintf("%d in-process hub instance(s), in-memory fan-out", instances)
		if c.redis != "" {
			mode = fmt.Sprintf("%d in-process hub instance(s), Redis fan-out", instances)
		}
	}
	return fmt.Sprintf("%d clients in %d worker process(es) from %d local addresses -> %s",
		c.clients, c.procs, c.localIPs, mode)
}

func postSlide(ctx context.Context, target, token string, slide, sentNs int64) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body := fmt.Sprintf(`{"slide":%d,"sent_ns":%d}`, slide, sentNs)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	d := time.Since(start)
	if err != nil {
		return d, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return d, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return d, nil
}

func fetchMem(urls []string) map[string]uint64 {
	total := map[string]uint64{}
	for _, u := range urls {
		resp, err := http.Get(u)
		if err != nil {
			continue
		}
		var m map[string]uint64
		_ = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		for k, v := range m {
			total[k] += v
		}
	}
	if len(total) == 0 {
		return nil
	}
	return total
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("run stopped: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}

func percent(ticks int64, over time.Duration) float64 {
	if over <= 0 {
		return 0
	}
	return 100 * float64(ticks) / ticksPerSecond / over.Seconds()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pitlane-load: "+format+"\n", args...)
}

func itoa(n int) string { return strconv.Itoa(n) }
