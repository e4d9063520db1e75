package bracket

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// doublePlay is a double elimination played to its end.
type doublePlay struct {
	champion, runnerUp int
	losses             map[int]int // by seed
	matches            int         // played, a reset included
	reset              bool        // the grand final was played again
}

// playDouble plays a double elimination in its order, the winner of each
// match chosen by win (by seed): winners and losers go where their match
// says, and a grand final brings a reset when AfterGrandFinal says so. It
// fails the test when a match is played before both its sides are known, a
// side is filled twice, a match feeds one before it, or a team plays on
// after its second loss or goes out after its first.
func playDouble(t *testing.T, f Fixtures, win func(a, b int) int) doublePlay {
	t.Helper()
	ms := slices.Clone(f.Matches)
	p := doublePlay{losses: map[int]int{}}
	place := func(from, to, side, team int, what string) {
		t.Helper()
		if to <= from || to >= len(ms) {
			t.Fatalf("match %d sends its %s to match %d", from, what, to)
		}
		at := &ms[to].Home
		if side == 2 {
			at = &ms[to].Away
		}
		if *at != 0 {
			t.Fatalf("match %d's side %d is filled twice", to, side)
		}
		*at = team
	}
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		if m.Home == 0 || m.Away == 0 {
			t.Fatalf("match %d (%+v) is played before both sides are known", i, m)
		}
		if m.Stage == StageGrandFinal && m.Round == 1 && (p.losses[m.Home] != 0 || p.losses[m.Away] != 1) {
			t.Fatalf("the grand final: the winners' champion has %d losses, the losers' %d; want 0 and 1",
				p.losses[m.Home], p.losses[m.Away])
		}
		w := win(m.Home, m.Away)
		l := m.Home + m.Away - w
		p.losses[l]++
		p.matches++
		switch {
		case p.losses[l] > 2:
			t.Fatalf("seed %d loses a third time (match %d)", l, i)
		case m.LoserSide > 0 && p.losses[l] == 2:
			t.Fatalf("seed %d plays on after a second loss (match %d)", l, i)
		case m.LoserSide > 0:
			place(i, m.LoserNext, m.LoserSide, l, "loser")
		case m.Stage != StageGrandFinal && p.losses[l] == 1:
			t.Fatalf("seed %d is out after one loss (match %d, %s round %d)", l, i, m.Stage, m.Round)
		}
		if m.Next >= 0 {
			place(i, m.Next, m.Side, w, "winner")
			continue
		}
		if m.Stage != StageGrandFinal {
			t.Fatalf("match %d (%+v) ends the bracket; only a grand final does", i, m)
		}
		if reset, again := AfterGrandFinal(f.Options, m, w == m.Away); again {
			if reset.Home != m.Home || reset.Away != m.Away || reset.Stage != StageGrandFinal || reset.Round != 2 {
				t.Fatalf("reset %+v after %+v", reset, m)
			}
			ms = append(ms, reset)
			p.reset = true
			continue
		}
		if p.champion != 0 {
			t.Fatal("two champions")
		}
		p.champion, p.runnerUp = w, l
	}
	if p.champion == 0 {
		t.Fatal("no champion")
	}
	return p
}

// Double elimination for 2 to 16 teams, with the reset and without, over
// random results: every match's sides are filled once and known before it
// is played, a team goes out on its second loss and only then, one
// champion with at most one loss, every other team out on two losses but
// the winners' champion beaten in a grand final with no reset (one), and
// 2n-2 matches (one more when the reset is played).
func TestDoubleElimination(t *testing.T) {
	for n := MinTeams; n <= MaxTeams; n++ {
		for _, reset := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d teams, reset %v", n, reset), func(t *testing.T) {
				f, err := Generate(DoubleElimination, n, Options{GrandFinalReset: reset})
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Matches) != 2*n-2 {
					t.Fatalf("%d matches drawn, want %d (each team but the champion loses twice, the grand final's loser once)",
						len(f.Matches), 2*n-2)
				}
				rng := rand.New(rand.NewPCG(uint64(n), 23))
				resets := 0
				for range 40 {
					p := playDouble(t, f, func(a, b int) int {
						if rng.IntN(2) == 0 {
							return a
						}
						return b
					})
					want := 2*n - 2
					if p.reset {
						want++
						resets++
					}
					if p.matches != want {
						t.Fatalf("%d matches played, want %d", p.matches, want)
					}
					if p.losses[p.champion] > 1 {
						t.Fatalf("champion %d with %d losses", p.champion, p.losses[p.champion])
					}
					for seed := 1; seed <= n; seed++ {
						got, want := p.losses[seed], 2
						switch {
						case seed == p.champion:
							continue
						case seed == p.runnerUp && !reset && p.losses[p.champion] == 1:
							want = 1 // the winners' champion, beaten once in the only grand final
						}
						if got != want {
							t.Fatalf("seed %d ends with %d losses, want %d (champion %d, reset played %v)",
								seed, got, want, p.champion, p.reset)
						}
					}
				}
				if reset && resets == 0 {
					t.Fatal("40 random seasons and the losers' champion never won a grand final")
				}
				// The favourites: seed 1 unbeaten, no reset.
				p := playDouble(t, f, func(a, b int) int { return min(a, b) })
				if p.champion != 1 || p.losses[1] != 0 || p.reset || p.runnerUp != 2 {
					t.Fatalf("favourites winning: champion %d (%d losses), runner-up %d, reset %v", p.champion, p.losses[1], p.runnerUp, p.reset)
				}
			})
		}
	}
}

// The draw: byes to the top seeds in the winners' first round (and so
// fewer losers in the losers' first), a losers bracket's rounds numbered
// without gaps, and for eight teams the standard shape: 4-2-1 winners,
// 2-2-1-1 losers, one grand final.
func TestDoubleEliminationDraw(t *testing.T) {
	for n := MinTeams; n <= MaxTeams; n++ {
		f, _ := Generate(DoubleElimination, n, Options{})
		size := 1
		for size < n {
			size *= 2
		}
		for seed := 1; seed <= size-n; seed++ {
			if f.firstRoundOf(seed) {
				t.Errorf("%d teams: seed %d plays round 1; the top %d seeds have byes", n, seed, size-n)
			}
		}
		rounds := map[string][]int{}
		for _, m := range f.Matches {
			if !slices.Contains(rounds[m.Stage], m.Round) {
				rounds[m.Stage] = append(rounds[m.Stage], m.Round)
			}
			if m.Stage != StageWinners && m.LoserSide != 0 {
				t.Errorf("%d teams: a %s match sends its loser on (%+v)", n, m.Stage, m)
			}
			if m.Stage == StageWinners && m.LoserSide == 0 {
				t.Errorf("%d teams: a winners-bracket match sends its loser nowhere (%+v)", n, m)
			}
		}
		for stage, rs := range rounds {
			for i, r := range rs {
				if r != i+1 {
					t.Errorf("%d teams: %s rounds %v", n, stage, rs)
				}
			}
		}
		if !slices.Equal(rounds[StageGrandFinal], []int{1}) {
			t.Errorf("%d teams: grand final rounds %v", n, rounds[StageGrandFinal])
		}
	}
	f, _ := Generate(DoubleElimination, 8, Options{})
	shape := map[string][]int{}
	for _, m := range f.Matches {
		for len(shape[m.Stage]) < m.Round {
			shape[m.Stage] = append(shape[m.Stage], 0)
		}
		shape[m.Stage][m.Round-1]++
	}
	if fmt.Sprint(shape) != "map[grand_final:[1] losers:[2 2 1 1] winners:[4 2 1]]" {
		t.Fatalf("eight teams drawn as %v", shape)
	}
	// The losers of the winners' second round drop in crosswise: the loser
	// of the top half's match meets the survivor of the bottom half.
	var dropped []int
	for _, m := range f.Matches {
		if m.Stage == StageWinners && m.Round == 2 {
			dropped = append(dropped, f.Matches[m.LoserNext].Slot)
		}
	}
	if !slices.Equal(dropped, []int{1, 0}) {
		t.Fatalf("winners' round 2 losers drop to losers' round 2 slots %v, want [1 0]", dropped)
	}
}

// Only the losers' champion winning the first grand final, with the reset
// on, brings a second one.
func TestAfterGrandFinal(t *testing.T) {
	gf := Match{Round: 1, Stage: StageGrandFinal, Home: 3, Away: 5, Next: -1}
	cases := []struct {
		name    string
		o       Options
		m       Match
		awayWon bool
		again   bool
	}{
		{"TheLosersChampionWinsWithTheResetOn", Options{GrandFinalReset: true}, gf, true, true},
		{"TheWinnersChampionWins", Options{GrandFinalReset: true}, gf, false, false},
		{"TheResetIsOff", Options{}, gf, true, false},
		{"TheResetItselfIsFinal", Options{GrandFinalReset: true}, Match{Round: 2, Stage: StageGrandFinal, Home: 3, Away: 5}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reset, again := AfterGrandFinal(c.o, c.m, c.awayWon)
			if again != c.again || (again && (reset.Home != 3 || reset.Away != 5 || reset.Round != 2)) {
				t.Fatalf("%+v %v", reset, again)
			}
		})
	}
}
