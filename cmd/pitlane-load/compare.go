package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// comparison is one -anchor run: the hub's and the anchor's reports, each
// measured cfg.rounds times with the same clients, events and machine.
type comparison struct {
	Pitlane []*report `json:"pitlane"`
	Anchor  []*report `json:"anchor"`
}

// compare measures the hub and the anchor in turn, alternating which goes
// first each round, so that neither always meets the machine fresher.
func compare(ctx context.Context, cfg wsConfig) (*comparison, error) {
	var cmp comparison
	hubCfg, anchorCfg := cfg, cfg
	anchorCfg.server = "anchor"
	anchorCfg.hubProfile = cfg.anchorProfile
	for r := range cfg.rounds {
		order := []wsConfig{hubCfg, anchorCfg}
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, c := range order {
			logf("round %d of %d: %s", r+1, cfg.rounds, c.server)
			rep, err := measure(ctx, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.server, err)
			}
			if c.server == "anchor" {
				cmp.Anchor = append(cmp.Anchor, rep)
			} else {
				cmp.Pitlane = append(cmp.Pitlane, rep)
			}
			if err := sleep(ctx, time.Second); err != nil { // let the sockets of the run close
				return nil, err
			}
		}
	}
	return &cmp, nil
}

// figure is one row of the side-by-side table.
type figure struct {
	name, unit string
	get        func(*report) float64
}

var figures = []figure{
	{"p50 delivery", "ms", func(r *report) float64 { return r.P50Ms }},
	{"p99 delivery", "ms", func(r *report) float64 { return r.P99Ms }},
	{"max delivery", "ms", func(r *report) float64 { return r.MaxMs }},
	{"last client (median event)", "ms", func(r *report) float64 { return r.lastClientMedian() }},
	{"memory per idle connection", "KB", func(r *report) float64 { return r.RSSPerConnKB }},
	{"server CPU per broadcast", "ms", func(r *report) float64 { return r.ServerCPUPerEventMs }},
	{"event message size", "B", func(r *report) float64 { return float64(r.FrameBytes) }},
}

// medianOf is the median of a figure over the rounds.
func medianOf(reps []*report, get func(*report) float64) float64 {
	v := make([]float64, 0, len(reps))
	for _, r := range reps {
		v = append(v, get(r))
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[len(v)/2]
}

func (c *comparison) print(w io.Writer) {
	for i := range c.Pitlane {
		fmt.Fprintf(w, "--- Pitlane hub, round %d\n", i+1)
		c.Pitlane[i].print(w)
		fmt.Fprintf(w, "--- anchor (centrifuge), round %d\n", i+1)
		c.Anchor[i].print(w)
	}
	fmt.Fprintln(w)
	what := "one run each"
	if n := len(c.Pitlane); n > 1 {
		what = fmt.Sprintf("median of %d runs each, alternating", n)
	}
	fmt.Fprintf(w, "side by side (%s; ratio = Pitlane / anchor, below 1 is Pitlane ahead)\n", what)
	fmt.Fprintf(w, "%-28s %12s %12s %7s\n", "figure", "Pitlane", "anchor", "ratio")
	for _, f := range figures {
		p, a := medianOf(c.Pitlane, f.get), medianOf(c.Anchor, f.get)
		ratio := "-"
		if a > 0 {
			ratio = fmt.Sprintf("%.2f", p/a)
		}
		fmt.Fprintf(w, "%-28s %9.1f %-2s %9.1f %-2s %7s\n", f.name, p, f.unit, a, f.unit, ratio)
	}
	held := func(reps []*report) string {
		var held, errs, lost, dup, gaps int64
		for _, r := range reps {
			held += int64(r.Connected)
			errs += int64(r.ConnectErrors) + r.Dropped
			lost += r.Lost
			dup += r.Duplicates
			gaps += r.SeqGaps
		}
		return fmt.Sprintf("%d held, %d errors; %d lost, %d dup, %d gaps", held/int64(max(len(reps), 1)), errs, lost, dup, gaps)
	}
	fmt.Fprintf(w, "%-28s %s\n", "Pitlane clients, events", held(c.Pitlane))
	fmt.Fprintf(w, "%-28s %s\n", "anchor clients, events", held(c.Anchor))
}
