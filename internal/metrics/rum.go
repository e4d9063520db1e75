package metrics

import (
	"math"
	"slices"
	"strings"

	"github.com/pitlane/pitlane/internal/errs"
)

// A Vital is one of the web-vitals a browser reports of a page load.
type Vital struct {
	Name string // as web-vitals names it: LCP, INP, CLS, TTFB, FCP
	Key  string // the answer's prefix: lcp_p75_ms
	// Unit is "ms", or "" for CLS, a score with no unit.
	Unit string
	// Max is the largest value taken; a larger one is refused with the
	// beacon (a clock gone wrong, or made up).
	Max    float64
	Bounds []float64
}

// Bounds of the vitals' histograms: 15 % apart, so a percentile read from
// them is within about 7 % of the one the raw values would give.
var (
	msBounds    = geometric(10, 1.15, 60_000) // 10 ms to a minute
	scoreBounds = geometric(0.001, 1.15, 10)  // layout shift scores
)

// Vitals are the metrics a beacon may carry, in the order pages show them.
var Vitals = []Vital{
	{Name: "LCP", Key: "lcp", Unit: "ms", Max: 120_000, Bounds: msBounds},
	{Name: "INP", Key: "inp", Unit: "ms", Max: 120_000, Bounds: msBounds},
	{Name: "CLS", Key: "cls", Max: 100, Bounds: scoreBounds},
	{Name: "TTFB", Key: "ttfb", Unit: "ms", Max: 120_000, Bounds: msBounds},
	{Name: "FCP", Key: "fcp", Unit: "ms", Max: 120_000, Bounds: msBounds},
}

// VitalNamed is the vital called name.
func VitalNamed(name string) (Vital, bool) {
	i := slices.IndexFunc(Vitals, func(v Vital) bool { return v.Name == name })
	if i < 0 {
		return Vital{}, false
	}
	return Vitals[i], true
}

// Routes are the site's pages as a beacon names them: the web app's
// router's patterns (web/src/lib/page-patterns.json, which a test keeps
// equal to these), never a path with an id or a query in it, so what is
// kept says which page was slow and nothing of who looked at what. "other"
// is any path no page has (the not-found page).
var Routes = []string{
	"/", "/tournament", "/contact", "/auction", "/captain", "/admin", "/admin/matches", "/admin/metrics",
	"/matches/:id", "/players/:id", "/tournaments/:name/teams/:team", "/league", "/search", "/streams",
	"/ppt", "/notifications/off", "/overlay/auction", "/overlay/match/:id", "/overlay/standings",
	"/rooms", "/rooms/:id",
	"other",
}

// MaxBeacon bounds a beacon's body: five metrics and a route need far less.
const MaxBeacon = 4 << 10

// Beacon is what a browser sends of one page load (POST /api/rum).
type Beacon struct {
	Route   string   `json:"route"`
	Metrics []Sample `json:"metrics"`
}

// Sample is one vital's value.
type Sample struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Validate checks a beacon: a known route, known metrics each at most once,
// values in range.
func (b Beacon) Validate() error {
	if !slices.Contains(Routes, b.Route) {
		return errs.E(errs.Invalid, "route must be one of the site's page patterns, such as /tournament or /matches/:id")
	}
	if len(b.Metrics) == 0 || len(b.Metrics) > len(Vitals) {
		return errs.E(errs.Invalid, "metrics must hold from 1 to %d values", len(Vitals))
	}
	seen := map[string]bool{}
	for _, s := range b.Metrics {
		v, ok := VitalNamed(s.Name)
		if !ok {
			names := make([]string, len(Vitals))
			for i, v := range Vitals {
				names[i] = v.Name
			}
			return errs.E(errs.Invalid, "Unknown metric %q: metrics are %s", errs.Echo(s.Name), strings.Join(names, ", "))
		}
		if seen[s.Name] {
			return errs.E(errs.Invalid, "Metric %s is given twice", s.Name)
		}
		seen[s.Name] = true
		if math.IsNaN(s.Value) || s.Value < 0 || s.Value > v.Max {
			return errs.E(errs.Invalid, "Metric %s must be from 0 to %g", s.Name, v.Max)
		}
	}
	return nil
}

// RUMCount is one bucket's count of a vital on a page, as kept.
type RUMCount struct {
	Route, Metric string
	Bucket        int
	N             int64
}

// Counts are the beacon's values as bucket counts.
func (b Beacon) Counts() []RUMCount {
	out := make([]RUMCount, 0, len(b.Metrics))
	for _, s := range b.Metrics {
		v, _ := VitalNamed(s.Name)
		out = append(out, RUMCount{Route: b.Route, Metric: s.Name, Bucket: Bucket(v.Bounds, s.Value), N: 1})
	}
	return out
}

// RouteTimings are one page's vitals: for each, its p50, p75 and p95
// (lcp_p75_ms, cls_p75, ...) and how many values they come of (lcp_n).
type RouteTimings map[string]float64

// Timings turns bucket counts into each page's percentiles.
func Timings(counts []RUMCount) map[string]RouteTimings {
	hists := map[[2]string]*Histogram{}
	for _, c := range counts {
		v, ok := VitalNamed(c.Metric)
		if !ok {
			continue
		}
		k := [2]string{c.Route, c.Metric}
		h := hists[k]
		if h == nil {
			nh := NewHistogram(v.Bounds)
			h = &nh
			hists[k] = h
		}
		if c.Bucket >= 0 && c.Bucket < len(h.Counts) {
			h.Counts[c.Bucket] += c.N
		}
	}
	out := map[string]RouteTimings{}
	for k, h := range hists {
		v, _ := VitalNamed(k[1])
		rt := out[k[0]]
		if rt == nil {
			rt = RouteTimings{}
			out[k[0]] = rt
		}
		for _, q := range []struct {
			name string
			q    float64
		}{{"p50", .5}, {"p75", .75}, {"p95", .95}} {
			if x, ok := h.Quantile(q.q); ok {
				rt[vitalKey(v, q.name)] = round(x, v)
			}
		}
		rt[v.Key+"_n"] = float64(h.N())
	}
	return out
}

// vitalKey is a percentile's name in the answer: lcp_p75_ms, cls_p75.
func vitalKey(v Vital, p string) string {
	if v.Unit == "" {
		return v.Key + "_" + p
	}
	return v.Key + "_" + p + "_" + v.Unit
}

func round(x float64, v Vital) float64 {
	if v.Unit == "" {
		return math.Round(x*1000) / 1000
	}
	return math.Round(x)
}
