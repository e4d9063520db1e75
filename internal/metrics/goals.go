package metrics

// The page-load goal resists a few clients. Page timings come from anyone's
// browser without a sign-in, so a client may send what it likes: LCPs of
// 90 s, as many as the rate limit lets it (one such beacon made the public
// figure 66.7 s). The pages' timings keep every value, for organisers; the
// goal, which the deck shows anyone, reads:
//
//   - one page load per client a day: a client's first LCP in 24 hours (its
//     address, or an IPv6 client's /64, as the rate limits reckon it) counts,
//     its others do not, so a client weighs as much as any one browser however
//     much it sends;
//   - nothing before MinGoalLoads of these in the window: with fewer, a
//     handful of clients would be the figure;
//   - then LCP's p75 over them: a few clients, however slow they say they
//     were, are not a quarter of the loads, and many browsers that were slow
//     still move it.

// MinGoalLoads is how many clients' daily page loads the page-load goal
// needs before it shows a figure.
const MinGoalLoads = 20

// GoalMetric is the goal's LCP values, kept beside the pages' under the
// route GoalRoute: no beacon can name either (neither is a page or a vital).
const (
	GoalMetric = "LCP-client-day"
	GoalRoute  = "*"
)

// goalCount is the beacon's LCP as a count toward the goal, if it has one.
func (b Beacon) goalCount() (RUMCount, bool) {
	for _, s := range b.Metrics {
		if s.Name == "LCP" {
			return RUMCount{Route: GoalRoute, Metric: GoalMetric, Bucket: Bucket(msBounds, s.Value), N: 1}, true
		}
	}
	return RUMCount{}, false
}

// PageLoadGoal is the page-load goal's figure from the window's counts: LCP
// at p75 over the clients' daily page loads, nil with fewer than
// MinGoalLoads of them.
func PageLoadGoal(counts []RUMCount) *float64 {
	h := NewHistogram(msBounds)
	for _, c := range counts {
		if c.Metric == GoalMetric && c.Bucket >= 0 && c.Bucket < len(h.Counts) {
			h.Counts[c.Bucket] += c.N
		}
	}
	if h.N() < MinGoalLoads {
		return nil
	}
	v, ok := h.Quantile(.75)
	if !ok {
		return nil
	}
	v = float64(int64(v + .5))
	return &v
}
