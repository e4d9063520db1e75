package extract

// The Stats panel's bars given the game's labels, in the game's order
// (panelSlots), at the least cost of the labels' matches.

import (
	"slices"

	"github.com/pitlane/pitlane/internal/core"
)

// alignSlots gives each bar a slot of panelSlots, or -1: slots in the
// game's order, each used once, skipped when the build lacks it, at the
// least total cost (a bar left without a slot costs unmatched). A slot
// every build shows (all but Games) skipped between bars costs unmatched
// too: a label blurred past unmatched between Kills and Deaths is still
// Bots Kills (matched up to loosely), and a Wins bar whose label looks a
// little more like Games is Wins, since Games never comes without it.
// Slots before the first bar and after the last are free to skip (a crop).
func alignSlots(costs [][]float64) []int {
	n, m := len(costs), len(panelSlots)
	everyBuild := func(j int) bool { return panelSlots[j].field != core.FieldGames }
	skip := func(i, j int) float64 {
		if i > 0 && everyBuild(j) {
			return unmatched
		}
		return 0
	}
	// best[i][j]: least cost of bars i.. with slots j.. free.
	best := make([][]float64, n+1)
	for i := range best {
		best[i] = make([]float64, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		best[i][m] = best[i+1][m] + unmatched
		for j := m - 1; j >= 0; j-- {
			b := min(best[i][j+1]+skip(i, j), best[i+1][j]+unmatched)
			if costs[i][j] < loosely {
				b = min(b, best[i+1][j+1]+costs[i][j])
			}
			best[i][j] = b
		}
	}
	out := make([]int, n)
	for i, j := 0, 0; i < n; {
		switch {
		case j < m && costs[i][j] < loosely && best[i][j] == best[i+1][j+1]+costs[i][j]:
			out[i] = j
			i, j = i+1, j+1
		case j < m && best[i][j] == best[i][j+1]+skip(i, j):
			j++
		default:
			out[i] = -1
			i++
		}
	}
	// The bar right above the first one given a slot takes the slot before
	// it when it matches loosely, and the bar right below the last the
	// slot after it, if every build shows that one: skipping the slots
	// beyond the first and last bars is free (a crop), so a blurred Kills
	// just past unmatched over a Bots Kills would otherwise be left out,
	// and the bar stands there.
	matched := func(j int) bool { return j >= 0 }
	if f := slices.IndexFunc(out, matched); f > 0 && out[f] > 0 && costs[f-1][out[f]-1] < loosely {
		out[f-1] = out[f] - 1
	}
	if l := lastIndexFunc(out, matched); l >= 0 && l+1 < n && out[l]+1 < m && everyBuild(out[l]+1) && costs[l+1][out[l]+1] < loosely {
		out[l+1] = out[l] + 1
	}
	return out
}

// lastIndexFunc is the last index of s satisfying f, or -1.
func lastIndexFunc(s []int, f func(int) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// loosely is the worst a label may match and still be given its slot, when
// skipping the slot would cost more (alignSlots); only labels matching
// better than unmatched count towards telling the Stats panel from other
// stacks of bars.
const loosely = 0.6
