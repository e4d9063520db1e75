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
	clients                int
	workerFlags
	events                 int
	interval, settle, idle time.Duration
	timeout                time.Duration
	slides                 int
	clientToken            string
	jsonOut                bool
	hubProfile             string
	// server is the kind of -inprocess server child: "hub" or "anchor".
	server string
	topic  string // the clients' topic: "deck" unless the auction scenario says "teams"
	// The night's spectators: pages (a client follows one of them: topic
	// lists, semicolon-separated), since and rest (topic=value lists, see
	// the worker's flags) and reconnect.
	pages, since, rest string
	reconnect          bool
	namePages          bool // the spectators name their page (rest) per topic, as the web app does
	anchor             bool // -anchor: the same run against centrifuge too
	rounds             int
	anchorProfile      string
}

// protocol is the clients' protocol for the server measured.
func (c wsConfig) protocol() string {
	if c.server == "anchor" {
		return "centrifuge"
	}
	return "pitlane"
}

// workerFlags are the client workers' flags, the same for every scenario.
type workerFlags struct {
	procs, localIPs, dialConcurrency, workerProcs int
}

func (w *workerFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&w.procs, "procs", 0, "client worker processes (0 = one per 9000 clients)")
	fs.IntVar(&w.localIPs, "local-ips", 8, "dial from 127.0.0.2 .. 127.0.0.(N+1), past the ephemeral-port limit of one address")
	fs.IntVar(&w.dialConcurrency, "dial-concurrency", 128, "dials in flight, over all workers")
	fs.IntVar(&w.workerProcs, "worker-gomaxprocs", 0, "GOMAXPROCS of each client worker (0 = Go's default)")
}

// check checks the flags and gives -procs its default for clients.
func (w *workerFlags) check(clients int) error {
	if w.localIPs < 1 || w.localIPs > 250 {
		return errors.New("-local-ips must be 1..250")
	}
	if w.procs <= 0 {
		w.procs = (clients + 8999) / 9000
	}
	return nil
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
	c.workerFlags.register(fs)
	fs.IntVar(&c.events, "events", 20, "events to publish")
	fs.DurationVar(&c.interval, "interval", 500*time.Millisecond, "time between publishes")
	fs.DurationVar(&c.settle, "settle", 3*time.Second, "wait after the last publish before counting losses")
	fs.DurationVar(&c.idle, "idle", 10*time.Second, "hold all clients idle this long before measuring memory")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "hard limit for the whole run")
	fs.IntVar(&c.slides, "slides", 10, "slides of the deck; events move through 1..N in turn")
	fs.StringVar(&c.clientToken, "client-token", "", "token clients send in an auth frame (optional)")
	fs.BoolVar(&c.jsonOut, "json", false, "print the summary as JSON too")
	fs.StringVar(&c.hubProfile, "hub-cpuprofile", "", "with -inprocess: CPU profile of the first hub instance")
	fs.BoolVar(&c.anchor, "anchor", false, "with -inprocess: run the same broadcast against the anchor (centrifuge v0.40.1, same broker kind and instances) and print both side by side with ratios")
	fs.IntVar(&c.rounds, "rounds", 1, "with -anchor: measure each server this many times, alternating which goes first; ratios compare medians")
	fs.StringVar(&c.anchorProfile, "anchor-cpuprofile", "", "with -anchor: CPU profile of the first anchor instance")
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
	case c.slides < 2:
		return c, errors.New("-slides must be at least 2, so each event changes the slide")
	case c.anchor && !c.inprocess:
		return c, errors.New("-anchor needs -inprocess: the anchor runs in child processes like the hub")
	case c.rounds < 1:
		return c, errors.New("-rounds must be positive")
	}
	c.server, c.topic = "hub", "deck"
	if err := c.workerFlags.check(c.clients); err != nil {
		return c, err
	}
	// Every connection is a descriptor in the server process too.
	if lim := fileLimit(); c.inprocess && uint64(c.clients/c.instances+100) > lim {
		return c, fmt.Errorf("%d clients per hub instance exceed its open-file limit (%d); use -redis with -instances %d or more",
			c.clients/c.instances, lim, (c.clients+int(lim)-101)/(int(lim)-100))
	}
	if lim := fileLimit(); uint64(c.clients/c.procs+100) > lim {
		return c, fmt.Errorf("%d clients per worker exceed the open-file limit (%d); raise -procs", c.clients/c.procs, lim)
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
	if cfg.anchor {
		cmp, err := compare(ctx, cfg)
		if err != nil {
			return err
		}
		show(cmp, cfg.jsonOut)
		return nil
	}
	rep, err := measure(ctx, cfg)
	if err != nil {
		return err
	}
	show(rep, cfg.jsonOut)
	return nil
}

// show prints a run's report, and as JSON too when asked.
func show(rep interface{ print(io.Writer) }, asJSON bool) {
	rep.print(os.Stdout)
	if asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Println(string(b))
	}
}

func measure(ctx context.Context, cfg wsConfig) (*report, error) {
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
			return nil, err
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

	ws, err := rep.connect(ctx, cfg, wsURLs)
	if err != nil {
		return nil, err
	}
	defer ws.stop()
	logf("%d connected, %d errors in %.1fs; holding them idle for %v", rep.Connected, rep.ConnectErrors, rep.ConnectSeconds, cfg.idle)

	ticks0, _ := sumTicks(pids)
	if err := sleep(ctx, cfg.idle); err != nil {
		return nil, err
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
	// Events are told apart by seq: the publish answer carries it (as the
	// real POST /api/deck does), else it follows the seq read beforehand.
	base, baseErr := readSeq(ctx, publishURL, cfg.token)
	t0 := make([]int64, cfg.events)
	seqs := make([]int64, cfg.events)
	for i := range cfg.events {
		t0[i] = time.Now().UnixNano()
		slide := 1 + i%cfg.slides
		body := fmt.Sprintf(`{"slide":%d}`, slide)
		if cfg.inprocess {
			// Our own hub server carries the publish time in the event's
			// data; the real server accepts only {"slide":N}.
			body = fmt.Sprintf(`{"slide":%d,"sent_ns":%d}`, slide, t0[i])
		}
		seq, d, err := postSlide(ctx, publishURL, cfg.token, body)
		rep.PublishMaxMs = max(rep.PublishMaxMs, ms(d))
		switch {
		case err != nil:
			rep.PublishErrors++
			logf("publish %d: %v", i, err)
		case seq > 0:
			seqs[i] = seq
		case baseErr == nil:
			seqs[i] = base + 1 + int64(i)
		default:
			return nil, fmt.Errorf("cannot tell events apart: %s answers no seq and GET gave none (%v)", publishURL, baseErr)
		}
		if i > 0 && seqs[i] != 0 && seqs[i] == seqs[i-1] {
			rep.PublishErrors++ // the seq did not move: nothing was published
		}
		if err := sleep(ctx, cfg.interval); err != nil {
			return nil, err
		}
	}
	if err := sleep(ctx, cfg.settle); err != nil {
		return nil, err
	}
	elapsed := time.Since(bstart)
	ticks2, _ := sumTicks(pids)
	if len(pids) > 0 {
		busy := ticks2 - ticks1 - (ticks1-ticks0)*int64(elapsed)/int64(max(cfg.idle, 1))
		rep.ServerCPUPerEventMs = float64(busy) * 1000 / ticksPerSecond / float64(cfg.events)
		rep.ServerCPUBroadcast = percent(busy, elapsed)
		rep.ServerCPUBroadcastRaw = percent(ticks2-ticks1, elapsed)
	}
	rep.LoadCPU = percent(ws.ticks()-wticks0, elapsed)

	results, err := ws.finish(finishCmd{Seqs: seqs, T0: t0})
	if err != nil {
		return nil, err
	}
	rep.add(results, cfg.events)
	return &rep, nil
}

// connect starts the workers, waits until they hold their clients and
// notes how that went.
func (rep *report) connect(ctx context.Context, cfg wsConfig, urls []string) (*workerSet, error) {
	start := time.Now()
	ws, err := startWorkers(ctx, cfg, urls)
	if err != nil {
		return nil, err
	}
	for _, r := range ws.ready {
		rep.Connected += r.Connected
		rep.ConnectErrors += r.Errors
		if rep.FirstConnectError == "" {
			rep.FirstConnectError = r.FirstError
		}
	}
	rep.ConnectSeconds = time.Since(start).Seconds()
	return ws, nil
}

func (c wsConfig) describe(instances int) string {
	mode := "running server " + c.url
	if c.server == "anchor" {
		mode = fmt.Sprintf("%d anchor instance(s) (centrifuge v0.40.1), in-memory broker", instances)
		if c.redis != "" {
			mode = fmt.Sprintf("%d anchor instance(s) (centrifuge v0.40.1), Redis broker", instances)
		}
	} else if c.inprocess {
		mode = fmt.Sprintf("%d in-process hub instance(s), in-memory fan-out", instances)
		if c.redis != "" {
			mode = fmt.Sprintf("%d in-process hub instance(s), Redis fan-out", instances)
		}
	}
	return fmt.Sprintf("%d clients in %d worker process(es) from %d local addresses -> %s",
		c.clients, c.procs, c.localIPs, mode)
}

// postSlide publishes one slide change and returns the seq the answer
// reports, 0 if none.
func postSlide(ctx context.Context, target, token, body string) (int64, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	d := time.Since(start)
	if err != nil {
		return 0, d, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return 0, d, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	var st struct {
		Seq int64 `json:"seq"`
	}
	_ = json.Unmarshal(msg, &st)
	return st.Seq, d, nil
}

// readSeq reads {"seq":N} from GET target: a topic's seq (GET /api/deck),
// or the seq a page's state was read at (after a resync).
func readSeq(ctx context.Context, target, token string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var st struct {
		Seq *int64 `json:"seq"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&st); err != nil || st.Seq == nil || resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: no seq (%s)", target, resp.Status)
	}
	return *st.Seq, nil
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
