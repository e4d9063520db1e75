package metrics

import (
	"math"
	"sort"
	"strings"
	"time"
)

// APIBounds are the buckets of pitlane_http_request_seconds, in seconds.
var APIBounds = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// APIRow is one route's requests over some time, as kept: "GET
// /api/tournaments/{name}", the requests, the 5xx answers among them, and
// the latency histogram's counts over APIBounds (+Inf last).
type APIRow struct {
	Route    string
	Requests int64
	Errors   int64
	Buckets  []int64
}

// IsAPI tells a route the API's figures count: the calls under /api, but
// not the websocket, whose "request" lasts as long as the connection.
func IsAPI(route string) bool {
	_, path, _ := strings.Cut(route, " ")
	return strings.HasPrefix(path, "/api/") && path != "/api/ws"
}

// APIFigures are the API's timings and errors over a window, across every
// instance: the whole and each route.
type APIFigures struct {
	Requests  int64          `json:"requests"`
	Errors    int64          `json:"errors"`
	ErrorRate *float64       `json:"error_rate"`
	P50Ms     *float64       `json:"p50_ms"`
	P75Ms     *float64       `json:"p75_ms"`
	P95Ms     *float64       `json:"p95_ms"`
	P99Ms     *float64       `json:"p99_ms"`
	Routes    []RouteFigures `json:"routes"`
}

// RouteFigures are one route's.
type RouteFigures struct {
	Route     string   `json:"route"`
	Requests  int64    `json:"requests"`
	ErrorRate float64  `json:"error_rate"`
	P50Ms     *float64 `json:"p50_ms"`
	P75Ms     *float64 `json:"p75_ms"`
	P95Ms     *float64 `json:"p95_ms"`
}

// MaxRoutesListed bounds the routes an answer lists (the busiest).
const MaxRoutesListed = 25

// SummarizeAPI adds rows up into the API's figures.
func SummarizeAPI(rows []APIRow) APIFigures {
	var out APIFigures
	all := NewHistogram(APIBounds)
	byRoute := map[string]*APIRow{}
	for _, r := range rows {
		if !IsAPI(r.Route) {
			continue
		}
		out.Requests += r.Requests
		out.Errors += r.Errors
		all.Add(r.Buckets)
		acc := byRoute[r.Route]
		if acc == nil {
			acc = &APIRow{Route: r.Route, Buckets: make([]int64, len(APIBounds)+1)}
			byRoute[r.Route] = acc
		}
		acc.Requests += r.Requests
		acc.Errors += r.Errors
		h := Histogram{Bounds: APIBounds, Counts: acc.Buckets}
		h.Add(r.Buckets)
	}
	if out.Requests > 0 {
		rate := float64(out.Errors) / float64(out.Requests)
		out.ErrorRate = &rate
	}
	out.P50Ms, out.P75Ms, out.P95Ms, out.P99Ms = ms(all, .5), ms(all, .75), ms(all, .95), ms(all, .99)
	for _, r := range byRoute {
		h := Histogram{Bounds: APIBounds, Counts: r.Buckets}
		rf := RouteFigures{Route: r.Route, Requests: r.Requests, P50Ms: ms(h, .5), P75Ms: ms(h, .75), P95Ms: ms(h, .95)}
		if r.Requests > 0 {
			rf.ErrorRate = float64(r.Errors) / float64(r.Requests)
		}
		out.Routes = append(out.Routes, rf)
	}
	sort.Slice(out.Routes, func(i, j int) bool {
		a, b := out.Routes[i], out.Routes[j]
		if a.Requests != b.Requests {
			return a.Requests > b.Requests
		}
		return a.Route < b.Route
	})
	if len(out.Routes) > MaxRoutesListed {
		out.Routes = out.Routes[:MaxRoutesListed]
	}
	if out.Routes == nil {
		out.Routes = []RouteFigures{}
	}
	return out
}

// ms is h's q-quantile in milliseconds, nil when h is empty.
func ms(h Histogram, q float64) *float64 {
	v, ok := h.Quantile(q)
	if !ok {
		return nil
	}
	v = math.Round(v*1000*10) / 10
	return &v
}

// APIPoint is the API over one stretch of a chart: its requests, errors and
// latency counts (every API route).
type APIPoint struct {
	At       time.Time `json:"at"`
	Requests int64     `json:"requests"`
	Errors   int64     `json:"errors"`
	P95Ms    *float64  `json:"p95_ms"`
	Buckets  []int64   `json:"-"`
}

// RUMPoint is the page loads over one stretch of a chart: LCP at p75 over
// every page, and how many loads.
type RUMPoint struct {
	At      time.Time `json:"at"`
	LCPp75  *float64  `json:"lcp_p75_ms"`
	Samples int64     `json:"samples"`
}
