package api

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// readBatches shares one database read, and its encoding, among the requests
// for the same public page that arrive together. After Redis comes back empty
// every spectator's page is told to resync and reads its state at once: 10,000
// spectators were 25,000 reads of three pages in a few seconds, each its own
// snapshot of PostgreSQL, and the last answers took a minute (docs/hub.md,
// the night at 10,000 spectators).
//
// A request never joins a read that had begun before it arrived: that read
// might predate a change the caller has just made (a bid, then the auction's
// state). It waits for the next read of its page, which starts when the one
// in flight ends and serves everyone who came meanwhile. So each page has at
// most one read in flight per instance, and each answer is at least as new as
// its request.
type readBatches struct {
	mu    sync.Mutex
	pages map[string]*pageReads
}

type pageReads struct {
	running bool
	next    *batchRead // the read the requests arriving now wait for
}

type batchRead struct {
	done chan struct{}
	body []byte
	err  error
}

// readTimeout bounds a shared read: it runs for every request waiting on it,
// so no single caller's context may cancel it.
const readTimeout = 10 * time.Second

// do answers key's page with the JSON encoding of what read returns, read
// once for all the callers of a batch.
func (b *readBatches) do(ctx context.Context, key string, read func(context.Context) (any, error)) ([]byte, error) {
	b.mu.Lock()
	if b.pages == nil {
		b.pages = map[string]*pageReads{}
	}
	p := b.pages[key]
	if p == nil {
		p = &pageReads{}
		b.pages[key] = p
	}
	if p.next == nil {
		p.next = &batchRead{done: make(chan struct{})}
	}
	mine := p.next
	lead := !p.running
	if lead {
		p.running, p.next = true, nil
	}
	b.mu.Unlock()
	if lead {
		b.run(ctx, key, p, mine, read)
	}
	select {
	case <-mine.done:
		return mine.body, mine.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run reads for batch; a batch that gathered meanwhile is read next, on a
// goroutine of its own, so that no caller waits for more than its own read.
func (b *readBatches) run(ctx context.Context, key string, p *pageReads, batch *batchRead, read func(context.Context) (any, error)) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readTimeout)
	v, err := read(rctx)
	cancel()
	if err == nil {
		batch.body, err = json.Marshal(v)
	}
	batch.err = err
	close(batch.done)

	b.mu.Lock()
	next := p.next
	p.next = nil
	if next == nil {
		p.running = false
		delete(b.pages, key)
	}
	b.mu.Unlock()
	if next != nil {
		go b.run(ctx, key, p, next, read)
	}
}

// writeJSONBody writes an encoded JSON answer, as writeJSON does a value.
func writeJSONBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
	w.Write([]byte("\n"))
}
