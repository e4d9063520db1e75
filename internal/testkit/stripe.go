package testkit

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// StripeMockEnv names the URL of a running stripe-mock (scripts/test.sh
// starts one and sets it).
const StripeMockEnv = "PITLANE_TEST_STRIPE_URL"

// StripeMock is the URL of Stripe's official mock server: the one
// StripeMockEnv names, else one started here from the stripe-mock binary
// (on PATH or in Go's bin). A test is skipped only when neither is there.
func StripeMock(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(StripeMockEnv); u != "" {
		return u
	}
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		bin = filepath.Join(gopath, "bin", "stripe-mock")
		if _, err := os.Stat(bin); err != nil {
			t.Skipf("stripe-mock is not installed and %s is unset (go install github.com/stripe/stripe-mock@latest)", StripeMockEnv)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "-http-port", strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(url + "/v1/charges"); err == nil {
			res.Body.Close()
			return url
		}
	}
	t.Fatal("stripe-mock did not start")
	return ""
}
