package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// pitlaneBinary is the server the scenario tests run: make build's
// bin/pitlane, else one built here, once for all of them.
func pitlaneBinary(t *testing.T) string {
	t.Helper()
	if b, err := filepath.Abs("../../bin/pitlane"); err == nil && os.Getenv("PITLANE_TEST_REBUILD") == "" {
		if _, err := os.Stat(b); err == nil {
			return b
		}
	}
	build.once.Do(func() {
		if build.dir, build.err = os.MkdirTemp("", "pitlane-load-test-"); build.err != nil {
			return
		}
		b := filepath.Join(build.dir, "pitlane")
		if out, err := exec.Command("go", "build", "-o", b, "../pitlane").CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
		build.bin = b
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.bin
}

// build is the server built for the tests; TestMain removes it.
var build struct {
	once     sync.Once
	dir, bin string
	err      error
}

// TestAuctionScenario runs the auction scenario small against a real
// `pitlane serve` on a fresh PostgreSQL database seeded at its auction
// phase: every bid reaches every spectator, and the burst of 100 bids on
// one lot ends in one consistent state.
func TestAuctionScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	ctx := context.Background()
	dbURL, drop, err := pgtest.NewURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	bin := pitlaneBinary(t)
	const password = "scenario-pass-123"
	env := append(os.Environ(), "DATABASE_URL="+dbURL, "PITLANE_DATA_DIR="+t.TempDir())
	seed := exec.Command(bin, "seed-demo", "-phase", "auction", "-password", password)
	seed.Env = env
	if out, err := seed.CombinedOutput(); err != nil {
		t.Fatalf("seed-demo: %v\n%s", err, out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := exec.Command(bin, "serve")
	serve.Env = append(env, "ADDR="+addr, "ADMIN_EMAILS=organiser@demo.pitlane.local", "REDIS_URL=", "RATE_LIMIT_SCALE=100")
	logs, _ := os.Create(filepath.Join(t.TempDir(), "serve.log"))
	serve.Stdout, serve.Stderr = logs, logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	for i := 0; ; i++ {
		if res, err := http.Get("http://" + addr + "/readyz"); err == nil && res.StatusCode == 200 {
			res.Body.Close()
			break
		}
		if i == 300 {
			b, _ := os.ReadFile(logs.Name())
			t.Fatalf("the server never became ready:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}

	cfg, err := parseAuction([]string{"-base", "http://" + addr, "-password", password, "-spectators", "50",
		"-procs", "1", "-local-ips", "2", "-bids", "25", "-interval", "20ms", "-idle", "100ms", "-settle", "500ms",
		"-timeout", "60s", "-server-pid", itoa(serve.Process.Pid)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measureAuction(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Delivery
	// 25 bids take two lots (a lot goes from 1,100 to 2,200 in at most 22).
	if d.Connected != 50 || rep.TimedBids != 25 || d.Delivered != 50*25 || d.PublishErrors != 0 {
		t.Fatalf("connected %d, %d timed bids, %d delivered, %d refused", d.Connected, rep.TimedBids, d.Delivered, d.PublishErrors)
	}
	if d.Lost != 0 || d.Duplicates != 0 || d.SeqGaps != 0 || d.Unexpected != 0 || d.Dropped != 0 {
		t.Fatalf("delivery %+v", d)
	}
	// A deck move between the bids, to every spectator too, in the same run.
	if m := rep.Broadcast; m == nil || m.Delivered != 50*25 || rep.ratio() <= 0 {
		t.Fatalf("broadcasts %+v", m)
	}
	b := rep.Burst
	if b == nil || len(b.Problems) > 0 || b.Accepted < 1 || b.Accepted+b.Refused != 100 || b.Buyer == "" {
		t.Fatalf("burst %+v", b)
	}
	// The scenario voided what it sold: it can run again on the same league.
	if rep, err = measureAuction(ctx, cfg); err != nil || len(rep.Burst.Problems) > 0 || rep.Delivery.Lost != 0 {
		t.Fatalf("second run: %v %+v", err, rep)
	}
}
