package extract

import (
	"os"
	"slices"
)

// RealScreensDir gives the external tests (package extract_test) the
// folder of the real development set that the internal ones use.
var RealScreensDir = realScreensDir

// Sweep tells whether the tests read every capture and every odd
// screenshot (EXTRACT_SWEEP=1, as `make bench-extract` runs them) rather
// than the sample `go test` reads: the sweeps take minutes, the sample
// under a minute and a half, and the sample fails when a sweep would.
func Sweep() bool { return os.Getenv("EXTRACT_SWEEP") != "" }

// Sample is every name under Sweep, else n of them spread evenly over
// their order (the first, then every len/n-th), so that which captures a
// test reads follows from the set, not from a choice by eye.
func Sample(names []string, n int) []string {
	if Sweep() || n >= len(names) {
		return names
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, names[i*len(names)/n])
	}
	return slices.Clip(out)
}
