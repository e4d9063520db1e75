package main

// The cheer scenario: spectators on the auction (topic teams) over hub
// instances sharing Redis, first a phase with bids alone, then the same
// bids while every spectator cheers once a second. It reports, per phase,
// the bids' delivery latency, and for the cheers the most cheer frames one
// spectator got in a second, the frames' delay after their window closed
// (and the taps they carried, against the taps sent), and each instance's
// CPU.
//
//	pitlane-load cheers -redis redis://127.0.0.1:6379/0 -instances 2 -clients 2000 -seconds 10

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pitlane/pitlane/internal/cheers"
)

type cheerConfig struct {
	redis, prefix string
	instances     int
	clients       int
	seconds       int
	bidsPerSecond int
	localIPs      int
}

func runCheers(ctx context.Context, args []string) error {
	var c cheerConfig
	fs := flag.NewFlagSet("cheers", flag.ContinueOnError)
	fs.StringVar(&c.redis, "redis", "", "Redis URL the instances share (loopback); empty: one instance, no Redis")
	fs.StringVar(&c.prefix, "prefix", "pitlane-load-cheers:", "Redis key prefix")
	fs.IntVar(&c.instances, "instances", 2, "hub instances")
	fs.IntVar(&c.clients, "clients", 2000, "spectators, spread over the instances")
	fs.IntVar(&c.seconds, "seconds", 10, "length of each phase (bids alone, then bids and cheers)")
	fs.IntVar(&c.bidsPerSecond, "bids", 2, "bids a second, in both phases")
	fs.IntVar(&c.localIPs, "local-ips", 8, "dial from 127.0.0.2 .. 127.0.0.(N+1)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.redis == "" {
		c.instances = 1
	}
	if c.clients < 1 || c.seconds < 2 || c.seconds > 120 || c.bidsPerSecond < 1 {
		return errors.New("cheers: -clients ≥ 1, -seconds 2..120, -bids ≥ 1")
	}
	c.prefix += fmt.Sprintf("%d:", time.Now().UnixNano())
	defer deleteKeys(c.redis, c.prefix+"*")

	var hubs []*child
	defer func() {
		for _, h := range hubs {
			h.stop()
		}
	}()
	for range c.instances {
		ch, err := startChild(ctx, nil, "hub", "-addr", "127.0.0.1:0", "-redis", c.redis, "-prefix", c.prefix, "-cheers")
		if err != nil {
			return err
		}
		hubs = append(hubs, ch)
		l, err := ch.line()
		if err != nil {
			return err
		}
		addr, ok := strings.CutPrefix(string(l), "listening ")
		if !ok {
			return fmt.Errorf("hub said %q", l)
		}
		ch.addr = addr
	}

	spectators, err := connectSpectators(ctx, c, hubs)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range spectators {
			_ = s.conn.close()
		}
	}()
	fmt.Printf("cheers: %d spectators on %d instance(s), %d bids/s, %d s per phase\n", len(spectators), len(hubs), c.bidsPerSecond, c.seconds)

	base, err := cheerPhase(ctx, c, hubs, spectators, false)
	if err != nil {
		return err
	}
	loud, err := cheerPhase(ctx, c, hubs, spectators, true)
	if err != nil {
		return err
	}
	base.print("bids alone")
	loud.print("bids + cheers")
	if base.bidP99 > 0 {
		fmt.Printf("  bid p99 with cheers / without: %.2f\n", float64(loud.bidP99)/float64(base.bidP99))
	}
	return nil
}

// spectator is one client: its counters are read between phases.
type spectator struct {
	conn *wsConn
	mu   sync.Mutex
	// per phase
	bids      []time.Duration // delivery latency of each bid
	cheerLag  []time.Duration // each cheers frame's arrival after its window closed
	perSecond map[int64]int   // cheers frames per second of arrival
	perSent   map[int64]int   // cheers frames per second their windows closed in (the server's pace)
	frames    int
	taps      int64 // taps carried by the frames received
}

func connectSpectators(ctx context.Context, c cheerConfig, hubs []*child) ([]*spectator, error) {
	out := make([]*spectator, c.clients)
	errs := make(chan error, c.clients)
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i%c.localIPs))}}
			dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			conn, err := dialWS(dctx, "ws://"+hubs[i%len(hubs)].addr+"/api/ws", d)
			if err != nil {
				errs <- err
				return
			}
			_ = conn.conn.SetDeadline(time.Time{})
			if err := conn.writeText(`{"type":"subscribe","topics":["teams"]}`); err != nil {
				errs <- err
				return
			}
			s := &spectator{conn: conn, perSecond: map[int64]int{}, perSent: map[int64]int{}}
			out[i] = s
			go s.readLoop()
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("connecting spectators: %w", err)
	}
	time.Sleep(time.Second) // every subscription in place
	return out, nil
}

var (
	cheersMark = []byte(`"type":"cheers"`)
	bidMark    = []byte(`"event":"auction.bid"`)
)

func (s *spectator) readLoop() {
	for {
		b, err := s.conn.read()
		if err != nil {
			return
		}
		now := time.Now()
		switch {
		case bytes.Contains(b, bidMark):
			if sent, ok := intAfter(b, `"sent_ns":`); ok {
				s.mu.Lock()
				s.bids = append(s.bids, now.Sub(time.Unix(0, sent)))
				s.mu.Unlock()
			}
		case bytes.Contains(b, cheersMark):
			w, _ := intAfter(b, `"window":`)
			closed := time.UnixMilli((w + 1) * cheers.Window.Milliseconds())
			var n int64
			for _, k := range cheers.Kinds {
				if v, ok := intAfter(b, `"`+k+`":`); ok {
					n += v
				}
			}
			s.mu.Lock()
			s.cheerLag = append(s.cheerLag, now.Sub(closed))
			s.perSecond[now.Unix()]++
			s.perSent[closed.Unix()]++
			s.frames++
			s.taps += n
			s.mu.Unlock()
		}
	}
}

type phaseResult struct {
	bidP50, bidP99           time.Duration
	bidsGot, bidsWant        int
	maxFramesPerSecond       int // by arrival: a backlog arrives bunched
	maxSentPerSecond         int // by the windows' own seconds: the server's pace
	meanFramesPerSecond      float64
	cheerP50, cheerP99       time.Duration
	tapsSent, tapsSeenMedian int64
	cpu                      []float64 // per instance, % of one core
}

func (r phaseResult) print(name string) {
	fmt.Printf("%s:\n  bids delivered %d/%d, latency p50 %v p99 %v\n", name, r.bidsGot, r.bidsWant, r.bidP50.Round(100*time.Microsecond), r.bidP99.Round(100*time.Microsecond))
	if r.tapsSent > 0 {
		fmt.Printf("  cheer taps sent %d, counted by the median spectator %d\n", r.tapsSent, r.tapsSeenMedian)
		fmt.Printf("  cheer frames per spectator: %.1f/s on average; at most %d for one second of windows, %d arriving in one second\n",
			r.meanFramesPerSecond, r.maxSentPerSecond, r.maxFramesPerSecond)
		fmt.Printf("  cheer frame delay after its window closed: p50 %v p99 %v (a tap waits up to %v more for its window to close)\n",
			r.cheerP50.Round(100*time.Microsecond), r.cheerP99.Round(100*time.Microsecond), cheers.Window)
	}
	for i, c := range r.cpu {
		fmt.Printf("  instance %d CPU %.0f%% of a core\n", i+1, c)
	}
}

func cheerPhase(ctx context.Context, c cheerConfig, hubs []*child, specs []*spectator, cheering bool) (phaseResult, error) {
	for _, s := range specs {
		s.mu.Lock()
		s.bids, s.cheerLag, s.perSecond, s.perSent, s.taps, s.frames = nil, nil, map[int64]int{}, map[int64]int{}, 0, 0
		s.mu.Unlock()
	}
	pctx, cancel := context.WithTimeout(ctx, time.Duration(c.seconds)*time.Second)
	defer cancel()
	ticks := make([]int64, len(hubs))
	for i, h := range hubs {
		ticks[i], _ = cpuTicks(h.cmd.Process.Pid)
	}
	start := time.Now()
	var sent atomic.Int64
	var wg sync.WaitGroup
	if cheering {
		for _, s := range specs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Once a second, at a moment of its own.
				t := time.NewTimer(time.Duration(rand.Int64N(int64(time.Second))))
				defer t.Stop()
				for {
					select {
					case <-pctx.Done():
						return
					case <-t.C:
					}
					kind := cheers.Kinds[rand.IntN(len(cheers.Kinds))]
					if s.conn.writeText(`{"type":"cheer","topic":"teams","kind":"`+kind+`"}`) == nil {
						sent.Add(1)
					}
					t.Reset(time.Second)
				}
			}()
		}
	}
	bids := 0
	tick := time.NewTicker(time.Second / time.Duration(c.bidsPerSecond))
	client := &http.Client{Timeout: 5 * time.Second}
loop:
	for {
		select {
		case <-pctx.Done():
			break loop
		case <-tick.C:
			bids++
			body := fmt.Sprintf(`{"bid":%d,"sent_ns":%d}`, bids, time.Now().UnixNano())
			resp, err := client.Post("http://"+hubs[bids%len(hubs)].addr+"/api/teams", "application/json", strings.NewReader(body))
			if err != nil {
				return phaseResult{}, err
			}
			resp.Body.Close()
		}
	}
	tick.Stop()
	wg.Wait()
	elapsed := time.Since(start)
	time.Sleep(time.Second) // the last windows and bids arrive
	r := phaseResult{bidsWant: bids * len(specs), tapsSent: sent.Load()}
	for i, h := range hubs {
		t, _ := cpuTicks(h.cmd.Process.Pid)
		r.cpu = append(r.cpu, float64(t-ticks[i])/100/elapsed.Seconds()*100) // USER_HZ 100
	}
	var bidLat, cheerLat []time.Duration
	var taps []int64
	for _, s := range specs {
		s.mu.Lock()
		bidLat = append(bidLat, s.bids...)
		cheerLat = append(cheerLat, s.cheerLag...)
		taps = append(taps, s.taps)
		for _, n := range s.perSecond {
			r.maxFramesPerSecond = max(r.maxFramesPerSecond, n)
		}
		for _, n := range s.perSent {
			r.maxSentPerSecond = max(r.maxSentPerSecond, n)
		}
		r.meanFramesPerSecond += float64(s.frames) / elapsed.Seconds() / float64(len(specs))
		s.mu.Unlock()
	}
	r.bidsGot = len(bidLat)
	r.bidP50, r.bidP99 = quantile(bidLat, 0.5), quantile(bidLat, 0.99)
	r.cheerP50, r.cheerP99 = quantile(cheerLat, 0.5), quantile(cheerLat, 0.99)
	slices.Sort(taps)
	if len(taps) > 0 {
		r.tapsSeenMedian = taps[len(taps)/2]
	}
	return r, nil
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(q*float64(len(d))))]
}
