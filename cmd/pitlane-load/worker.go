package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// workerReady is what a worker prints once its clients are connected, one JSON line
// (workerResult, in worker_result.go, is what it prints last).
type workerReady struct {
	Connected  int    `json:"connected"`
	Errors     int    `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
}

// finishCmd is what the parent sends once all events are out: for each
// event, its key (eventKey: topic and seq) and when it was published (Unix
// ns).
type finishCmd struct {
	Seqs []int64 `json:"seqs"`
	T0   []int64 `json:"t0"`
}

// arrival is one event as a client got it. sent is the publish time the
// event carried in its data (sent_ns), 0 if it carried none.
type arrival struct{ seq, at, sent int64 }

// workerOptions say what a worker's clients do.
type workerOptions struct {
	urls        []string // clients go round-robin; a reconnecting client tries the next one
	clients     int
	first       int // global index of the first client
	localIPs    []string
	events      int      // events that will be published (a bound on what a client keeps)
	topics      []string // every topic followed; an event's key holds its topic's index here
	pages       [][]int  // client g follows pages[g%len(pages)] (topic indexes); nil: every topic
	since       []int64  // per topic, the seq to follow from; nil: from now
	rest        []string // per topic, the REST path whose answer's "seq" a client reads after a resync
	reconnect   bool     // a dropped client comes back as the web app does (same back-off, since per topic)
	namePages   bool     // subscribe naming each topic's rest path as its page: a mass resync brings it
	concurrency int      // dials in flight
	token       string   // for an auth frame; empty = anonymous
	tokens      []string // per client, instead of token (in-process members)
	centrifuge  bool     // the anchor's protocol
}

type worker struct {
	opt         workerOptions
	dialers     []*net.Dialer
	clients     []*client
	maxArrivals int
	refetches   chan struct{} // bounds the REST reads in flight after resyncs
	refetchMu   sync.Mutex
	refetchUs   []int32

	seqGaps, outOfOrder, resyncs, paged, refetchErrors, errFrames, dropped, reconnects, gone, unexpected, frameBytes atomic.Int64
	finishing                                                                                                        atomic.Bool
	readers                                                                                                          sync.WaitGroup // and the reads after resyncs
	stop                                                                                                             chan struct{}  // closed at the finish
}

// client is one spectator: what it follows, where it stands on each topic
// and what it received. Its reader goroutine and its reads after a resync
// (which wait a moment first, as the web app's do) share it under mu.
type client struct {
	global    int
	topics    []int
	token     string
	target    int // the URL of its current connection
	mu        sync.Mutex
	lastSeen  []int64 // per topic: the highest seq received
	pos       []int64 // per topic: the highest seq received or read over REST
	known     []bool  // per topic: pos is known (a since, or an event seen)
	pending   []bool  // per topic: a read after a resync is under way
	covered   []span
	arrivals  []arrival
	connected bool // its first dial succeeded
	conn      atomic.Pointer[wsConn]
	// affected: it was dropped or told to resync; recovered: when it last
	// came back (its replay done) or read its page after a resync (unix ns).
	affected  bool
	recovered int64
}

// span is seqs (from, to] of a topic that a client read over REST after a
// resync instead of receiving them.
type span struct {
	Topic    int
	From, To int64
}

// runWorker is the "worker" child: it connects its share of clients,
// reports ready, records every event's arrival and, told the events' seqs
// and publish times, reports latencies and losses.
func runWorker(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	urls := fs.String("urls", "", "comma-separated websocket URLs; clients go round-robin")
	clients := fs.Int("clients", 1000, "clients in this worker")
	first := fs.Int("first", 0, "global index of this worker's first client")
	localIPs := fs.String("local-ips", "127.0.0.1", "comma-separated local addresses to dial from")
	events := fs.Int("events", 20, "events that will be published")
	topic := fs.String("topic", "deck", "topics to subscribe to, comma-separated (an event is known by its topic's place here and its seq: eventKey)")
	pages := fs.String("pages", "", "semicolon-separated topic lists: client g follows the (g mod n)-th; empty: every client follows every -topic")
	since := fs.String("since", "", "topic=seq,...: follow each topic from that seq (else from now)")
	rest := fs.String("rest", "", "topic=path,...: what a client reads (its {\"seq\"}) after a resync of the topic")
	reconnect := fs.Bool("reconnect", false, "a dropped client reconnects, to the next URL, with since per topic")
	namePages := fs.Bool("name-pages", false, "subscribe naming each topic's -rest path as the page it shows, as the web app does: a mass resync brings the page")
	concurrency := fs.Int("dial-concurrency", 64, "dials in flight")
	token := fs.String("token", "", "token for an auth frame; empty = anonymous")
	protocol := fs.String("protocol", "pitlane", `"pitlane" (the hub's frames) or "centrifuge" (the anchor's JSON protocol)`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	opt := workerOptions{urls: strings.Split(*urls, ","), clients: *clients, first: *first, localIPs: strings.Split(*localIPs, ","),
		events: *events, topics: strings.Split(*topic, ","), reconnect: *reconnect, namePages: *namePages, concurrency: *concurrency, token: *token,
		centrifuge: *protocol == "centrifuge"}
	var err error
	if opt.pages, err = parsePages(*pages, opt.topics); err != nil {
		return err
	}
	if *since != "" {
		opt.since = make([]int64, len(opt.topics))
		err = eachPair(*since, opt.topics, func(t int, v string) error {
			opt.since[t], err = strconv.ParseInt(v, 10, 64)
			return err
		})
		if err != nil {
			return err
		}
	}
	opt.rest = make([]string, len(opt.topics))
	if err := eachPair(*rest, opt.topics, func(t int, v string) error { opt.rest[t] = v; return nil }); err != nil {
		return err
	}

	w := newWorker(opt)
	if err := printJSON(w.connectAll(ctx)); err != nil {
		return err
	}
	var cmd finishCmd
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	if !sc.Scan() {
		return nil // the parent is gone
	}
	if err := json.Unmarshal(sc.Bytes(), &cmd); err != nil {
		return err
	}
	return printJSON(w.finish(cmd))
}

// parsePages reads "a,b;c" into topic indexes of topics.
func parsePages(s string, topics []string) ([][]int, error) {
	if s == "" {
		return nil, nil
	}
	var pages [][]int
	for p := range strings.SplitSeq(s, ";") {
		var page []int
		for name := range strings.SplitSeq(p, ",") {
			t := slices.Index(topics, name)
			if t < 0 {
				return nil, fmt.Errorf("page topic %q is not in -topic", name)
			}
			page = append(page, t)
		}
		pages = append(pages, page)
	}
	return pages, nil
}

// eachPair calls fn for each topic=value of s, with the topic's index.
func eachPair(s string, topics []string, fn func(int, string) error) error {
	if s == "" {
		return nil
	}
	for kv := range strings.SplitSeq(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		t := slices.Index(topics, k)
		if t < 0 {
			return fmt.Errorf("%q is not one of the topics %v", k, topics)
		}
		if err := fn(t, v); err != nil {
			return err
		}
	}
	return nil
}

func newWorker(opt workerOptions) *worker {
	w := &worker{opt: opt, maxArrivals: 2*opt.events + 16, refetches: make(chan struct{}, 256), stop: make(chan struct{})}
	for _, ip := range opt.localIPs {
		w.dialers = append(w.dialers, &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second})
	}
	all := make([]int, len(opt.topics))
	for i := range all {
		all[i] = i
	}
	for i := range opt.clients {
		g := opt.first + i
		cl := &client{global: g, topics: all, token: opt.token, target: g % len(opt.urls),
			lastSeen: make([]int64, len(opt.topics)), pos: make([]int64, len(opt.topics)), known: make([]bool, len(opt.topics)),
			pending: make([]bool, len(opt.topics))}
		if len(opt.pages) > 0 {
			cl.topics = opt.pages[g%len(opt.pages)]
		}
		if i < len(opt.tokens) {
			cl.token = opt.tokens[i]
		}
		if opt.since != nil {
			for t, s := range opt.since {
				cl.lastSeen[t], cl.pos[t], cl.known[t] = s, s, true
			}
		}
		w.clients = append(w.clients, cl)
	}
	return w
}

// connectAll connects every client (opt.concurrency at a time) and starts
// their readers.
func (w *worker) connectAll(ctx context.Context) workerReady {
	var connected, failed atomic.Int64
	var firstErr atomic.Value
	sem := make(chan struct{}, max(w.opt.concurrency, 1))
	var wg sync.WaitGroup
	for _, cl := range w.clients {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			cl.arrivals = make([]arrival, 0, min(w.opt.events, 64))
			c, err := w.dial(ctx, cl)
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				return
			}
			cl.conn.Store(c)
			cl.connected = true
			connected.Add(1)
			w.readers.Go(func() { w.read(ctx, cl) })
		})
	}
	wg.Wait()
	fe, _ := firstErr.Load().(string)
	return workerReady{Connected: int(connected.Load()), Errors: int(failed.Load()), FirstError: fe}
}

// dial connects cl to its current target and subscribes it from where it
// stands on each of its topics.
func (w *worker) dial(ctx context.Context, cl *client) (*wsConn, error) {
	url, d := w.opt.urls[cl.target], w.dialers[cl.global%len(w.dialers)]
	if w.opt.centrifuge {
		return connectCentrifuge(ctx, url, d)
	}
	topics := make([]string, len(cl.topics))
	since := map[string]int64{}
	var pages map[string]string
	cl.mu.Lock()
	for i, t := range cl.topics {
		topics[i] = w.opt.topics[t]
		if cl.known[t] {
			since[topics[i]] = cl.pos[t]
		}
		if w.opt.namePages && w.opt.rest != nil && w.opt.rest[t] != "" {
			if pages == nil {
				pages = map[string]string{}
			}
			pages[topics[i]] = w.opt.rest[t]
		}
	}
	cl.mu.Unlock()
	// The replay comes before the pong that ends the handshake.
	early := func(b []byte) { w.frame(ctx, cl, nil, b, time.Now().UnixNano()) }
	return connect(ctx, url, d, topics, since, pages, cl.token, early)
}

// finish stops the readers and matches what the clients got against the
// events published.
func (w *worker) finish(cmd finishCmd) workerResult {
	w.finishing.Store(true)
	close(w.stop)
	for _, cl := range w.clients {
		if c := cl.conn.Load(); c != nil {
			_ = c.close()
		}
	}
	w.readers.Wait()
	return w.result(cmd)
}

var (
	eventPrefix = []byte(`{"type":"event",`)
	topicField  = []byte(`"topic":"`)
)

// read records the arrival of every event on one client until the
// connection ends, or with -reconnect until the finish.
func (w *worker) read(ctx context.Context, cl *client) {
	c := cl.conn.Load()
	for {
		b, err := c.read()
		now := time.Now().UnixNano()
		if err != nil {
			if w.finishing.Load() {
				return
			}
			w.dropped.Add(1)
			cl.mu.Lock()
			cl.affected = true
			cl.mu.Unlock()
			if !w.opt.reconnect {
				return
			}
			if c = w.redial(ctx, cl); c == nil {
				return
			}
			cl.mu.Lock()
			cl.recovered = max(cl.recovered, time.Now().UnixNano()) // the replay came before the pong
			cl.mu.Unlock()
			continue
		}
		w.frame(ctx, cl, c, b, now)
	}
}

// frame handles one message of cl's connection c.
func (w *worker) frame(ctx context.Context, cl *client, c *wsConn, b []byte, now int64) {
	if w.opt.centrifuge {
		if err := w.centrifugeFrame(c, cl, b, now); err != nil {
			_ = c.close() // the reader sees it next
		}
		return
	}
	typ, topic, seq, sent, ok := parseFrame(b)
	switch {
	case !ok:
		w.unexpected.Add(1)
		return
	case typ == "error":
		w.errFrames.Add(1)
		return
	case typ != "event" && typ != "resync":
		return
	}
	t := slices.Index(w.opt.topics, topic)
	if t < 0 {
		w.unexpected.Add(1)
		return
	}
	if typ == "resync" {
		w.resyncs.Add(1)
		if seq, ok := resyncPageSeq(b); ok {
			w.paged.Add(1)
			w.caughtUp(cl, t, seq, nil)
			return
		}
		hint, _ := intAfter(b, `"retry_after_ms":`)
		w.resync(ctx, cl, t, hint)
		return
	}
	if w.frameBytes.Load() == 0 {
		w.frameBytes.Store(int64(len(b)))
	}
	w.record(cl, t, seq, now, sent)
}

// redial brings a dropped client back as the web app does: after its
// back-off (the first anywhere in 0-2 s, then 2 s doubling to 30 s, half of
// it jitter), to the next instance, subscribed from where it stood on each
// topic so that the hub replays what it missed (or says resync). Nil once
// the run finishes.
func (w *worker) redial(ctx context.Context, cl *client) *wsConn {
	for attempt := 0; ; attempt++ {
		t := time.NewTimer(backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			w.gone.Add(1)
			return nil
		case <-t.C:
		}
		if w.finishing.Load() {
			w.gone.Add(1)
			return nil
		}
		cl.target = (cl.target + 1) % len(w.opt.urls)
		c, err := w.dial(ctx, cl)
		if err != nil {
			continue
		}
		cl.conn.Store(c)
		if w.finishing.Load() { // finish may have closed the old one only
			_ = c.close()
			w.gone.Add(1)
			return nil
		}
		w.reconnects.Add(1)
		return c
	}
}

// spreadMs is the web app's SPREAD_MS: the window a first reconnect or a
// resync's read waits a random moment in.
const spreadMs = 2000

// backoff is the web app's backoffDelay: the first anywhere in 0-2 s, then
// exponential from 2 s, capped at 30 s, half of it jitter.
func backoff(attempt int) time.Duration {
	if attempt <= 0 {
		return rand.N(spreadMs * time.Millisecond)
	}
	base := min(30*time.Second, spreadMs*time.Millisecond<<min(attempt, 5))
	return base/2 + rand.N(base/2)
}

// resync is the web app's answer to a resync frame: the topic's seq is
// forgotten, and after a random moment in 0-2 s (or in the server's
// retry_after_ms window) the page reads its state over REST, once for
// resyncs that come meanwhile. Events go on arriving in between.
func (w *worker) resync(ctx context.Context, cl *client, t int, hintMs int64) {
	path := w.opt.rest[t]
	cl.mu.Lock()
	cl.affected = true
	if path == "" || cl.pending[t] {
		cl.mu.Unlock()
		return
	}
	cl.pending[t] = true
	from := cl.pos[t]
	cl.known[t] = false
	cl.mu.Unlock()
	window := time.Duration(max(spreadMs, min(hintMs, 30_000))) * time.Millisecond
	wait := rand.N(window)
	w.readers.Go(func() { w.refetch(ctx, cl, t, path, from, wait) })
}

// refetch reads the topic's state over REST after wait (from the instance
// the client is on, else another) and follows on from the seq it was read
// at. What the client missed from its position at the resync (from) up to
// there it now holds: covered, not lost.
func (w *worker) refetch(ctx context.Context, cl *client, t int, path string, from int64, wait time.Duration) {
	defer func() {
		cl.mu.Lock()
		cl.pending[t] = false
		cl.mu.Unlock()
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-w.stop:
		return
	case <-ctx.Done():
		return
	}
	start := time.Now()
	w.refetches <- struct{}{}
	defer func() { <-w.refetches }()
	for attempt := range 2 * len(w.opt.urls) {
		base := httpBase(w.opt.urls[(cl.target+attempt)%len(w.opt.urls)])
		seq, err := readSeq(ctx, base+path, cl.token)
		if err == nil {
			w.refetchMu.Lock()
			w.refetchUs = append(w.refetchUs, int32(time.Since(start).Microseconds()))
			w.refetchMu.Unlock()
			w.caughtUp(cl, t, seq, &from)
			return
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-w.stop:
			return
		}
	}
	w.refetchErrors.Add(1)
}

// caughtUp records that cl's page of topic t holds the state at seq: what
// it missed from from (its position at the resync; nil: where it stands
// now) up to there it now holds, covered, not lost.
func (w *worker) caughtUp(cl *client, t int, seq int64, from *int64) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	f := cl.pos[t]
	if from != nil {
		f = *from
	}
	if seq > f {
		cl.covered = append(cl.covered, span{Topic: t, From: f, To: seq})
	}
	cl.pos[t] = max(cl.pos[t], seq)
	cl.known[t] = true
	cl.affected = true
	cl.recovered = max(cl.recovered, time.Now().UnixNano())
}

// httpBase is the http(s) origin of a websocket URL.
func httpBase(wsURL string) string {
	s := strings.Replace(wsURL, "ws", "http", 1)
	if i := strings.Index(s, "/api/ws"); i >= 0 {
		s = s[:i]
	}
	return s
}
