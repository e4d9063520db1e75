package hub

import (
	"sync/atomic"
	"time"
)

// pressure is the hub's "retry after" hint. When Redis comes back without
// its data every local subscription is told to resync at once, and each
// page reads its state again over REST: thousands of reads in the same
// instant. The web app spreads its reads over 0-2 s by itself; when the
// subscriptions told at once would need longer at rate reads a second,
// their resync frames carry retry_after_ms, the window to spread over.
type pressure struct {
	rate   int          // reads a second the instance can answer (Options.ResyncRate)
	window atomic.Int64 // ms
	until  atomic.Int64 // unix ns the hint holds until
}

// minSpreadMs is the window clients spread over unasked.
const minSpreadMs = 2000

// maxSpreadMs bounds the hint: a page stale for longer is worse than a slow read.
const maxSpreadMs = 30_000

// resyncing notes that n subscriptions are told to resync at once.
func (p *pressure) resyncing(n int, now time.Time) {
	if p.rate <= 0 {
		return
	}
	w := min(int64(n)*1000/int64(p.rate), maxSpreadMs)
	if w <= minSpreadMs {
		return
	}
	p.window.Store(w)
	p.until.Store(now.Add(time.Duration(w) * time.Millisecond).UnixNano())
}

// retryAfter is the window a resync sent now should carry, 0 for none.
func (p *pressure) retryAfter(now time.Time) int64 {
	if now.UnixNano() >= p.until.Load() {
		return 0
	}
	return p.window.Load()
}
