package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/testkit"
)

// TestOpenAPIMatchesRoutes keeps /api/openapi.json true: every /api route of
// the router is described, and nothing described is missing from the router.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s := newServer(t, testkit.Options{})
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	r := s.Do(t, "GET", "/api/openapi.json", "", nil)
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	described := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			described[strings.ToUpper(method)+" "+path] = true
		}
	}
	routed := map[string]bool{}
	err := chi.Walk(s.App.Handler.(chi.Router), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.ReplaceAll(strings.TrimSuffix(route, "/"), "/*/", "/")
		if strings.HasPrefix(route, "/api/") && !strings.HasSuffix(route, "*") {
			routed[method+" "+route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var missing, stale []string
	for k := range routed {
		if !described[k] {
			missing = append(missing, k)
		}
	}
	for k := range described {
		if !routed[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing)+len(stale) > 0 {
		t.Fatalf("routes not in openapi.json: %v\nopenapi.json paths with no route: %v", missing, stale)
	}
}

func TestSecurityHeaders(t *testing.T) {
	s := newServer(t, testkit.Options{Configure: nil})
	for _, path := range []string{"/", "/api/config", "/api/nope"} {
		r := s.Do(t, "GET", path, "", nil)
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
			if r.Header.Get(h) == "" {
				t.Errorf("%s: no %s", path, h)
			}
		}
		if !strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: CSP lacks frame-ancestors", path)
		}
	}
	// Websockets to this host only, not to any host an injected script names.
	csp := s.Do(t, "GET", "/", "", nil).Header.Get("Content-Security-Policy")
	host := strings.TrimPrefix(s.URL, "http://")
	if !strings.Contains(csp, "connect-src 'self' ws://"+host+" wss://"+host+" ") || strings.Contains(csp, " ws: ") {
		t.Errorf("connect-src: %s", csp)
	}
	req, _ := http.NewRequest("GET", s.URL+"/api/config", nil)
	req.Host = `evil.example; script-src *`
	if csp := s.Send(t, req).Header.Get("Content-Security-Policy"); strings.Contains(csp, "evil") {
		t.Errorf("a forged Host reached the policy: %s", csp)
	}
}

func TestCORS(t *testing.T) {
	s := newServer(t, testkit.Options{Configure: func(c *config.Config) { c.CORSOrigins = []string{"https://league.example"} }})
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", s.URL+"/api/auth/login", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := preflight("https://league.example"); res.Header.Get("Access-Control-Allow-Origin") != "https://league.example" {
		t.Fatalf("listed origin refused: %v", res.Header)
	}
	if res := preflight("https://evil.example"); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("unlisted origin allowed")
	}
}

func TestNotFound(t *testing.T) {
	s := newServer(t, testkit.Options{})
	if r := s.Do(t, "GET", "/api/no-such-thing", "", nil); r.Status != 404 || r.Message() == "" {
		t.Fatalf("api: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"/no-such-page", "/matches/", "/matches/abc", "/admin/other", "/overlay/nope", "/overlay/match/abc"} {
		if r := s.Do(t, "GET", p, "", nil); r.Status != 404 || !strings.Contains(string(r.Body), "<html") {
			t.Fatalf("app %s: %d", p, r.Status)
		}
	}
	for _, p := range []string{"/", "/tournament", "/contact", "/ppt", "/admin", "/admin/matches", "/auction", "/captain", "/matches/12",
		"/overlay/auction", "/overlay/match/12", "/overlay/standings"} {
		if r := s.Do(t, "GET", p, "", nil); r.Status != 200 {
			t.Fatalf("%s: %d", p, r.Status)
		}
	}
}

func TestHealth(t *testing.T) {
	s := newServer(t, testkit.Options{})
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := s.Do(t, "GET", p, "", nil); r.Status != 200 {
			t.Fatalf("%s: %d", p, r.Status)
		}
	}
	// The metrics are not the public's: the app's port does not serve them
	// (cmd/pitlane serves them on METRICS_ADDR).
	if r := s.Do(t, "GET", "/metrics", "", nil); strings.Contains(string(r.Body), "pitlane_http_requests_total") {
		t.Fatalf("the app's port serves the metrics: %d", r.Status)
	}
}

// A stream overlay's document is marked from the server, so a browser
// source never paints the site's background, not even before the script.
func TestOverlayDocumentIsMarked(t *testing.T) {
	s := newServer(t, testkit.Options{})
	for p, want := range map[string]bool{"/overlay/auction": true, "/overlay/match/3": true, "/": false, "/auction": false} {
		r := s.Do(t, "GET", p, "", nil)
		if got := strings.Contains(string(r.Body), `<html class="overlay"`); r.Status != 200 || got != want {
			t.Errorf("%s: %d, marked %v, want %v", p, r.Status, got, want)
		}
	}
}

// An API path with a trailing slash is no API path: every route answers it
// 404 with JSON, as an unknown path (GET /api/tournaments/ listed the
// seasons outside the OpenAPI document).
func TestAPIPathsWithATrailingSlashAreNotFound(t *testing.T) {
	s := newServer(t, testkit.Options{})
	param := regexp.MustCompile(`\{[^}]+\}`)
	seen := 0
	err := chi.Walk(s.App.Handler.(chi.Router), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.ReplaceAll(strings.TrimSuffix(route, "/"), "/*/", "/")
		if !strings.HasPrefix(route, "/api/") || strings.HasSuffix(route, "*") {
			return nil
		}
		seen++
		path := param.ReplaceAllString(route, "1") + "/"
		req, _ := http.NewRequest(method, s.URL+path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		r := s.Send(t, req)
		if r.Status != 404 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || r.Message() == "" {
			t.Errorf("%s %s: %d %q %s, want 404 with a JSON message", method, path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		return nil
	})
	if err != nil || seen < 50 {
		t.Fatalf("walked %d routes: %v", seen, err)
	}
	for _, p := range []string{"/api/tournaments/", "/api/players/", "/api/"} {
		if r := s.Do(t, "GET", p, "", nil); r.Status != 404 || r.Message() == "" {
			t.Errorf("GET %s: %d %s", p, r.Status, r.Body)
		}
	}
}
