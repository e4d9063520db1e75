package api

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The requests for a page that arrive while it is being read share the next
// read: a thousand requests, a handful of reads.
func TestRequestsThatComeTogetherShareOneRead(t *testing.T) {
	var b readBatches
	var reads atomic.Int64
	read := func(context.Context) (any, error) {
		reads.Add(1)
		time.Sleep(20 * time.Millisecond)
		return map[string]int{"seq": 7}, nil
	}
	var wg sync.WaitGroup
	for range 1000 {
		wg.Go(func() {
			body, err := b.do(context.Background(), "auction\x00PPL7", read)
			if err != nil || string(body) != `{"seq":7}` {
				t.Errorf("answer %q, %v", body, err)
			}
		})
	}
	wg.Wait()
	if n := reads.Load(); n < 1 || n > 20 {
		t.Fatalf("%d reads for 1000 requests arriving together, want a few", n)
	}
}

// An answer is never older than its request: a change made before the
// request (the caller's own bid) is in what it reads, even when a read of the
// page was already under way when the request came.
func TestAnAnswerIsReadAfterItsRequestArrived(t *testing.T) {
	var b readBatches
	var version atomic.Int64
	read := func(context.Context) (any, error) {
		v := version.Load() // the snapshot is taken as the read starts
		time.Sleep(5 * time.Millisecond)
		return v, nil
	}
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			made := version.Add(1) // a change, then a read of the page
			body, err := b.do(context.Background(), "k", read)
			if err != nil {
				t.Error(err)
				return
			}
			var got int64
			json.Unmarshal(body, &got)
			if got < made {
				t.Errorf("read version %d after making version %d", got, made)
			}
		})
		time.Sleep(100 * time.Microsecond)
	}
	wg.Wait()
}

// A caller that gives up does not fail the others waiting on the same read,
// and pages are read apart.
func TestACallerGivingUpLeavesTheOthersTheirAnswer(t *testing.T) {
	var b readBatches
	release := make(chan struct{})
	read := func(ctx context.Context) (any, error) {
		<-release
		return "ok", ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	leader := make(chan error, 1)
	go func() { _, err := b.do(ctx, "k", read); leader <- err }()
	time.Sleep(10 * time.Millisecond)
	other := make(chan string, 1)
	go func() { body, _ := b.do(context.Background(), "k", read); other <- string(body) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	close(release)
	if body := <-other; body != `"ok"` {
		t.Fatalf("the other caller got %q", body)
	}
	<-leader
	if body, err := b.do(context.Background(), "elsewhere", func(context.Context) (any, error) { return 1, nil }); err != nil || string(body) != "1" {
		t.Fatalf("another page: %q, %v", body, err)
	}
}
