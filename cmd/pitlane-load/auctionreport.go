// What the auction scenario prints.

package main

import (
	"fmt"
	"io"
)

// ratio is the bids' p99 over the deck moves' p99.
func (r *auctionReport) ratio() float64 {
	if r.Broadcast == nil || r.Broadcast.P99Ms == 0 {
		return 0
	}
	return r.Delivery.P99Ms / r.Broadcast.P99Ms
}

func (r *auctionReport) print(w io.Writer) {
	d := r.Delivery
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("setup:      %s", d.Config)
	p("connect:    %d of %d spectators connected, %d errors, in %.1fs", d.Connected, d.Clients, d.ConnectErrors, d.ConnectSeconds)
	if d.FirstConnectError != "" {
		p("            first error: %s", d.FirstConnectError)
	}
	if d.ServerRSSIdleMB > 0 {
		p("memory:     server RSS %.1f MB before, %.1f MB with all idle: %.1f KB per spectator",
			d.ServerRSSBaseMB, d.ServerRSSIdleMB, d.RSSPerConnKB)
		p("cpu:        server %.1f%% of a core during the bids, %.1f ms per change", d.ServerCPUBroadcastRaw, d.ServerCPUPerEventMs)
	}
	p("bids:       %d timed bids (%d refused), slowest POST %.1f ms", r.TimedBids, d.PublishErrors, d.PublishMaxMs)
	p("delivery:   bid to every spectator: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d deliveries; last spectator per bid: median %.1f ms",
		d.P50Ms, d.P99Ms, d.MaxMs, d.Delivered, d.lastClientMedian())
	if b := r.Broadcast; b != nil && b.Delivered > 0 {
		p("broadcast:  deck move to every spectator: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d deliveries; last spectator per move: median %.1f ms",
			b.P50Ms, b.P99Ms, b.MaxMs, b.Delivered, b.lastClientMedian())
		verdict := "met"
		if r.ratio() > goalRatio {
			verdict = "MISSED"
		}
		p("ratio:      bid p99 / broadcast p99 = %.2f (goal <= %.2f: %s); last spectator median %.2f",
			r.ratio(), goalRatio, verdict, d.lastClientMedian()/max(b.lastClientMedian(), 1e-9))
	}
	p("events:     %d on teams and deck; %d lost, %d duplicated, %d seq gaps, %d resyncs, %d error frames, %d unexpected frames, %d connections dropped",
		d.Events, d.Lost, d.Duplicates, d.SeqGaps, d.Resyncs, d.ErrorFrames, d.Unexpected, d.Dropped)
	if b := r.Burst; b != nil {
		p("burst:      %d bids at once on one lot in %.2fs: %d accepted + %d refused (%d other answers)",
			b.Sent, b.Seconds, b.Accepted, b.Refused, b.Other)
		p("            high bid %d by team %s (highest accepted %d), %d bids on the lot; sold to %s for %d",
			b.HighBid, b.Leader, b.MaxAccepted, b.LotBids, b.Buyer, b.Price)
		if len(b.Problems) == 0 {
			p("            one consistent state: one leader, high bid = highest accepted, accepted + refused = sent, purses unchanged until the close, one sale and only the buyer's purse lower by the price")
		}
		for _, pr := range b.Problems {
			p("            INCONSISTENT: %s", pr)
		}
	}
	verdict := "met"
	if d.P99Ms > goalP99Ms {
		verdict = "MISSED"
	}
	p("goals:      bid to every spectator p99 <= %d ms: %s; 0 lost: %v", goalP99Ms, verdict, d.Lost == 0 && d.Duplicates == 0)
}
