package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// binary is the pitlane executable the cluster test runs: make build's
// bin/pitlane (make test builds it first), else one built here.
func binary(t *testing.T) string {
	t.Helper()
	if b, err := filepath.Abs("../../bin/pitlane"); err == nil {
		if _, err := os.Stat(b); err == nil && os.Getenv("PITLANE_TEST_REBUILD") == "" {
			return b
		}
	}
	b := filepath.Join(t.TempDir(), "pitlane")
	if out, err := exec.Command("go", "build", "-o", b, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return b
}

// Two `pitlane serve` processes on two ports share PostgreSQL and Redis: a
// registration made through A reaches a client of B with the next seq, and
// SIGTERM closes B's websockets with 1001.
func TestTwoServeProcessesStayInStep(t *testing.T) {
	pgtest.DB(t)
	bin := binary(t)
	mail := testkit.NewMailbox(t)
	env := []string{
		"DATABASE_URL=" + pgtest.URL(),
		"REDIS_URL=" + testkit.RedisURL(),
		"REDIS_PREFIX=" + testkit.UniquePrefix(t),
		"JWT_SECRET=one-secret-for-both-processes-0123456789",
		"SMTP_URL=" + mail.URL(),
		"RATE_LIMIT_SCALE=1000",
		"PATH=" + os.Getenv("PATH"),
	}
	start := func(name string) (string, *exec.Cmd) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(env, "ADDR="+addr, "PITLANE_DATA_DIR="+t.TempDir())
		logs, _ := os.Create(filepath.Join(t.TempDir(), name+".log"))
		cmd.Stdout, cmd.Stderr = logs, logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		base := "http://" + addr
		for i := 0; ; i++ {
			if res, err := http.Get(base + "/readyz"); err == nil && res.StatusCode == 200 {
				res.Body.Close()
				break
			}
			if i == 200 {
				b, _ := os.ReadFile(logs.Name())
				t.Fatalf("%s never became ready:\n%s", name, b)
			}
			time.Sleep(50 * time.Millisecond)
		}
		return base, cmd
	}
	baseA, _ := start("a")
	baseB, procB := start("b")
	a := &testkit.Server{URL: baseA, Mail: mail}
	b := &testkit.Server{URL: baseB, Mail: mail}

	list := b.Do(t, "GET", "/api/tournament/registrations", "", nil)
	since := int64(list.JSON["seq"].(float64))
	watcher := testkit.DialWS(t, baseB, "")
	watcher.Subscribe(map[string]int64{"registrations": since}, "registrations")
	watcher.Ping()

	token := a.SignUp(t, testkit.UniqueEmail("process"), "process_racer")
	a.SaveStats(t, token)
	if r := a.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register through A: %d %q", r.Status, r.Message())
	}
	// Every event B's client gets carries the next seq, up to the registration.
	var f testkit.Frame
	for want := since + 1; f.Event != "player.registered"; want++ {
		if f = watcher.Next(5 * time.Second); f.Type != "event" || f.Seq != want {
			t.Fatalf("got %+v, want an event with seq %d", f, want)
		}
	}
	if r := b.Do(t, "GET", "/api/tournament/registrations", "", nil); r.JSON["seq"] != float64(f.Seq) {
		t.Fatalf("B's list is at seq %v, the event at %d", r.JSON["seq"], f.Seq)
	}

	if err := procB.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	watcher.ExpectClose(websocket.StatusGoingAway, 10*time.Second)
	done := make(chan error, 1)
	go func() { done <- procB.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("B after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("B still running 20 s after SIGTERM")
	}
}
