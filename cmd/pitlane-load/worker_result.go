package main

// What a worker measured: each event's arrival per client, and the sums it
// prints for the parent once the events are out.

import (
	"encoding/json"
	"fmt"
	"slices"
)

// workerResult is what a worker prints last, one JSON line.
type workerResult struct {
	// Latency[i] holds, in microseconds, when each client got event i
	// after it was published.
	Latency    [][]int32 `json:"latency"`
	Lost       int64     `json:"lost"`
	Duplicates int64     `json:"duplicates"`
	SeqGaps    int64     `json:"seq_gaps"`
	OutOfOrder int64     `json:"out_of_order"` // an event older than one the client already had
	Resyncs    int64     `json:"resyncs"`
	Paged      int64     `json:"paged"` // resyncs that brought their page (no REST read)
	// Resynced counts events a client never got but read over REST after a
	// resync (the web app's answer to one): not lost.
	Resynced      int64 `json:"resynced"`
	RefetchErrors int64 `json:"refetch_errors"` // REST reads after a resync that failed
	// RefetchUs is how long each REST read after a resync took (µs), from
	// the resync's arrival: every client of a Redis that came back empty
	// reads its page at once.
	RefetchUs  []int32 `json:"refetch_us"`
	ErrFrames  int64   `json:"error_frames"`
	Dropped    int64   `json:"dropped"`    // connections that ended before the finish
	Reconnects int64   `json:"reconnects"` // of those, how many came back (-reconnect)
	Gone       int64   `json:"gone"`       // clients that had no connection at the finish
	Unexpected int64   `json:"unexpected"`
	FrameBytes int64   `json:"frame_bytes"` // one event's message
	// Recovered holds, for each client dropped or told to resync, when it
	// last came back or read its page again (unix ns; 0: never).
	Recovered []int64 `json:"recovered"`
}

// record notes one event's arrival on client cl, the seq-th of the t-th
// topic.
func (w *worker) record(cl *client, t int, seq, now, sent int64) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	switch {
	case cl.known[t] && seq > cl.pos[t]+1:
		w.seqGaps.Add(1)
	case cl.known[t] && seq <= cl.lastSeen[t]:
		w.outOfOrder.Add(1)
	}
	cl.known[t] = true
	cl.lastSeen[t] = max(cl.lastSeen[t], seq)
	cl.pos[t] = max(cl.pos[t], seq)
	if len(cl.arrivals) >= w.maxArrivals {
		w.unexpected.Add(1)
		return
	}
	cl.arrivals = append(cl.arrivals, arrival{seq: eventKey(t, seq), at: now, sent: sent})
}

// result matches arrivals to published events by seq. Latency counts from
// the publish time the event carried, else from the one the parent noted:
// the same clock either way. An event of a topic a client follows that it
// neither got nor read over REST after a resync is lost.
func (w *worker) result(cmd finishCmd) workerResult {
	res := workerResult{
		Latency:       make([][]int32, len(cmd.Seqs)),
		SeqGaps:       w.seqGaps.Load(),
		OutOfOrder:    w.outOfOrder.Load(),
		Resyncs:       w.resyncs.Load(),
		Paged:         w.paged.Load(),
		RefetchErrors: w.refetchErrors.Load(),
		ErrFrames:     w.errFrames.Load(),
		Dropped:       w.dropped.Load(),
		Reconnects:    w.reconnects.Load(),
		Gone:          w.gone.Load(),
		Unexpected:    w.unexpected.Load(),
		FrameBytes:    w.frameBytes.Load(),
		RefetchUs:     w.refetchUs,
	}
	index := make(map[int64]int, len(cmd.Seqs))
	for i, s := range cmd.Seqs {
		index[s] = i
	}
	got := make([]bool, len(cmd.Seqs))
	follows := make([]bool, len(w.opt.topics))
	for _, cl := range w.clients {
		if cl.affected {
			res.Recovered = append(res.Recovered, cl.recovered)
		}
		if !cl.connected {
			continue
		}
		clear(got)
		clear(follows)
		for _, t := range cl.topics {
			follows[t] = true
		}
		for _, a := range cl.arrivals {
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
		for i, key := range cmd.Seqs {
			t := keyTopic(key)
			if got[i] || t >= len(follows) || !follows[t] {
				continue
			}
			if slices.ContainsFunc(cl.covered, func(s span) bool { return s.Topic == t && s.has(keySeq(key)) }) {
				res.Resynced++
			} else {
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
