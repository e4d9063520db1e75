// Package deploy_test checks what operators are given in deploy/: the
// Prometheus configuration and alert rules with promtool, and that the
// rules and the Grafana dashboard ask only for series a real Pitlane
// exports (its /metrics, scraped here).
package deploy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed: Debian's prometheus package (make test installs it)")
	}
	return p
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
}

// The shipped configuration and rules pass promtool's own checks.
func TestPromtoolChecksConfigAndRules(t *testing.T) {
	pt := promtool(t)
	run(t, pt, "check", "config", "prometheus.yml")
	run(t, pt, "check", "rules", "alerts.yml")
}

// dashboard is the part of the Grafana JSON read here.
type dashboard struct {
	UID    string `json:"uid"`
	Title  string `json:"title"`
	Panels []struct {
		ID         int    `json:"id"`
		Type       string `json:"type"`
		Title      string `json:"title"`
		Datasource *struct {
			UID string `json:"uid"`
		} `json:"datasource"`
		Targets []struct {
			RefID string `json:"refId"`
			Expr  string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

func readDashboard(t *testing.T) dashboard {
	t.Helper()
	b, err := os.ReadFile("grafana/pitlane.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana/pitlane.json: %v", err)
	}
	return d
}

// dashboardExprs are the dashboard's queries, by panel.
func dashboardExprs(t *testing.T) map[string]string {
	t.Helper()
	d := readDashboard(t)
	if d.UID == "" || d.Title == "" {
		t.Fatalf("the dashboard has no uid or title: %q %q", d.UID, d.Title)
	}
	out := map[string]string{}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != "prometheus" {
			t.Errorf("panel %q: its datasource is not the provisioned Prometheus (uid prometheus)", p.Title)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			if strings.TrimSpace(q.Expr) == "" {
				t.Errorf("panel %q, query %s: empty", p.Title, q.RefID)
			}
			out[p.Title+" ("+q.RefID+")"] = q.Expr
		}
	}
	return out
}

// Every dashboard query is PromQL promtool accepts (Grafana's
// $__rate_interval stands for a range).
func TestDashboardQueriesParse(t *testing.T) {
	pt := promtool(t)
	exprs := dashboardExprs(t)
	var rules strings.Builder
	rules.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	names := make([]string, 0, len(exprs))
	for name := range exprs {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		expr := strings.ReplaceAll(exprs[name], "$__rate_interval", "5m")
		q, _ := json.Marshal(expr)
		fmt.Fprintf(&rules, "      - record: dashboard_panel_%d\n        expr: %s\n", i, q)
	}
	file := filepath.Join(t.TempDir(), "dashboard-rules.yml")
	if err := os.WriteFile(file, []byte(rules.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, pt, "check", "rules", file)
}

// seriesRe finds the series a query names: Pitlane's, Go's and the
// process's (Prometheus's own "up" aside).
var seriesRe = regexp.MustCompile(`\b(?:pitlane|go|process)_[a-z0-9_]+\b`)

// The alert rules and the dashboard ask only for series a real instance
// exports: an instance is started (with Redis), used (requests, a
// websocket subscribed to a topic that then gets an event, its jobs run),
// and its /metrics scraped until every name asked for is there.
func TestQueriesUseExportedSeries(t *testing.T) {
	asked := map[string][]string{} // series -> where
	rules, err := os.ReadFile("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s+- alert: (\S+)\n\s+expr: ((?:\|\n(?:\s{10,}.*\n)+)|.*)`).FindAllStringSubmatch(string(rules), -1) {
		for _, s := range seriesRe.FindAllString(m[2], -1) {
			asked[s] = append(asked[s], "alert "+m[1])
		}
	}
	if len(asked) < 8 {
		t.Fatalf("read %d series from alerts.yml: the rules' layout changed?", len(asked))
	}
	for panel, expr := range dashboardExprs(t) {
		for _, s := range seriesRe.FindAllString(expr, -1) {
			asked[s] = append(asked[s], "panel "+panel)
		}
	}

	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{RedisURL: testkit.RedisURL()})
	metrics := httptest.NewServer(s.App.Metrics)
	defer metrics.Close()
	ws := testkit.DialWS(t, s.URL, "")
	ws.Subscribe(nil, "registrations")
	token := s.SignUp(t, testkit.UniqueEmail("deploy"), "deploy_racer")
	s.SaveStats(t, token)
	if r := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	ws.WaitEvent("registrations", "player.registered", 10*time.Second)

	var missing []string
	deadline := time.Now().Add(20 * time.Second)
	for {
		exported := scrape(t, metrics.URL+"/metrics")
		missing = missing[:0]
		for name := range asked {
			if !exported[name] {
				missing = append(missing, name)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	sort.Strings(missing)
	for _, name := range missing {
		slices.Sort(asked[name])
		t.Errorf("%s is not exported by the binary (asked by %s)", name, strings.Join(slices.Compact(asked[name]), ", "))
	}
}

// scrape reads the names of the samples /metrics serves.
func scrape(t *testing.T, url string) map[string]bool {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	names := map[string]bool{}
	sc := bufio.NewScanner(io.LimitReader(res.Body, 8<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			names[line[:i]] = true
		}
	}
	return names
}
