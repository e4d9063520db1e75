package bracket

import (
	"fmt"
	"slices"
)

// A knockout is drawn at full size (the next power of two, the seeds in the
// standard order) and then the byes are taken out: a match with one team is
// not played, that team goes straight on to where its winner would; a match
// with none is not there at all. The same holds in a double elimination's
// losers bracket, where a bye of the first round leaves a loser missing.

// entrant is where a team of a drawn match comes from: a seed, or the
// winner or loser of an earlier drawn match (from is its index + 1).
type entrant struct {
	seed  int
	from  int
	loser bool
}

func (e entrant) nobody() bool { return e.seed == 0 && e.from == 0 }

func winnerOf(i int) entrant { return entrant{from: i + 1} }
func loserOf(i int) entrant  { return entrant{from: i + 1, loser: true} }

// drawn is a match of the full-size draw.
type drawn struct {
	stage       string
	round, slot int
	in          [2]entrant // home, away
}

// knockout is a single elimination for n teams or, with double, a double
// elimination: the same winners bracket, whose losers drop into a losers
// bracket (a second loss is out), and a grand final between the two
// brackets' champions, the winners' at home.
//
// The losers bracket of a draw of 2^k has 2(k-1) rounds: its first pairs the
// losers of the winners' first round; then, in turn, the losers of the
// winners' next round drop in against its survivors, and the survivors play
// each other, until the winners' final's loser meets the last survivor.
// Losers drop in the reverse order of their round, so that two teams that
// have just met do not meet again at once.
func knockout(n int, double bool) []Match {
	size, rounds := 1, 0
	for size < n {
		size *= 2
		rounds++
	}
	seeds := Seeding(size)
	var draw []drawn
	add := func(d drawn) int {
		draw = append(draw, d)
		return len(draw) - 1
	}
	winners := make([][]int, rounds+1) // winners[r]: the draw's matches of round r
	for r := 1; r <= rounds; r++ {
		stage := knockoutStage(r, rounds)
		if double {
			stage = StageWinners
		}
		for slot := 0; slot < size>>r; slot++ {
			d := drawn{stage: stage, round: r, slot: slot}
			if r == firstRound {
				d.in = [2]entrant{{seed: seeds[2*slot]}, {seed: seeds[2*slot+1]}}
			} else {
				d.in = [2]entrant{winnerOf(winners[r-1][2*slot]), winnerOf(winners[r-1][2*slot+1])}
			}
			winners[r] = append(winners[r], add(d))
		}
	}
	if !double {
		return resolve(draw, n)
	}
	final := winners[rounds][0]
	second := loserOf(final) // two teams: the losers' champion is the final's loser
	if rounds >= 2 {
		var survivors []int
		for slot := 0; slot < size/4; slot++ {
			survivors = append(survivors, add(drawn{stage: StageLosers, round: 1, slot: slot,
				in: [2]entrant{loserOf(winners[1][2*slot]), loserOf(winners[1][2*slot+1])}}))
		}
		round := 1
		for r := 2; r <= rounds; r++ {
			drop := winners[r]
			round++
			next := make([]int, len(survivors))
			for slot := range survivors {
				next[slot] = add(drawn{stage: StageLosers, round: round, slot: slot,
					in: [2]entrant{loserOf(drop[len(drop)-1-slot]), winnerOf(survivors[slot])}})
			}
			survivors = next
			if r == rounds {
				break
			}
			round++
			next = make([]int, len(survivors)/2)
			for slot := range next {
				next[slot] = add(drawn{stage: StageLosers, round: round, slot: slot,
					in: [2]entrant{winnerOf(survivors[2*slot]), winnerOf(survivors[2*slot+1])}})
			}
			survivors = next
		}
		second = winnerOf(survivors[0])
	}
	add(drawn{stage: StageGrandFinal, round: 1, in: [2]entrant{winnerOf(final), second}})
	return resolve(draw, n)
}

// resolve takes the byes out of a draw for n teams (seeds above n are
// missing) and wires each played match to where its winner, and its loser,
// go next. A losers bracket's rounds left without a match are skipped, so
// its rounds count from 1 without gaps.
func resolve(draw []drawn, n int) []Match {
	type outcome struct {
		winner, loser entrant // nobody when there is none
		index         int     // in the fixtures, when played
	}
	res := make([]outcome, len(draw))
	// real is who an entrant is once the byes are out: a seed, a played
	// match's winner or loser, or nobody.
	real := func(e entrant) entrant {
		switch {
		case e.from == 0 && e.seed > n:
			return entrant{}
		case e.from == 0:
			return e
		case e.loser:
			return res[e.from-1].loser
		}
		return res[e.from-1].winner
	}
	var out []Match
	for i, d := range draw {
		a, b := real(d.in[0]), real(d.in[1])
		switch {
		case a.nobody() && b.nobody():
			continue
		case a.nobody():
			res[i].winner = b // a bye: b goes on unplayed
			continue
		case b.nobody():
			res[i].winner = a
			continue
		}
		k := len(out)
		m := Match{Round: d.round, Slot: d.slot, Stage: d.stage, Next: -1}
		for side, e := range []entrant{a, b} {
			if e.from == 0 {
				if side == 0 {
					m.Home = e.seed
				} else {
					m.Away = e.seed
				}
				continue
			}
			src := &out[res[e.from-1].index]
			if e.loser {
				src.LoserNext, src.LoserSide = k, side+1
			} else {
				src.Next, src.Side = k, side+1
			}
		}
		res[i] = outcome{winner: winnerOf(i), loser: loserOf(i), index: k}
		out = append(out, m)
	}
	var losers []int
	for _, m := range out {
		if m.Stage == StageLosers && !slices.Contains(losers, m.Round) {
			losers = append(losers, m.Round)
		}
	}
	for i := range out {
		if out[i].Stage == StageLosers {
			out[i].Round = slices.Index(losers, out[i].Round) + 1
		}
	}
	return out
}

func knockoutStage(round, rounds int) string {
	switch rounds - round {
	case 0:
		return StageFinal
	case 1:
		return StageSemi
	case 2:
		return "quarter_final"
	}
	return fmt.Sprintf("round_of_%d", 1<<(rounds-round+1))
}

// AfterGrandFinal is what a double elimination's grand final brings: with
// the reset on, the losers' champion (the away side) winning the first
// grand final means a second one between the same sides (returned, with
// true), since the winners' champion had not lost before; any other result
// crowns its winner.
func AfterGrandFinal(o Options, gf Match, awayWon bool) (Match, bool) {
	if gf.Stage != StageGrandFinal || gf.Round != 1 || !o.GrandFinalReset || !awayWon {
		return Match{}, false
	}
	return Match{Round: 2, Stage: StageGrandFinal, Home: gf.Home, Away: gf.Away, Next: -1}, true
}

// Playoffs are a single elimination of the top size (a power of two) of a
// table or standings (standing[0] is first), seeded by their place: for
// four, semi-finals 1 v 4 and 2 v 3 whose winners meet in the final. Teams
// are given as they are in standing.
func Playoffs(standing []int, size int) ([]Match, error) {
	if size < 2 || size&(size-1) != 0 {
		return nil, fmt.Errorf("bracket: play-offs of %d teams; a power of two is needed", size)
	}
	if len(standing) < size {
		return nil, fmt.Errorf("bracket: play-offs need %d teams, the table has %d", size, len(standing))
	}
	ms := knockout(size, false)
	for i := range ms {
		if ms[i].Home > 0 {
			ms[i].Home = standing[ms[i].Home-1]
		}
		if ms[i].Away > 0 {
			ms[i].Away = standing[ms[i].Away-1]
		}
	}
	return ms, nil
}
