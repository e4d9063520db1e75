package metrics

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

func TestQuantileInterpolatesInsideItsBucket(t *testing.T) {
	h := NewHistogram([]float64{1, 2, 4, 8})
	for _, v := range []float64{0.5, 1.5, 1.5, 3, 3, 3, 3, 6, 6, 20} {
		h.Counts[Bucket(h.Bounds, v)]++
	}
	for _, c := range []struct{ q, want float64 }{
		{0.1, 1},    // the first value is the whole first bucket
		{0.3, 2},    // the third closes (1, 2]
		{0.5, 3},    // halfway into (2, 4], which holds 4 values
		{0.85, 7},   // three quarters into (4, 8]
		{0.95, 8},   // the open bucket answers the highest bound
		{0.05, 0.5}, // half of the first bucket, from 0
		{0.70, 4},   // the last of (2, 4]
		{0.75, 5},   // a quarter into (4, 8]
		{0.99, 8},
		{0.20, 1.5},
		{0.40, 2.5},
		{0.60, 3.5},
		{0.80, 6},
		{0.90, 8},
		{0.01, 0.1},
		{0.35, 2.25},
	} {
		if got, ok := h.Quantile(c.q); !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("q%.2f: %g, want %g", c.q, got, c.want)
		}
	}
	if _, ok := NewHistogram([]float64{1}).Quantile(.5); ok {
		t.Error("an empty histogram has a median")
	}
}

func TestBeaconRules(t *testing.T) {
	ok := Beacon{Route: "/matches/:id", Metrics: []Sample{{"LCP", 2100}, {"CLS", 0.1}, {"INP", 40}, {"TTFB", 90}, {"FCP", 800}}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a whole beacon: %v", err)
	}
	for name, b := range map[string]Beacon{
		"RawPath":       {Route: "/matches/12", Metrics: []Sample{{"LCP", 1}}},
		"Query":         {Route: "/tournament?tab=reg", Metrics: []Sample{{"LCP", 1}}},
		"FullURL":       {Route: "https://example.com/", Metrics: []Sample{{"LCP", 1}}},
		"NoMetric":      {Route: "/"},
		"UnknownMetric": {Route: "/", Metrics: []Sample{{"FID", 1}}},
		"Negative":      {Route: "/", Metrics: []Sample{{"TTFB", -1}}},
		"TooLong":       {Route: "/", Metrics: []Sample{{"LCP", 120_001}}},
		"CLSTooLarge":   {Route: "/", Metrics: []Sample{{"CLS", 101}}},
		"NaN":           {Route: "/", Metrics: []Sample{{"INP", math.NaN()}}},
		"Twice":         {Route: "/", Metrics: []Sample{{"LCP", 1}, {"LCP", 2}}},
	} {
		if err := b.Validate(); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	counts := ok.Counts()
	timings := Timings(append(counts, counts...))
	page := timings["/matches/:id"]
	if page["lcp_n"] != 2 || page["cls_n"] != 2 || page["lcp_p75_ms"] < 2000 || page["lcp_p75_ms"] > 2100*1.15 {
		t.Errorf("timings: %v", page)
	}
	if _, ok := page["cls_p75_ms"]; ok {
		t.Error("CLS is a score, not milliseconds")
	}
}

func TestTargetsAgainstTheDeck(t *testing.T) {
	f := Funnel{Steps: []FunnelStep{
		{Step: StepSignedUp, Count: 10}, {Step: StepVerified, Count: 10},
		{Step: StepDiscord, Count: 9, Detail: map[string]int{"proven": 9}}, {Step: StepStats, Count: 9},
		{Step: StepRegistered, Count: 7},
	}}
	lcp, api, errRate := 2400.0, 620.0, 0.004
	got := map[string]Target{}
	for _, tg := range Targets(Figures{Participants: 32, RegisteredUsers: 99, Funnel: f, PageLoadMs: &lcp, APIp95Ms: &api, ErrorRate: &errRate}) {
		got[tg.ID] = tg
	}
	for id, want := range map[string]struct {
		ok      *bool
		display string
	}{
		"participants":     {yes, "32"},
		"registered_users": {no, "99"},
		"flow_completion":  {no, "70%"},
		"discord_linked":   {yes, "90%"},
		"page_load":        {yes, "2.4 s"},
		"api_response":     {no, "620 ms"},
		"error_rate":       {yes, "0.4%"},
		"uptime":           {nil, "—"},
	} {
		g := got[id]
		if g.Display != want.display || (g.OK == nil) != (want.ok == nil) || (g.OK != nil && *g.OK != *want.ok) {
			t.Errorf("%s: %+v (ok %v), want %s ok %v", id, g, deref(g.OK), want.display, deref(want.ok))
		}
	}
	up := 0.9995
	for _, tg := range Targets(Figures{Uptime: &up}) {
		if tg.ID == "uptime" && (tg.Display != "99.95%" || !*tg.OK) {
			t.Errorf("uptime: %+v", tg)
		}
		if tg.ID == "flow_completion" && tg.Value != nil {
			t.Errorf("a share of no sign-ups: %+v", tg)
		}
	}
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func TestWindows(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	season := now.Add(-40 * 24 * time.Hour)
	for since, want := range map[string]time.Time{
		"":                     season,
		"season":               season,
		"hour":                 now.Add(-time.Hour),
		"day":                  now.Add(-24 * time.Hour),
		"2026-11-27T18:00:00Z": time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC),
	} {
		w, err := ParseWindow(since, season, now)
		if err != nil || !w.Since.Equal(want) {
			t.Errorf("%q: %v %v, want %v", since, w.Since, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "2026-12-01T00:00:00Z", "1h"} {
		if _, err := ParseWindow(bad, season, now); err == nil || !strings.Contains(errs.MessageOf(err), "since must be") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for since, want := range map[string]Resolution{"hour": ByMinute, "day": ByHour, "season": ByDay} {
		w, _ := ParseWindow(since, season, now)
		if got := w.Resolution(now); got != want {
			t.Errorf("%s: %s, want %s", since, got, want)
		}
	}
}

// The page-load goal: nothing before enough clients' loads, and a few
// hostile clients (one load a day each counts) do not move what many
// honest ones say; many slow ones do.
func TestPageLoadGoalResistsAFewClients(t *testing.T) {
	loads := func(n int, ms float64) []RUMCount {
		c, _ := Beacon{Route: "/", Metrics: []Sample{{"LCP", ms}}}.goalCount()
		c.N = int64(n)
		return []RUMCount{c}
	}
	if v := PageLoadGoal(loads(MinGoalLoads-1, 1200)); v != nil {
		t.Fatalf("%d loads gave %g", MinGoalLoads-1, *v)
	}
	honest := loads(20, 1200)
	base := PageLoadGoal(honest)
	if base == nil || *base < 1000 || *base > 1400 {
		t.Fatalf("20 loads at 1.2 s: %v", base)
	}
	withHostile := PageLoadGoal(append(honest, loads(4, 90_000)...))
	// Within 1.2 s's bucket (15 % wide): the hostile loads are not a quarter.
	if withHostile == nil || *withHostile < 1200/1.15 || *withHostile > 1200*1.15 {
		t.Fatalf("4 clients at 90 s moved %g to %v", *base, withHostile)
	}
	slow := PageLoadGoal(append(append(honest, loads(4, 90_000)...), loads(30, 4000)...))
	if slow == nil || *slow < 3000 || *slow > 90_000*0.5 {
		t.Fatalf("30 more at 4 s: %v, want about 4 s", slow)
	}
	// The pages' own timings never show the goal's values.
	if _, ok := Timings(honest)[GoalRoute]; ok {
		t.Fatal("the goal's route shows among the pages")
	}
}
