package api_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/pitlane/pitlane/internal/testkit"
)

// Every label of the HTTP series comes from a fixed set, whatever a client
// sends: a made-up method is "other", a path no route has is one route
// label, and a status is one of the few the server writes. Otherwise anyone
// could grow /metrics (and the API's minutes) without bound.
func TestHTTPSeriesLabelsAreBounded(t *testing.T) {
	s := newServer(t, testkit.Options{})
	send := func(method, path string) {
		req, _ := http.NewRequest(method, s.URL+path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	standard := map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true,
		"OPTIONS": true, "CONNECT": true, "TRACE": true, "other": true}
	series := func() (n int, methods, routes map[string]bool) {
		methods, routes = map[string]bool{}, map[string]bool{}
		fams, err := s.App.Server.Registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fams {
			if f.GetName() != "pitlane_http_requests_total" {
				continue
			}
			for _, m := range f.GetMetric() {
				n++
				for _, l := range m.GetLabel() {
					switch l.GetName() {
					case "method":
						methods[l.GetValue()] = true
					case "route":
						routes[l.GetValue()] = true
					case "status":
						if c, err := strconv.Atoi(l.GetValue()); err != nil || (c < 100 || c > 599) && l.GetValue() != "other" {
							t.Errorf("status label %q", l.GetValue())
						}
					}
				}
			}
		}
		return n, methods, routes
	}
	// The same made-up requests twice over: the second round adds no series.
	round := func(from int) {
		for i := from; i < from+40; i++ {
			m := fmt.Sprintf("X%dMADEUP", i)
			send(m, "/api/config")
			send(m, "/api/tournaments/PPL7")
			send(m, "/")
			send("GET", fmt.Sprintf("/no-such-page-%d", i))
			send("GET", fmt.Sprintf("/api/no-such-path-%d", i))
			send("GET", fmt.Sprintf("/assets/nope-%d.js", i))
		}
	}
	round(0)
	before, methods, routes := series()
	for m := range methods {
		if !standard[m] {
			t.Errorf("method label %q", m)
		}
	}
	for r := range routes {
		if len(r) > 12 && r[:12] == "/no-such-pag" || len(r) > 16 && r[:16] == "/api/no-such-pat" {
			t.Errorf("a path became a route label: %q", r)
		}
	}
	round(1000)
	if after, _, _ := series(); after != before {
		t.Fatalf("made-up requests grew the series from %d to %d", before, after)
	}
}
