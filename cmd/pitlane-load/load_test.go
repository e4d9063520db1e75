package main

import (
	"context"
	"os"
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
	os.Exit(m.Run())
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
		in        string
		typ       string
		seq, sent int64
	}{
		{`{"type":"event","topic":"deck","seq":42,"event":"slide.changed","data":{"slide":7,"sent_ns":1},"ts":"x"}`, "event", 42, 1},
		{`{"type":"event","topic":"deck","seq":43,"event":"slide.changed","data":{"slide":7},"ts":"x"}`, "event", 43, 0},
		{`{"topic":"deck","type":"event","data":{"sent_ns":3},"seq":9}`, "event", 9, 3},
		{`{"type":"resync","topic":"deck"}`, "resync", 0, 0},
	} {
		typ, seq, sent, ok := parseFrame([]byte(tc.in))
		if !ok || typ != tc.typ || seq != tc.seq || sent != tc.sent {
			t.Errorf("parseFrame(%s) = %s %d %d %v", tc.in, typ, seq, sent, ok)
		}
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
