package metrics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// RecorderStore is what a Recorder writes to (internal/postgres).
type RecorderStore interface {
	AddAPI(ctx context.Context, instance string, at time.Time, rows []APIRow) error
	Beat(ctx context.Context, in Instance) error
	Leave(ctx context.Context, id string) error
}

// Recorder writes down what this instance's Prometheus registry counted, so
// the dashboard reads every instance's figures from PostgreSQL rather than
// one instance's view: every BeatEvery, the instance's row (its hub's
// connections and rates) and the minute's heartbeat; every minute, the API
// routes' requests, 5xx answers and latency counts since the last time.
type Recorder struct {
	Store    RecorderStore
	Gatherer prometheus.Gatherer
	Log      *slog.Logger
	// BeatEvery is how often the instance writes itself down (default 10 s).
	BeatEvery time.Duration

	id, host string
	started  time.Time

	mu        sync.Mutex // one flush at a time
	prevAPI   map[string]APIRow
	lastFlush time.Time
	prevHub   hubTotals
	prevHubAt time.Time

	stop context.CancelFunc
	done chan struct{}
}

// NewRecorder is a recorder for this instance, named after its host and a
// random suffix (instances on one host differ).
func NewRecorder(store RecorderStore, g prometheus.Gatherer, log *slog.Logger) *Recorder {
	host, _ := os.Hostname()
	if host == "" {
		host = "pitlane"
	}
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Recorder{Store: store, Gatherer: g, Log: log, id: host + "-" + hex.EncodeToString(b), host: host,
		started: time.Now(), prevAPI: map[string]APIRow{}}
}

// ID is the instance's name in what it writes.
func (r *Recorder) ID() string { return r.id }

// Start writes in the background until Stop.
func (r *Recorder) Start(ctx context.Context) {
	every := r.BeatEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	ctx, r.stop = context.WithCancel(context.WithoutCancel(ctx))
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		t := time.NewTicker(every)
		defer t.Stop()
		r.tick(ctx)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				r.tick(ctx)
			}
		}
	}()
}

// Stop writes the last figures, takes the instance off the list and ends
// the background work.
func (r *Recorder) Stop() {
	if r.stop == nil {
		return
	}
	r.stop()
	<-r.done
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = r.Flush(ctx)
	if err := r.Store.Leave(ctx, r.id); err != nil {
		r.Log.Debug("metrics: leaving the instances' list", slog.Any("err", err))
	}
}

func (r *Recorder) tick(ctx context.Context) {
	if err := r.Beat(ctx); err != nil && ctx.Err() == nil {
		r.Log.Debug("metrics: heartbeat not written", slog.Any("err", err))
	}
	r.mu.Lock()
	due := time.Since(r.lastFlush) >= time.Minute || time.Now().Truncate(time.Minute).After(r.lastFlush)
	r.mu.Unlock()
	if due {
		if err := r.Flush(ctx); err != nil && ctx.Err() == nil {
			r.Log.Debug("metrics: API timings not written", slog.Any("err", err))
		}
	}
}

// hubTotals are the hub's series this instance sums.
type hubTotals struct {
	connections   int
	subscriptions map[string]int
	eventsIn      float64
	framesOut     float64
	slowCloses    float64
}

// Beat writes the instance's row (its hub's figures now) and the minute's
// heartbeat.
func (r *Recorder) Beat(ctx context.Context) error {
	families, err := r.Gatherer.Gather()
	if err != nil {
		return err
	}
	now := time.Now()
	h := hubTotals{subscriptions: map[string]int{}}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			switch f.GetName() {
			case "pitlane_hub_connections":
				h.connections = int(m.GetGauge().GetValue())
			case "pitlane_hub_subscriptions":
				if n := int(m.GetGauge().GetValue()); n > 0 {
					h.subscriptions[label(m, "topic")] = n
				}
			case "pitlane_hub_events_in_total":
				h.eventsIn += m.GetCounter().GetValue()
			case "pitlane_hub_events_out_total":
				h.framesOut += m.GetCounter().GetValue()
			case "pitlane_hub_slow_consumer_closes_total":
				h.slowCloses += m.GetCounter().GetValue()
			}
		}
	}
	in := Instance{ID: r.id, Host: r.host, StartedAt: r.started, SeenAt: now, Connections: h.connections,
		Subscriptions: h.subscriptions, SlowCloses: int64(h.slowCloses)}
	r.mu.Lock()
	if !r.prevHubAt.IsZero() {
		if secs := now.Sub(r.prevHubAt).Seconds(); secs > 0 {
			in.EventsInPerSec = max(0, h.eventsIn-r.prevHub.eventsIn) / secs
			in.FramesOutPerSec = max(0, h.framesOut-r.prevHub.framesOut) / secs
		}
	}
	r.prevHub, r.prevHubAt = h, now
	r.mu.Unlock()
	return r.Store.Beat(ctx, in)
}

// Flush writes the API's counts since the last flush. A write that fails
// leaves them to the next one.
func (r *Recorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	families, err := r.Gatherer.Gather()
	if err != nil {
		return err
	}
	cur := apiTotals(families)
	var rows []APIRow
	for route, c := range cur {
		p := r.prevAPI[route]
		d := APIRow{Route: route, Requests: c.Requests - p.Requests, Errors: c.Errors - p.Errors,
			Buckets: make([]int64, len(c.Buckets))}
		for i := range c.Buckets {
			if i < len(p.Buckets) {
				d.Buckets[i] = c.Buckets[i] - p.Buckets[i]
			} else {
				d.Buckets[i] = c.Buckets[i]
			}
		}
		if d.Requests > 0 {
			rows = append(rows, d)
		}
	}
	now := time.Now()
	if len(rows) > 0 {
		if err := r.Store.AddAPI(ctx, r.id, now, rows); err != nil {
			return err
		}
	}
	r.prevAPI, r.lastFlush = cur, now
	return nil
}

// apiTotals are the API routes' counts since the process started, from
// pitlane_http_request_seconds (requests, latency) and
// pitlane_http_requests_total (5xx answers), by "METHOD route".
func apiTotals(families []*dto.MetricFamily) map[string]APIRow {
	out := map[string]APIRow{}
	for _, f := range families {
		switch f.GetName() {
		case "pitlane_http_request_seconds":
			for _, m := range f.GetMetric() {
				route := label(m, "method") + " " + label(m, "route")
				if !IsAPI(route) {
					continue
				}
				h := m.GetHistogram()
				row := out[route]
				row.Route = route
				row.Requests += int64(h.GetSampleCount())
				counts := make([]int64, len(APIBounds)+1)
				var below uint64
				for _, b := range h.GetBucket() {
					i := Bucket(APIBounds, b.GetUpperBound())
					if i < len(APIBounds) && APIBounds[i] == b.GetUpperBound() {
						counts[i] = int64(b.GetCumulativeCount() - below)
						below = b.GetCumulativeCount()
					}
				}
				counts[len(APIBounds)] = int64(h.GetSampleCount() - below)
				if row.Buckets == nil {
					row.Buckets = counts
				} else {
					for i := range counts {
						row.Buckets[i] += counts[i]
					}
				}
				out[route] = row
			}
		case "pitlane_http_requests_total":
			for _, m := range f.GetMetric() {
				route := label(m, "method") + " " + label(m, "route")
				if !IsAPI(route) || !strings.HasPrefix(label(m, "status"), "5") {
					continue
				}
				row := out[route]
				row.Route = route
				row.Errors += int64(m.GetCounter().GetValue())
				out[route] = row
			}
		}
	}
	return out
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
