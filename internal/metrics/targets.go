package metrics

import (
	"fmt"
	"math"
	"strconv"
)

// The deck's goals ("Success Metrics & Goals"), each measured here.
const (
	GoalParticipants    = 32    // confirmed registrations of the season
	GoalRegisteredUsers = 100   // verified accounts
	GoalFlowCompletion  = 0.80  // of the window's sign-ups, registered for the season
	GoalDiscordLinked   = 0.90  // of the window's verified accounts, with a proven Discord link
	GoalPageLoadMs      = 3000  // LCP at p75, every page
	GoalAPIMs           = 500   // API answers at p95
	GoalUptime          = 0.999 // minutes with an instance up
	GoalErrorRate       = 0.01  // API answers that were 5xx
)

// Target is one goal with what was measured: Value and OK are null while
// there is nothing to measure (no page timings yet, no request).
type Target struct {
	ID      string   `json:"id"`
	Label   string   `json:"label"`
	Goal    string   `json:"goal"`
	Value   *float64 `json:"value"`
	Display string   `json:"display"`
	OK      *bool    `json:"ok"`
}

// Figures are what the targets are measured from.
type Figures struct {
	Participants    int
	RegisteredUsers int
	Funnel          Funnel
	PageLoadMs      *float64 // LCP p75 over every page
	APIp95Ms        *float64
	ErrorRate       *float64
	Uptime          *float64
}

// Targets measures the deck's goals.
func Targets(f Figures) []Target {
	signedUp, verified := f.Funnel.Count(StepSignedUp), f.Funnel.Count(StepVerified)
	registered := f.Funnel.Count(StepRegistered)
	proven := 0
	if s := f.Funnel.Step(StepDiscord); s != nil {
		proven = s.Detail["proven"]
	}
	count := func(n int) *float64 { v := float64(n); return &v }
	return []Target{
		atLeast("participants", "tournament participants", strconv.Itoa(GoalParticipants), count(f.Participants), GoalParticipants, plain),
		atLeast("registered_users", "registered users", strconv.Itoa(GoalRegisteredUsers)+"+", count(f.RegisteredUsers), GoalRegisteredUsers, plain),
		atLeast("flow_completion", "complete the 4-step flow", percent(GoalFlowCompletion)+"+", share(registered, signedUp), GoalFlowCompletion, percent),
		atLeast("discord_linked", "Discord linked", percent(GoalDiscordLinked)+"+", share(proven, verified), GoalDiscordLinked, percent),
		below("page_load", "page load (LCP, p75)", "< 3 s", f.PageLoadMs, GoalPageLoadMs, duration),
		below("api_response", "API response (p95)", "< 500 ms", f.APIp95Ms, GoalAPIMs, duration),
		atLeast("uptime", "uptime", percent(GoalUptime), f.Uptime, GoalUptime, percent),
		below("error_rate", "error rate", "< 1%", f.ErrorRate, GoalErrorRate, percent),
	}
}

func share(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	v := float64(n) / float64(of)
	return &v
}

func atLeast(id, label, goal string, v *float64, min float64, show func(float64) string) Target {
	t := Target{ID: id, Label: label, Goal: goal, Value: v, Display: "—"}
	if v != nil {
		ok := *v >= min
		t.OK, t.Display = &ok, show(*v)
	}
	return t
}

func below(id, label, goal string, v *float64, max float64, show func(float64) string) Target {
	t := Target{ID: id, Label: label, Goal: goal, Value: v, Display: "—"}
	if v != nil {
		ok := *v < max
		t.OK, t.Display = &ok, show(*v)
	}
	return t
}

func plain(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// percent shows a share: 84%, 99.95%, 0.4%.
func percent(v float64) string {
	p := math.Round(v*10000) / 100
	switch {
	case p == math.Trunc(p):
		return fmt.Sprintf("%.0f%%", p)
	case p >= 99 || p < 1:
		return strconv.FormatFloat(p, 'f', -1, 64) + "%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// duration shows milliseconds: 420 ms, 1.9 s.
func duration(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}
