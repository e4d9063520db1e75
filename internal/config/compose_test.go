package config

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// docker-compose.yml cannot be run here (no Docker engine), so it is read
// against the configuration it feeds and the image it runs.
func TestComposeFile(t *testing.T) {
	b, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	compose := string(b)
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("NoWellKnownKey", func(t *testing.T) {
		// Unset, JWT_SECRET is generated into the data volume on first start
		// and shared by both instances; nothing in the file signs tokens.
		if m := regexp.MustCompile(`JWT_SECRET:\s*(.*)`).FindStringSubmatch(compose); m == nil || strings.TrimSpace(m[1]) != "${JWT_SECRET:-}" {
			t.Fatalf("JWT_SECRET in compose: %q, want ${JWT_SECRET:-} (no default key)", m)
		}
	})
	t.Run("PublishedOnLoopbackByDefault", func(t *testing.T) {
		// The proxy, and the monitoring profile's Prometheus and Grafana:
		// every published port on 127.0.0.1 unless configured.
		ports := regexp.MustCompile(`ports:\s*\[(.*)\]`).FindAllStringSubmatch(compose, -1)
		if len(ports) != 3 || strings.Count(compose, "ports:") != 3 {
			t.Fatalf("published ports %q: want the proxy's, Prometheus's and Grafana's", ports)
		}
		for _, p := range ports {
			if !strings.Contains(p[1], ":-127.0.0.1:") {
				t.Errorf("published port %q: want 127.0.0.1 unless configured", p[1])
			}
		}
	})
	t.Run("SecretKeptInASharedWritableVolume", func(t *testing.T) {
		dir := regexp.MustCompile(`PITLANE_DATA_DIR:\s*(\S+)`).FindStringSubmatch(compose)
		if dir == nil {
			t.Fatal("compose sets no PITLANE_DATA_DIR")
		}
		anchor := compose[strings.Index(compose, "x-pitlane:"):strings.Index(compose, "services:")]
		if !regexp.MustCompile(`volumes:\s*\[\s*\w[\w-]*:` + regexp.QuoteMeta(dir[1]) + `\s*\]`).MatchString(anchor) {
			t.Fatalf("the instances (x-pitlane) do not mount a named volume at %s", dir[1])
		}
		if !strings.Contains(string(dockerfile), "chown nobody") || !strings.Contains(string(dockerfile), dir[1]) {
			t.Fatalf("the image does not make %s for its user nobody (a new volume copies its owner)", dir[1])
		}
	})
	t.Run("EveryVariableIsRead", func(t *testing.T) {
		read := map[string]bool{}
		FromEnv(func(k string) string { read[k] = true; return "" })
		env := compose[strings.Index(compose, "environment:"):strings.Index(compose, "depends_on:")]
		for _, m := range regexp.MustCompile(`(?m)^\s{4}([A-Z_]+):`).FindAllStringSubmatch(env, -1) {
			if !read[m[1]] {
				t.Errorf("compose sets %s, which the server does not read", m[1])
			}
		}
	})
}

// Two instances starting at once on an empty data volume end up with the
// same generated secret: the first to store one wins, the other reads it.
func TestSecretGeneratedOnceForConcurrentStarts(t *testing.T) {
	for range 50 {
		dir := t.TempDir()
		secrets := make([]string, 8)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range secrets {
			wg.Go(func() {
				<-start
				c := Config{DataDir: dir}
				if err := c.EnsureSecret(); err != nil {
					t.Error(err)
				}
				secrets[i] = c.JWTSecret
			})
		}
		close(start)
		wg.Wait()
		stored, _ := os.ReadFile(dir + "/jwt-secret")
		for _, s := range secrets {
			if len(s) < 32 || s != secrets[0] || s != strings.TrimSpace(string(stored)) {
				t.Fatalf("secrets %q, stored %q", secrets, stored)
			}
		}
	}
}
