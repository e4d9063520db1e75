package main

import (
	"fmt"
	"io"
	"slices"
)

// Goals of the hub (docs/hub.md).
const (
	goalP99Ms     = 150
	goalKBPerConn = 24
)

type report struct {
	Config            string  `json:"config"`
	Clients           int     `json:"clients"`
	Connected         int     `json:"connected"`
	ConnectErrors     int     `json:"connect_errors"`
	FirstConnectError string  `json:"first_connect_error,omitempty"`
	ConnectSeconds    float64 `json:"connect_seconds"`

	ServerRSSBaseMB float64           `json:"server_rss_base_mb"`
	ServerRSSIdleMB float64           `json:"server_rss_idle_mb"`
	RSSPerConnKB    float64           `json:"rss_per_conn_kb"`
	GoMem           map[string]uint64 `json:"go_mem,omitempty"`
	ServerCPUIdle   float64           `json:"server_cpu_idle_pct"`

	Events        int     `json:"events"`
	PublishErrors int     `json:"publish_errors"`
	PublishMaxMs  float64 `json:"publish_max_ms"`
	Delivered     int     `json:"delivered"`
	P50Ms         float64 `json:"p50_ms"`
	P99Ms         float64 `json:"p99_ms"`
	MaxMs         float64 `json:"max_ms"`
	// LastClientMs is, per event, when the last client had it.
	LastClientMs       []float64 `json:"last_client_ms"`
	Lost               int64     `json:"lost"`
	Duplicates         int64     `json:"duplicates"`
	SeqGaps            int64     `json:"seq_gaps"`
	OutOfOrder         int64     `json:"out_of_order"`
	Resyncs            int64     `json:"resyncs"`
	Paged              int64     `json:"paged"`    // resyncs that brought their page (no REST read)
	Resynced           int64     `json:"resynced"` // events read over REST after a resync instead
	RefetchErrors      int64     `json:"refetch_errors"`
	Refetches          int       `json:"refetches"` // REST reads after a resync, and how long they took
	RefetchP50Ms       float64   `json:"refetch_p50_ms"`
	RefetchP99Ms       float64   `json:"refetch_p99_ms"`
	RefetchMaxMs       float64   `json:"refetch_max_ms"`
	Reconnects         int64     `json:"reconnects"`
	Gone               int64     `json:"gone"` // clients without a connection at the end
	ErrorFrames        int64     `json:"error_frames"`
	Dropped            int64     `json:"dropped_connections"`
	Unexpected         int64     `json:"unexpected_frames"`
	ServerCPUBroadcast float64   `json:"server_cpu_broadcast_pct"`
	// ServerCPUPerEventMs is the server's CPU time per broadcast, less the
	// idle (ping) share; 10 ms clock ticks, so read it over many events.
	ServerCPUPerEventMs float64 `json:"server_cpu_per_event_ms"`
	// FrameBytes is the size of one event's websocket message.
	FrameBytes int64 `json:"frame_bytes"`
	// ServerCPUBroadcastRaw includes the idle (ping) load.
	ServerCPUBroadcastRaw float64 `json:"server_cpu_broadcast_raw_pct"`
	LoadCPU               float64 `json:"load_generator_cpu_pct"`
	// recovered: for each client dropped or told to resync, when it last
	// came back or read its page again (unix ns; 0: never).
	recovered []int64
}

func (r *report) add(results []workerResult, events int) {
	r.Events = events
	var all []int32
	perEvent := make([][]int32, events)
	for _, res := range results {
		for i, l := range res.Latency {
			if i < events {
				perEvent[i] = append(perEvent[i], l...)
				all = append(all, l...)
			}
		}
		r.Lost += res.Lost
		r.Duplicates += res.Duplicates
		r.SeqGaps += res.SeqGaps
		r.OutOfOrder += res.OutOfOrder
		r.Resyncs += res.Resyncs
		r.Paged += res.Paged
		r.Resynced += res.Resynced
		r.RefetchErrors += res.RefetchErrors
		r.Reconnects += res.Reconnects
		r.Gone += res.Gone
		r.ErrorFrames += res.ErrFrames
		r.Dropped += res.Dropped
		r.Unexpected += res.Unexpected
		r.FrameBytes = max(r.FrameBytes, res.FrameBytes)
		r.recovered = append(r.recovered, res.Recovered...)
	}
	var refetch []int32
	for _, res := range results {
		refetch = append(refetch, res.RefetchUs...)
	}
	slices.Sort(refetch)
	r.Refetches = len(refetch)
	r.RefetchP50Ms, r.RefetchP99Ms, r.RefetchMaxMs = quantileMs(refetch, 0.5), quantileMs(refetch, 0.99), quantileMs(refetch, 1)
	r.Delivered = len(all)
	slices.Sort(all)
	r.P50Ms = quantileMs(all, 0.50)
	r.P99Ms = quantileMs(all, 0.99)
	r.MaxMs = quantileMs(all, 1)
	for _, l := range perEvent {
		r.LastClientMs = append(r.LastClientMs, float64(slices.Max(append(l, 0)))/1000)
	}
}

// quantileMs reads a quantile of sorted microsecond samples, nearest rank.
func quantileMs(sorted []int32, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	i = min(max(i, 0), len(sorted)-1)
	return float64(sorted[i]) / 1000
}

func (r *report) print(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("setup:      %s", r.Config)
	p("connect:    %d of %d connected, %d errors, in %.1fs", r.Connected, r.Clients, r.ConnectErrors, r.ConnectSeconds)
	if r.FirstConnectError != "" {
		p("            first error: %s", r.FirstConnectError)
	}
	if r.ServerRSSIdleMB > 0 {
		p("memory:     server RSS %.1f MB before, %.1f MB with all idle: %.1f KB per connection",
			r.ServerRSSBaseMB, r.ServerRSSIdleMB, r.RSSPerConnKB)
		if r.GoMem != nil && r.Connected > 0 {
			p("            Go heap in use %.1f KB + stacks %.1f KB per connection, %d goroutines",
				float64(r.GoMem["heap_inuse"])/1024/float64(r.Connected),
				float64(r.GoMem["stack_inuse"])/1024/float64(r.Connected), r.GoMem["goroutines"])
		}
		p("cpu:        server %.1f%% of a core idle (pings), %.1f%% during broadcast (%.1f%% without the idle share, %.1f ms per broadcast); load generator %.1f%%",
			r.ServerCPUIdle, r.ServerCPUBroadcastRaw, r.ServerCPUBroadcast, r.ServerCPUPerEventMs, r.LoadCPU)
	}
	median := r.lastClientMedian()
	p("latency:    p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d deliveries; last client per event: median %.1f ms, max %.1f ms",
		r.P50Ms, r.P99Ms, r.MaxMs, r.Delivered, median, r.MaxMs)
	p("events:     %d published (%d publish errors, slowest POST %.1f ms); %d lost, %d duplicated, %d seq gaps, %d resyncs, %d error frames, %d unexpected frames, %d connections dropped",
		r.Events, r.PublishErrors, r.PublishMaxMs, r.Lost, r.Duplicates, r.SeqGaps, r.Resyncs, r.ErrorFrames, r.Unexpected, r.Dropped)
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	p("goals:      all held, 0 errors: %s; p99 <= %d ms: %s; <= %d KB per idle connection: %s; 0 lost: %s",
		verdict(r.ConnectErrors == 0 && r.Dropped == 0 && r.Connected == r.Clients),
		goalP99Ms, verdict(r.P99Ms <= goalP99Ms),
		goalKBPerConn, verdict(r.ServerRSSIdleMB > 0 && r.RSSPerConnKB <= goalKBPerConn),
		verdict(r.Lost == 0 && r.Duplicates == 0 && r.PublishErrors == 0))
}

// lastClientMedian is the median over the events of the time until the
// last client had the event.
func (r *report) lastClientMedian() float64 {
	sorted := slices.Clone(r.LastClientMs)
	slices.Sort(sorted)
	if len(sorted) == 0 {
		return 0
	}
	return sorted[len(sorted)/2]
}
