package bracket

import (
	"math/bits"
	"slices"
	"sort"
)

// A Swiss stage plays a set number of rounds; each round pairs teams with
// the same score where it can, never the same two teams twice while any
// other pairing is possible, and with an odd count one team sits the round
// out (a bye, worth a win). Its standings rank by points (wins and byes),
// then Buchholz (the points of the opponents a team played: a win over
// strong teams counts for more), then kill difference, then the seed.

// Pair is one match of a Swiss round, by team.
type Pair struct{ Home, Away string }

// SwissScoring is a Swiss stage's: a win or a bye is a point, and kills
// give none (they break ties instead).
var SwissScoring = Scoring{Win: 1}

// SwissTieBreak is the order the Swiss standings rank by, as the page
// states it.
var SwissTieBreak = []string{"points", "Buchholz", "kill difference", "seed"}

// SwissStandings ranks a Swiss stage: teams in seed order (teams[0] is
// seed 1), rounds[r] the pairs made for round r+1, played or not (a team in
// none of a round's pairs has that round's bye, unless it had withdrawn by
// then: gone), results its completed matches. A withdrawn team stays in the
// standings with what it won.
func SwissStandings(teams []string, rounds [][]Pair, results []Result, gone Withdrawn) []Row {
	rows := tally(teams, results)
	for r, round := range rounds {
		for _, t := range teams {
			if sitsOut(round, t) && gone.inRound(t, r+1) {
				rows[t].Byes++
			}
		}
	}
	for _, row := range rows {
		row.Points = (row.Won+row.Byes)*SwissScoring.Win + row.Lost*SwissScoring.Loss
	}
	for _, r := range results {
		rows[r.Home].Buchholz += rows[r.Away].Points
		rows[r.Away].Buchholz += rows[r.Home].Points
	}
	out := make([]Row, 0, len(rows))
	for _, row := range rows {
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Points != b.Points:
			return a.Points > b.Points
		case a.Buchholz != b.Buchholz:
			return a.Buchholz > b.Buchholz
		case a.KillDiff != b.KillDiff:
			return a.KillDiff > b.KillDiff
		case seedOf(teams, a.Team) != seedOf(teams, b.Team):
			return seedOf(teams, a.Team) < seedOf(teams, b.Team)
		}
		return a.Team < b.Team
	})
	return out
}

// sitsOut says whether team t has the bye of round (it is in none of its
// pairs).
func sitsOut(round []Pair, t string) bool {
	return !slices.ContainsFunc(round, func(p Pair) bool { return p.Home == t || p.Away == t })
}

// seedOf is t's place in teams (from 1), after them all when it is not
// there.
func seedOf(teams []string, t string) int {
	if i := slices.Index(teams, t); i >= 0 {
		return i + 1
	}
	return len(teams) + 1
}

// SwissRound pairs the next round of a Swiss stage (len(rounds)+1) from
// the standings so far (teams, rounds, results and gone as SwissStandings
// takes them). Home and Away are seeds (the team's place in teams, from 1),
// the better-ranked at home. A withdrawn team is paired no more: the bye
// (with an odd count of the teams still in) goes among those still in.
func SwissRound(teams []string, rounds [][]Pair, results []Result, gone Withdrawn) []Match {
	seed := map[string]int{}
	for i, t := range teams {
		seed[t] = i + 1
	}
	next := len(rounds) + 1
	p := pairing{met: map[[2]int]bool{}, hadBye: map[int]bool{}}
	for _, row := range SwissStandings(teams, rounds, results, gone) {
		if s := seed[row.Team]; s > 0 && gone.inRound(row.Team, next) {
			p.ranked = append(p.ranked, s)
			p.points = append(p.points, row.Points)
		}
	}
	for r, round := range rounds {
		for _, pr := range round {
			a, b := seed[pr.Home], seed[pr.Away]
			p.met[[2]int{a, b}], p.met[[2]int{b, a}] = true, true
		}
		for _, t := range teams {
			if sitsOut(round, t) && gone.inRound(t, r+1) {
				p.hadBye[seed[t]] = true
			}
		}
	}
	return p.round(next)
}

// swissFirstRound pairs n teams nobody has seen play: by seed alone.
func swissFirstRound(n int) []Match {
	p := pairing{met: map[[2]int]bool{}, hadBye: map[int]bool{}}
	for s := 1; s <= n; s++ {
		p.ranked = append(p.ranked, s)
		p.points = append(p.points, 0)
	}
	return p.round(1)
}

// pairing is one Swiss round to pair: seeds ranked best first (by points
// first), their points, who met whom and who had a bye already.
type pairing struct {
	ranked []int
	points []int
	met    map[[2]int]bool
	hadBye map[int]bool
	memo   map[uint32]int
}

// round pairs the ranked teams. With an odd count the bye goes to the
// lowest-ranked team without one, unless giving it to them forces more
// rematches than giving it to another such team. The rest are paired with
// as few rematches as possible (none while any pairing has none); among
// those pairings, the best-ranked team left takes the first opponent it
// can by preference: a team on the same points, the lowest-ranked of them
// first (so 1 v 8, 2 v 7 … within a group of eight), else the closest in
// points below.
func (p *pairing) round(number int) []Match {
	p.memo = map[uint32]int{}
	all := uint32(1)<<len(p.ranked) - 1
	if len(p.ranked)%2 == 1 {
		var candidates []int // positions, the lowest-ranked first
		for i := len(p.ranked) - 1; i >= 0; i-- {
			if !p.hadBye[p.ranked[i]] {
				candidates = append(candidates, i)
			}
		}
		if len(candidates) == 0 {
			for i := len(p.ranked) - 1; i >= 0; i-- {
				candidates = append(candidates, i)
			}
		}
		bye, least := -1, 0
		for _, i := range candidates {
			if c := p.cost(all &^ (1 << i)); bye < 0 || c < least {
				bye, least = i, c
			}
		}
		all &^= 1 << bye
	}
	var out []Match
	for mask := all; mask != 0; {
		i := bits.TrailingZeros32(mask)
		for _, j := range p.prefs(i, mask) {
			rest := mask &^ (1<<i | 1<<j)
			if p.rematch(i, j)+p.cost(rest) == p.cost(mask) {
				out = append(out, Match{Round: number, Slot: len(out), Stage: StageSwiss, Home: p.ranked[i], Away: p.ranked[j], Next: -1})
				mask = rest
				break
			}
		}
	}
	return out
}

// cost is the fewest rematches a pairing of the teams at mask's positions
// needs.
func (p *pairing) cost(mask uint32) int {
	if mask == 0 {
		return 0
	}
	if c, ok := p.memo[mask]; ok {
		return c
	}
	i := bits.TrailingZeros32(mask)
	best := -1
	for _, j := range p.prefs(i, mask) {
		if c := p.rematch(i, j) + p.cost(mask&^(1<<i|1<<j)); best < 0 || c < best {
			best = c
		}
	}
	p.memo[mask] = best
	return best
}

func (p *pairing) rematch(i, j int) int {
	if p.met[[2]int{p.ranked[i], p.ranked[j]}] {
		return 1
	}
	return 0
}

// prefs are the positions in mask that i would rather play, first to
// last; i is the best-ranked in mask, so none has more points.
func (p *pairing) prefs(i int, mask uint32) []int {
	var out []int
	for m := mask &^ (1 << i); m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m))
	}
	sort.Slice(out, func(x, y int) bool {
		a, b := out[x], out[y]
		if p.points[a] != p.points[b] {
			return p.points[a] > p.points[b]
		}
		return a > b
	})
	return out
}
