package main

import (
	"testing"
	"time"
)

func TestRecoveryCountsFromTheFaultsEnd(t *testing.T) {
	end := time.Unix(1000, 0)
	at := func(ms int64) int64 { return end.UnixNano() + ms*int64(time.Millisecond) }
	r := recoveryAfter([]int64{at(-300), at(100), at(200), at(2500), 0}, end)
	if r.Clients != 5 || r.Never != 1 {
		t.Fatalf("clients %d, never %d; want 5 affected, 1 never back", r.Clients, r.Never)
	}
	// Back before the end counts 0; the others from the end.
	if r.P50 != 100 || r.Max != 2500 {
		t.Fatalf("p50 %.0f ms, max %.0f ms; want 100 and 2500", r.P50, r.Max)
	}
	if none := recoveryAfter(nil, end); none.Clients != 0 || none.Max != 0 {
		t.Fatalf("no client affected: %+v", none)
	}
}

func TestSpectatorsBackOffAsTheWebAppDoes(t *testing.T) {
	for range 200 {
		if d := backoff(0); d < 0 || d >= 2*time.Second {
			t.Fatalf("first reconnect after %v, want within 0-2 s", d)
		}
		if d := backoff(1); d < 2*time.Second || d >= 4*time.Second {
			t.Fatalf("second after %v, want 2-4 s", d)
		}
		if d := backoff(30); d < 15*time.Second || d >= 30*time.Second {
			t.Fatalf("a late one after %v, want 15-30 s", d)
		}
	}
}
