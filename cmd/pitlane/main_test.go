package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), nil, os.Getenv, nil, &out, &errOut); err == nil {
		t.Fatal("no command accepted")
	}
	if err := run(context.Background(), []string{"fly"}, os.Getenv, nil, &out, &errOut); err == nil || !strings.Contains(errOut.String(), "usage") {
		t.Fatalf("unknown command: %v", err)
	}
}

func TestSeedDemoRefusesProduction(t *testing.T) {
	env := map[string]string{"PITLANE_ENV": "production", "JWT_SECRET": strings.Repeat("x", 40), "DATABASE_URL": "postgres://nowhere/x"}
	err := run(context.Background(), []string{"seed-demo"}, func(k string) string { return env[k] }, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "production") {
		t.Fatalf("%v", err)
	}
}

// serve migrates, answers, and stops cleanly when its context ends (SIGTERM).
func TestServeMigratesAndShutsDown(t *testing.T) {
	pgtest.DB(t)
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	env := map[string]string{"DATABASE_URL": pgtest.URL(), "ADDR": addr, "PITLANE_DATA_DIR": t.TempDir(), "METRICS_ADDR": metricsAddr}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var logs bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, nil, &bytes.Buffer{}, &logs)
	}()
	var res *http.Response
	var err error
	for i := 0; i < 100; i++ {
		if res, err = http.Get(fmt.Sprintf("http://%s/readyz", addr)); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("readyz: %v %v", res, err)
	}
	res.Body.Close()
	// Prometheus metrics on METRICS_ADDR only, never on the public port.
	if body := get(t, "http://"+metricsAddr+"/metrics"); !strings.Contains(body, "pitlane_http_requests_total") {
		t.Fatalf("METRICS_ADDR /metrics:\n%.300s", body)
	}
	if body := get(t, "http://"+addr+"/metrics"); strings.Contains(body, "pitlane_http_requests_total") {
		t.Fatal("the app's port serves the metrics")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Fatalf("no clean stop in the log:\n%s", logs.String())
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// vapid-keys prints a pair the server takes: a 65-byte uncompressed point
// and a 32-byte scalar, base64url.
func TestVAPIDKeys(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"vapid-keys"}, os.Getenv, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	pub, okPub := strings.CutPrefix(lines[0], "VAPID_PUBLIC_KEY=")
	priv, okPriv := strings.CutPrefix(lines[len(lines)-1], "VAPID_PRIVATE_KEY=")
	p, errP := base64.RawURLEncoding.DecodeString(pub)
	k, errK := base64.RawURLEncoding.DecodeString(priv)
	if len(lines) != 2 || !okPub || !okPriv || errP != nil || errK != nil || len(p) != 65 || p[0] != 4 || len(k) != 32 {
		t.Fatalf("vapid-keys printed %q", out.String())
	}
}
