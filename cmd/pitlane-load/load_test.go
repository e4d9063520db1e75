package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestMain lets the test binary play the children the tool starts of itself.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := run(context.Background(), os.Args[1:]); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

func TestInProcessRunDeliversEverything(t *testing.T) {
	cfg, err := parseWS([]string{"-inprocess", "-clients", "60", "-procs", "2", "-local-ips", "3",
		"-events", "4", "-interval", "20ms", "-settle", "300ms", "-idle", "100ms", "-timeout", "30s"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measure(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Connected != 60 || rep.ConnectErrors != 0 {
		t.Fatalf("connected %d, errors %d (%s)", rep.Connected, rep.ConnectErrors, rep.FirstConnectError)
	}
	if rep.Delivered != 240 || rep.Lost != 0 || rep.Duplicates != 0 || rep.SeqGaps != 0 || rep.PublishErrors != 0 {
		t.Fatalf("report %+v", rep)
	}
	if rep.ServerRSSIdleMB <= 0 || len(rep.LastClientMs) != 4 {
		t.Fatalf("no server figures: %+v", rep)
	}
}

// TestAnchorRunComparesBoth runs the same small broadcast against the hub
// and the anchor (centrifuge) in one run: both deliver every event to every
// client and the side-by-side table has both servers' figures.
func TestAnchorRunComparesBoth(t *testing.T) {
	cfg, err := parseWS([]string{"-inprocess", "-anchor", "-clients", "60", "-procs", "2", "-local-ips", "3",
		"-events", "4", "-interval", "20ms", "-settle", "300ms", "-idle", "100ms", "-timeout", "60s"})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Pitlane) != 1 || len(cmp.Anchor) != 1 {
		t.Fatalf("%d hub and %d anchor reports", len(cmp.Pitlane), len(cmp.Anchor))
	}
	for name, rep := range map[string]*report{"hub": cmp.Pitlane[0], "anchor": cmp.Anchor[0]} {
		if rep.Connected != 60 || rep.ConnectErrors != 0 {
			t.Errorf("%s: connected %d, errors %d (%s)", name, rep.Connected, rep.ConnectErrors, rep.FirstConnectError)
		}
		if rep.Delivered != 240 || rep.Lost != 0 || rep.Duplicates != 0 || rep.SeqGaps != 0 || rep.PublishErrors != 0 ||
			rep.Unexpected != 0 || rep.ErrorFrames != 0 {
			t.Errorf("%s: report %+v", name, rep)
		}
		if rep.ServerRSSIdleMB <= 0 || rep.FrameBytes == 0 {
			t.Errorf("%s: no server figures: %+v", name, rep)
		}
	}
	if !strings.Contains(cmp.Anchor[0].Config, "centrifuge") {
		t.Errorf("anchor setup %q", cmp.Anchor[0].Config)
	}
	var out strings.Builder
	cmp.print(&out)
	for _, want := range []string{"p99 delivery", "memory per idle connection", "server CPU per broadcast", "ratio"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestAnchorRedisTwoInstances: the anchor's Redis broker carries the
// broadcast across two instances, as the hub's Redis fan-out does.
func TestAnchorRedisTwoInstances(t *testing.T) {
	url := os.Getenv("PITLANE_TEST_REDIS_URL")
	if url == "" {
		t.Skip("PITLANE_TEST_REDIS_URL not set")
	}
	cfg, err := parseWS([]string{"-inprocess", "-redis", url, "-instances", "2", "-clients", "40", "-procs", "1",
		"-local-ips", "2", "-events", "3", "-interval", "20ms", "-settle", "300ms", "-idle", "100ms", "-timeout", "60s"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.server = "anchor"
	rep, err := measure(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Connected != 40 || rep.Delivered != 120 || rep.Lost != 0 || rep.SeqGaps != 0 || rep.Unexpected != 0 {
		t.Fatalf("report %+v", rep)
	}
}

func TestParseCentrifuge(t *testing.T) {
	for _, tc := range []struct {
		in            string
		kind          string
		id, off, sent int64
	}{
		{`{}`, "ping", 0, 0, 0},
		{`{"id":2,"subscribe":{}}`, "reply", 2, 0, 0},
		{`{"id":1,"error":{"code":101,"message":"unauthorized"}}`, "error", 1, 0, 0},
		{`{"push":{"channel":"deck","pub":{"data":{"event":"slide.changed","data":{"slide":2,"sent_ns":77},"ts":"x"},"offset":5}}}`, "pub", 0, 5, 77},
		{`{"push":{"channel":"deck","join":{}}}`, "push", 0, 0, 0},
	} {
		kind, id, off, sent := parseCentrifuge([]byte(tc.in))
		if kind != tc.kind || id != tc.id || off != tc.off || sent != tc.sent {
			t.Errorf("parseCentrifuge(%s) = %s %d %d %d", tc.in, kind, id, off, sent)
		}
	}
}

func TestParseWSRefusesNonLoopback(t *testing.T) {
	for _, args := range [][]string{
		{"-url", "ws://192.168.1.10:8080/api/ws"},
		{"-publish-url", "http://example.com/api/deck"},
		{"-inprocess", "-redis", "redis://10.0.0.5:6379/0"},
	} {
		if _, err := parseWS(args); err == nil {
			t.Errorf("parseWS(%q) accepted a non-loopback target", args)
		}
	}
}

func TestParseFrame(t *testing.T) {
	for _, tc := range []struct {
		in         string
		typ, topic string
		seq, sent  int64
	}{
		{`{"type":"event","topic":"deck","seq":42,"event":"slide.changed","data":{"slide":7,"sent_ns":1},"ts":"x"}`, "event", "deck", 42, 1},
		{`{"type":"event","topic":"teams","seq":43,"event":"auction.bid","data":{"lot_id":7},"ts":"x"}`, "event", "teams", 43, 0},
		{`{"topic":"deck","type":"event","data":{"sent_ns":3},"seq":9}`, "event", "deck", 9, 3},
		{`{"type":"resync","topic":"deck"}`, "resync", "deck", 0, 0},
	} {
		typ, topic, seq, sent, ok := parseFrame([]byte(tc.in))
		if !ok || typ != tc.typ || topic != tc.topic || seq != tc.seq || sent != tc.sent {
			t.Errorf("parseFrame(%s) = %s %s %d %d %v", tc.in, typ, topic, seq, sent, ok)
		}
	}
	if eventKey(0, 42) != 42 || eventKey(1, 42) == eventKey(0, 42) {
		t.Error("an event's key must tell topics apart and keep a lone topic's seqs")
	}
}

func TestQuantile(t *testing.T) {
	s := []int32{1000, 2000, 3000, 4000}
	if q := quantileMs(s, 0.5); q != 2 {
		t.Errorf("p50 = %v", q)
	}
	if q := quantileMs(s, 1); q != 4 {
		t.Errorf("max = %v", q)
	}
}
