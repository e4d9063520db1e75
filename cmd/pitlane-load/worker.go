package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// workerReady and workerResult are what a worker prints, one JSON line each.
type workerReady struct {
	Connected  int    `json:"connected"`
	Errors     int    `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
}

type workerResult struct {
	// Latency[i] holds, in microseconds, when each client got event i
	// after it was published.
	Latency    [][]int32 `json:"latency"`
	Lost       int64     `json:"lost"`
	Duplicates int64     `json:"duplicates"`
	SeqGaps    int64     `json:"seq_gaps"`
	Resyncs    int64     `json:"resyncs"`
	ErrFrames  int64     `json:"error_frames"`
	Dropped    int64     `json:"dropped"` // connections that ended before the finish
	Unexpected int64     `json:"unexpected"`
	FrameBytes int64     `json:"frame_bytes"` // one event's message
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

type worker struct {
	centrifuge  bool     // the anchor's protocol
	topics      []string // what the clients follow; an event's key holds its topic's index here
	maxArrivals int
	arrivals    [][]arrival // per client, appended only by its reader

	seqGaps, resyncs, errFrames, dropped, unexpected, frameBytes atomic.Int64
	finishing                                                    atomic.Bool
	readers                                                      sync.WaitGroup
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
	concurrency := fs.Int("dial-concurrency", 64, "dials in flight")
	token := fs.String("token", "", "token for an auth frame; empty = anonymous")
	protocol := fs.String("protocol", "pitlane", `"pitlane" (the hub's frames) or "centrifuge" (the anchor's JSON protocol)`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	targets := strings.Split(*urls, ",")
	ips := strings.Split(*localIPs, ",")
	dialers := make([]*net.Dialer, len(ips))
	for i, ip := range ips {
		dialers[i] = &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	}

	w := &worker{maxArrivals: 2*(*events) + 16, arrivals: make([][]arrival, *clients), centrifuge: *protocol == "centrifuge",
		topics: strings.Split(*topic, ",")}
	dial := func(ctx context.Context, url string, d *net.Dialer) (*wsConn, error) {
		if w.centrifuge {
			return connectCentrifuge(ctx, url, d)
		}
		return connect(ctx, url, d, w.topics, *token)
	}
	conns := make([]*wsConn, *clients)
	var connected, failed atomic.Int64
	var firstErr atomic.Value
	sem := make(chan struct{}, *concurrency)
	var wg sync.WaitGroup
	for i := range *clients {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			g := *first + i
			c, err := dial(ctx, targets[g%len(targets)], dialers[g%len(dialers)])
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				return
			}
			conns[i] = c
			w.arrivals[i] = make([]arrival, 0, *events)
			connected.Add(1)
			w.readers.Go(func() { w.read(c, i) })
		})
	}
	wg.Wait()
	fe, _ := firstErr.Load().(string)
	if err := printJSON(workerReady{Connected: int(connected.Load()), Errors: int(failed.Load()), FirstError: fe}); err != nil {
		return err
	}

	var cmd finishCmd
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	if !sc.Scan() {
		return nil // the parent is gone
	}
	if err := json.Unmarshal(sc.Bytes(), &cmd); err != nil {
		return err
	}
	// Stop the readers before looking at what they recorded.
	w.finishing.Store(true)
	for _, c := range conns {
		if c != nil {
			_ = c.close()
		}
	}
	w.readers.Wait()
	return printJSON(w.result(cmd, conns))
}

// connect dials, subscribes and waits for the pong that proves the
// subscription is live.
func connect(ctx context.Context, url string, d *net.Dialer, topics []string, token string) (*wsConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := dialWS(ctx, url, d)
	if err != nil {
		return nil, err
	}
	list, _ := json.Marshal(topics)
	frames := []string{`{"type":"subscribe","topics":` + string(list) + `}`, `{"type":"ping"}`}
	if token != "" {
		tok, _ := json.Marshal(token)
		frames = append([]string{`{"type":"auth","token":` + string(tok) + `}`}, frames...)
	}
	return handshake(ctx, c, frames, func(b []byte) (bool, error) {
		var f struct{ Type, Message string }
		_ = json.Unmarshal(b, &f)
		switch f.Type {
		case "pong":
			return true, nil
		case "error":
			return false, fmt.Errorf("server: %s", f.Message)
		}
		return false, nil
	})
}

// handshake sends frames and reads until done says the client is
// subscribed (or fails); on failure the connection is closed.
func handshake(ctx context.Context, c *wsConn, frames []string, done func([]byte) (bool, error)) (*wsConn, error) {
	for _, f := range frames {
		if err := c.writeText(f); err != nil {
			_ = c.close()
			return nil, err
		}
	}
	dl, _ := ctx.Deadline()
	_ = c.conn.SetReadDeadline(dl)
	defer func() { _ = c.conn.SetReadDeadline(time.Time{}) }()
	for {
		b, err := c.read()
		if err == nil {
			var ok bool
			ok, err = done(b)
			if ok {
				return c, nil
			}
		}
		if err != nil {
			_ = c.close()
			return nil, err
		}
	}
}

var (
	eventPrefix = []byte(`{"type":"event",`)
	topicField  = []byte(`"topic":"`)
)

// eventKey names an event among several topics: its topic's index in the
// clients' list and its seq on that topic.
func eventKey(topic int, seq int64) int64 { return int64(topic)<<40 | seq }

// parseFrame reads type, topic, seq and data.sent_ns of a frame: by hand
// for the hub's own event frames (type comes first, then topic), by
// encoding/json otherwise.
func parseFrame(b []byte) (typ, topic string, seq, sent int64, ok bool) {
	if bytes.HasPrefix(b, eventPrefix) {
		rest := b[len(eventPrefix):]
		if t, ok := bytes.CutPrefix(rest, topicField); ok {
			if end := bytes.IndexByte(t, '"'); end >= 0 {
				topic = string(t[:end])
			}
		}
		if seq, ok := intAfter(b, `"seq":`); ok && topic != "" {
			sent, _ := intAfter(b, `"sent_ns":`)
			return "event", topic, seq, sent, true
		}
	}
	var f struct {
		Type  string `json:"type"`
		Topic string `json:"topic"`
		Seq   int64  `json:"seq"`
		Data  struct {
			SentNs int64 `json:"sent_ns"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &f) != nil {
		return "", "", 0, 0, false
	}
	return f.Type, f.Topic, f.Seq, f.Data.SentNs, true
}

// read records the arrival of every event on one client until the
// connection ends.
func (w *worker) read(c *wsConn, idx int) {
	last := make([]int64, len(w.topics)) // per topic
	for {
		b, err := c.read()
		now := time.Now().UnixNano()
		if err != nil {
			if !w.finishing.Load() {
				w.dropped.Add(1)
			}
			return
		}
		if w.centrifuge {
			if err := w.centrifugeFrame(c, idx, b, now, &last[0]); err != nil {
				if !w.finishing.Load() {
					w.dropped.Add(1)
				}
				return
			}
			continue
		}
		typ, topic, seq, sent, ok := parseFrame(b)
		switch {
		case !ok:
			w.unexpected.Add(1)
			continue
		case typ == "resync":
			w.resyncs.Add(1)
			continue
		case typ == "error":
			w.errFrames.Add(1)
			continue
		case typ != "event":
			continue
		}
		t := slices.Index(w.topics, topic)
		if t < 0 {
			w.unexpected.Add(1)
			continue
		}
		if w.frameBytes.Load() == 0 {
			w.frameBytes.Store(int64(len(b)))
		}
		w.record(idx, t, seq, now, sent, &last[t])
	}
}

// record notes one event's arrival on client idx, the seq-th of the
// topic-th topic.
func (w *worker) record(idx, topic int, seq, now, sent int64, last *int64) {
	if *last != 0 && seq != *last+1 {
		w.seqGaps.Add(1)
	}
	*last = seq
	if len(w.arrivals[idx]) >= w.maxArrivals {
		w.unexpected.Add(1)
		return
	}
	w.arrivals[idx] = append(w.arrivals[idx], arrival{seq: eventKey(topic, seq), at: now, sent: sent})
}

// connectCentrifuge dials the anchor, sends the connect command and the
// subscription to "deck" and waits for the subscribe reply.
func connectCentrifuge(ctx context.Context, url string, d *net.Dialer) (*wsConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := dialWS(ctx, url, d)
	if err != nil {
		return nil, err
	}
	return handshake(ctx, c, []string{centrifugeConnect}, func(b []byte) (bool, error) {
		for msg := range bytes.SplitSeq(b, []byte("\n")) {
			switch kind, id, _, _ := parseCentrifuge(msg); {
			case kind == "error":
				return false, fmt.Errorf("anchor: %s", msg)
			case kind == "reply" && id == 2:
				return true, nil
			}
		}
		return false, nil
	})
}

// centrifugeFrame handles one frame of the anchor: several messages may
// share it, one per line.
func (w *worker) centrifugeFrame(c *wsConn, idx int, b []byte, now int64, last *int64) error {
	for msg := range bytes.SplitSeq(b, []byte("\n")) {
		switch kind, _, offset, sent := parseCentrifuge(msg); kind {
		case "ping":
			if err := c.writeText("{}"); err != nil {
				return err
			}
		case "pub":
			if w.frameBytes.Load() == 0 {
				w.frameBytes.Store(int64(len(msg)))
			}
			w.record(idx, 0, offset, now, sent, last)
		case "error":
			w.errFrames.Add(1)
		case "reply", "push":
		default:
			w.unexpected.Add(1)
		}
	}
	return nil
}

// result matches arrivals to published events by seq. Latency counts from
// the publish time the event carried, else from the one the parent noted:
// the same clock either way.
func (w *worker) result(cmd finishCmd, conns []*wsConn) workerResult {
	res := workerResult{
		Latency:    make([][]int32, len(cmd.Seqs)),
		SeqGaps:    w.seqGaps.Load(),
		Resyncs:    w.resyncs.Load(),
		ErrFrames:  w.errFrames.Load(),
		Dropped:    w.dropped.Load(),
		Unexpected: w.unexpected.Load(),
		FrameBytes: w.frameBytes.Load(),
	}
	index := make(map[int64]int, len(cmd.Seqs))
	for i, s := range cmd.Seqs {
		index[s] = i
	}
	got := make([]bool, len(cmd.Seqs))
	for c, conn := range conns {
		if conn == nil {
			continue
		}
		clear(got)
		for _, a := range w.arrivals[c] {
			i, ok := index[a.seq]
			switch {
			case !ok:
				res.Unexpected++
				continue
			case got[i]:
				res.Duplicates++
				continue
			}
			got[i] = true
			from := cmd.T0[i]
			if a.sent != 0 {
				from = a.sent
			}
			res.Latency[i] = append(res.Latency[i], int32(max(a.at-from, 0)/1000))
		}
		for _, g := range got {
			if !g {
				res.Lost++
			}
		}
	}
	return res
}

func printJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", b)
	return err
}
