package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// workerReady and workerResult are what a worker prints, one JSON line each.
type workerReady struct {
	Connected  int    `json:"connected"`
	Errors     int    `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
}

type workerResult struct {
	// Latency[i] holds, in microseconds, when each client got event i
	// relative to its publish.
	Latency    [][]int32 `json:"latency"`
	Lost       int64     `json:"lost"`
	Duplicates int64     `json:"duplicates"`
	SeqGaps    int64     `json:"seq_gaps"`
	Resyncs    int64     `json:"resyncs"`
	ErrFrames  int64     `json:"error_frames"`
	Dropped    int64     `json:"dropped"` // connections that ended before the finish
	Unexpected int64     `json:"unexpected"`
}

// finishCmd is what the parent sends once all events are out.
type finishCmd struct {
	T0 []int64 `json:"t0"` // publish time of each event, Unix ns
}

type worker struct {
	events    int
	slideBase int64
	recv      [][]int64 // [event][client]: Unix ns of receipt, 0 = not yet

	duplicates, seqGaps, resyncs, errFrames, dropped, unexpected atomic.Int64
	finishing                                                    atomic.Bool
}

// runWorker is the "worker" child: it connects its share of clients,
// reports ready, records every event's arrival and, told the publish
// times, reports latencies and losses.
func runWorker(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	urls := fs.String("urls", "", "comma-separated websocket URLs; clients go round-robin")
	clients := fs.Int("clients", 1000, "clients in this worker")
	first := fs.Int("first", 0, "global index of this worker's first client")
	localIPs := fs.String("local-ips", "127.0.0.1", "comma-separated local addresses to dial from")
	events := fs.Int("events", 20, "events that will be published")
	slideBase := fs.Int64("slide-base", 1, "slide number of the first event")
	topic := fs.String("topic", "deck", "topic to subscribe to")
	concurrency := fs.Int("dial-concurrency", 64, "dials in flight")
	token := fs.String("token", "", "token for an auth frame; empty = anonymous")
	if err := fs.Parse(args); err != nil {
		return err
	}
	targets := strings.Split(*urls, ",")
	ips := strings.Split(*localIPs, ",")
	transports := make([]*http.Client, len(ips))
	for i, ip := range ips {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
		transports[i] = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}

	w := &worker{events: *events, slideBase: *slideBase, recv: make([][]int64, *events)}
	for i := range w.recv {
		w.recv[i] = make([]int64, *clients)
	}
	conns := make([]*websocket.Conn, *clients)
	var connected, failed atomic.Int64
	var firstErr atomic.Value
	sem := make(chan struct{}, *concurrency)
	var wg sync.WaitGroup
	for i := range *clients {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			g := *first + i
			c, err := connect(ctx, targets[g%len(targets)], transports[g%len(transports)], *topic, *token)
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
				return
			}
			conns[i] = c
			connected.Add(1)
			go w.read(c, i)
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
	w.finishing.Store(true)
	res := w.result(cmd.T0, conns)
	for _, c := range conns {
		if c != nil {
			_ = c.CloseNow()
		}
	}
	return printJSON(res)
}

// connect dials, subscribes and waits for the pong that proves the
// subscription is live.
func connect(ctx context.Context, url string, hc *http.Client, topic, token string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	frames := []string{`{"type":"subscribe","topics":["` + topic + `"]}`, `{"type":"ping"}`}
	if token != "" {
		tok, _ := json.Marshal(token)
		frames = append([]string{`{"type":"auth","token":` + string(tok) + `}`}, frames...)
	}
	for _, f := range frames {
		if err := c.Write(ctx, websocket.MessageText, []byte(f)); err != nil {
			_ = c.CloseNow()
			return nil, err
		}
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			_ = c.CloseNow()
			return nil, err
		}
		var f struct{ Type, Message string }
		_ = json.Unmarshal(b, &f)
		switch f.Type {
		case "pong":
			return c, nil
		case "error":
			_ = c.CloseNow()
			return nil, fmt.Errorf("server: %s", f.Message)
		}
	}
}

type eventFrame struct {
	Type string `json:"type"`
	Seq  int64  `json:"seq"`
	Data struct {
		Slide int64 `json:"slide"`
	} `json:"data"`
}

// read records the arrival of every event on one client.
func (w *worker) read(c *websocket.Conn, idx int) {
	var last int64
	for {
		_, b, err := c.Read(context.Background())
		now := time.Now().UnixNano()
		if err != nil {
			if !w.finishing.Load() {
				w.dropped.Add(1)
			}
			return
		}
		var f eventFrame
		if json.Unmarshal(b, &f) != nil {
			w.unexpected.Add(1)
			continue
		}
		switch f.Type {
		case "event":
		case "resync":
			w.resyncs.Add(1)
			continue
		case "error":
			w.errFrames.Add(1)
			continue
		default:
			continue
		}
		if last != 0 && f.Seq != last+1 {
			w.seqGaps.Add(1)
		}
		last = f.Seq
		i := f.Data.Slide - w.slideBase
		if i < 0 || i >= int64(w.events) {
			w.unexpected.Add(1)
			continue
		}
		if atomic.LoadInt64(&w.recv[i][idx]) != 0 {
			w.duplicates.Add(1)
			continue
		}
		atomic.StoreInt64(&w.recv[i][idx], now)
	}
}

func (w *worker) result(t0 []int64, conns []*websocket.Conn) workerResult {
	res := workerResult{
		Latency:    make([][]int32, len(t0)),
		Duplicates: w.duplicates.Load(),
		SeqGaps:    w.seqGaps.Load(),
		Resyncs:    w.resyncs.Load(),
		ErrFrames:  w.errFrames.Load(),
		Dropped:    w.dropped.Load(),
		Unexpected: w.unexpected.Load(),
	}
	for i := range min(len(t0), w.events) {
		for c, conn := range conns {
			if conn == nil {
				continue
			}
			got := atomic.LoadInt64(&w.recv[i][c])
			if got == 0 {
				res.Lost++
				continue
			}
			res.Latency[i] = append(res.Latency[i], int32(max(got-t0[i], 0)/1000))
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
