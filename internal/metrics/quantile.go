package metrics

import "math"

// Histogram is counts per bucket: Counts[i] counts the values at most
// Bounds[i] (and above Bounds[i-1]); the last count, one past the bounds,
// the values above them all. Counts are not cumulative.
type Histogram struct {
	Bounds []float64
	Counts []int64
}

// NewHistogram is an empty histogram over bounds.
func NewHistogram(bounds []float64) Histogram {
	return Histogram{Bounds: bounds, Counts: make([]int64, len(bounds)+1)}
}

// Bucket is the index of the bucket v falls in.
func Bucket(bounds []float64, v float64) int {
	lo, hi := 0, len(bounds)
	for lo < hi {
		mid := (lo + hi) / 2
		if v <= bounds[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Add adds other's counts (over the same bounds).
func (h *Histogram) Add(other []int64) {
	for i, n := range other {
		if i < len(h.Counts) {
			h.Counts[i] += n
		}
	}
}

// N is how many values the histogram holds.
func (h Histogram) N() int64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Quantile estimates the q-quantile (0 < q < 1) as Prometheus's
// histogram_quantile does: it finds the bucket holding the rank and
// interpolates linearly inside it; a rank in the last, open bucket is the
// highest bound. ok is false for an empty histogram.
func (h Histogram) Quantile(q float64) (v float64, ok bool) {
	n := h.N()
	if n == 0 || len(h.Bounds) == 0 {
		return 0, false
	}
	rank := q * float64(n)
	var below int64
	for i, c := range h.Counts {
		if c == 0 || float64(below+c) < rank {
			below += c
			continue
		}
		if i == len(h.Bounds) {
			return h.Bounds[len(h.Bounds)-1], true
		}
		lower := 0.0
		if i > 0 {
			lower = h.Bounds[i-1]
		}
		return lower + (h.Bounds[i]-lower)*(rank-float64(below))/float64(c), true
	}
	return h.Bounds[len(h.Bounds)-1], true
}

// geometric is bounds from first, each factor times the one before, up to
// the first at or past last.
func geometric(first, factor, last float64) []float64 {
	var out []float64
	for b := first; ; b *= factor {
		out = append(out, math.Round(b*1e4)/1e4)
		if b >= last {
			return out
		}
	}
}
