package bracket

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// letters names n teams in seed order: A is seed 1.
func letters(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// pairsOf are a round's fixtures by team (Home and Away are seeds).
func pairsOf(teams []string, ms []Match) []Pair {
	out := make([]Pair, len(ms))
	for i, m := range ms {
		out[i] = Pair{teams[m.Home-1], teams[m.Away-1]}
	}
	return out
}

// rematchFree says whether the teams can be paired without two that met
// meeting again, one of those that had no bye sitting out when the count is
// odd. It searches every pairing, independently of SwissRound's own.
func rematchFree(teams []string, met map[Pair]bool, hadBye map[string]bool) bool {
	var can func(left []string) bool
	can = func(left []string) bool {
		if len(left) == 0 {
			return true
		}
		a := left[0]
		for i, b := range left[1:] {
			if met[Pair{a, b}] {
				continue
			}
			rest := append(slices.Clone(left[1:i+1]), left[i+2:]...)
			if can(rest) {
				return true
			}
		}
		return false
	}
	if len(teams)%2 == 0 {
		return can(teams)
	}
	for i, t := range teams {
		if !hadBye[t] && can(append(slices.Clone(teams[:i]), teams[i+1:]...)) {
			return true
		}
	}
	return false
}

// result is a random result of p: a winner and a line of kills and deaths
// a side.
func result(p Pair, rng *rand.Rand) Result {
	r := Result{Home: p.Home, Away: p.Away, Winner: p.Home}
	if rng.IntN(2) == 0 {
		r.Winner = p.Away
	}
	for i, t := range []string{p.Home, p.Away} {
		r.Lines = append(r.Lines, Line{UserID: int64(i), Team: t, Kills: rng.IntN(30), Deaths: rng.IntN(30)})
	}
	return r
}

// A Swiss stage of 2 to 16 teams, every number of rounds it can have, with
// random results: no team twice in a round, no rematch in a round where a
// pairing without one was possible (a full search says), no team given a
// second bye, each team plays every round but at most one it sits out, the
// standings rank every team once, and a top cut's play-offs crown one
// champion among the cut.
func TestSwissStage(t *testing.T) {
	for n := MinTeams; n <= MaxTeams; n++ {
		for rounds := 1; rounds < n; rounds++ {
			t.Run(fmt.Sprintf("%d teams, %d rounds", n, rounds), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), uint64(rounds)))
				cut := 0
				for _, c := range []int{2, 4, 8, 16} {
					if c <= n && rng.IntN(2) == 0 {
						cut = c
					}
				}
				teams := letters(n)
				f, err := Generate(Swiss, n, Options{Rounds: rounds, TopCut: cut})
				if err != nil {
					t.Fatal(err)
				}
				var (
					made    [][]Pair
					results []Result
					byes    = map[string]int{}
					met     = map[Pair]bool{}
				)
				for r := 1; r <= rounds; r++ {
					ms := f.Matches
					if r > 1 {
						ms = SwissRound(teams, made, results, nil)
					}
					hadBye := map[string]bool{}
					for team, b := range byes {
						hadBye[team] = b > 0
					}
					avoidable := rematchFree(teams, met, hadBye)
					seen := map[string]bool{}
					rematches := 0
					for _, m := range ms {
						if m.Round != r || m.Stage != StageSwiss || m.Next != -1 {
							t.Fatalf("round %d: match %+v", r, m)
						}
					}
					pairs := pairsOf(teams, ms)
					for _, p := range pairs {
						for _, team := range []string{p.Home, p.Away} {
							if seen[team] {
								t.Fatalf("round %d: %s plays twice", r, team)
							}
							seen[team] = true
						}
						if met[p] {
							rematches++
						}
					}
					if len(pairs) != n/2 {
						t.Fatalf("round %d: %d matches for %d teams", r, len(pairs), n)
					}
					if avoidable && rematches > 0 {
						t.Fatalf("round %d: %d rematches, and a pairing without any was possible: %v", r, rematches, pairs)
					}
					for _, team := range teams {
						if !seen[team] {
							byes[team]++
							if byes[team] > 1 {
								t.Fatalf("round %d: %s sits out a second time", r, team)
							}
						}
					}
					for _, p := range pairs {
						met[p], met[Pair{p.Away, p.Home}] = true, true
						results = append(results, result(p, rng))
					}
					made = append(made, pairs)
				}
				rows := SwissStandings(teams, made, results, nil)
				if len(rows) != n {
					t.Fatalf("%d rows for %d teams", len(rows), n)
				}
				ranked := map[string]bool{}
				for _, row := range rows {
					if ranked[row.Team] || row.Played+row.Byes != rounds || row.Won+row.Lost != row.Played || row.Points != row.Won+row.Byes {
						t.Fatalf("row %+v after %d rounds", row, rounds)
					}
					ranked[row.Team] = true
				}
				if cut == 0 {
					return
				}
				top := make([]int, cut)
				for i := range top {
					top[i] = slices.Index(teams, rows[i].Team) + 1
				}
				po, err := Playoffs(top, cut)
				if err != nil {
					t.Fatal(err)
				}
				champion, _ := playKnockout(t, Fixtures{Matches: po}, func(a, b int) int {
					if rng.IntN(2) == 0 {
						return a
					}
					return b
				})
				if !slices.Contains(top, champion) {
					t.Fatalf("champion %d is not in the top cut %v", champion, top)
				}
			})
		}
	}
}

// How a round is paired, rule by rule.
func TestSwissPairing(t *testing.T) {
	won := func(home, away, winner string) Result {
		return Result{Home: home, Away: away, Winner: winner}
	}
	t.Run("TheFirstRoundFoldsTheSeeds", func(t *testing.T) {
		f, _ := Generate(Swiss, 8, Options{})
		if got := fmt.Sprint(pairsOf(letters(8), f.Matches)); got != "[{A H} {B G} {C F} {D E}]" {
			t.Fatalf("round 1 of eight: %s", got)
		}
	})
	t.Run("AnOddCountGivesTheLowestSeedTheFirstBye", func(t *testing.T) {
		f, _ := Generate(Swiss, 5, Options{})
		if got := fmt.Sprint(pairsOf(letters(5), f.Matches)); got != "[{A D} {B C}]" {
			t.Fatalf("round 1 of five: %s (E sits out)", got)
		}
	})
	t.Run("TeamsMeetTeamsOnTheSamePoints", func(t *testing.T) {
		teams := letters(8)
		r1 := []Pair{{"A", "H"}, {"B", "G"}, {"C", "F"}, {"D", "E"}}
		results := []Result{won("A", "H", "A"), won("B", "G", "B"), won("C", "F", "F"), won("D", "E", "E")}
		got := fmt.Sprint(pairsOf(teams, SwissRound(teams, [][]Pair{r1}, results, nil)))
		// On one point: A, B, E, F (by seed, Buchholz and kills level); on none: C, D, G, H.
		if got != "[{A F} {B E} {C H} {D G}]" {
			t.Fatalf("round 2: %s", got)
		}
	})
	t.Run("ARematchIsAvoidedByPlayingFurtherDown", func(t *testing.T) {
		teams := letters(4)
		rounds := [][]Pair{{{"A", "D"}, {"B", "C"}}, {{"A", "C"}, {"B", "D"}}}
		// A leads on two points; B and C have one each and C is ranked lower,
		// so A would meet C, whom it met in round 2: it meets B.
		results := []Result{won("A", "D", "A"), won("B", "C", "C"), won("A", "C", "A"), won("B", "D", "B")}
		got := fmt.Sprint(pairsOf(teams, SwissRound(teams, rounds, results, nil)))
		if got != "[{A B} {C D}]" {
			t.Fatalf("round 3: %s", got)
		}
	})
	t.Run("TheByeGoesToTheLowestRankedWithoutOne", func(t *testing.T) {
		teams := letters(5)
		r1 := []Pair{{"A", "D"}, {"B", "C"}} // E sat out
		results := []Result{won("A", "D", "D"), won("B", "C", "C")}
		ms := SwissRound(teams, [][]Pair{r1}, results, nil)
		var playing []string
		for _, p := range pairsOf(teams, ms) {
			playing = append(playing, p.Home, p.Away)
		}
		// D, C and E on one point, A and B on none: B is last without a bye.
		if slices.Contains(playing, "B") || len(playing) != 4 {
			t.Fatalf("round 2 plays %v; B sits out", playing)
		}
	})
}

// The Swiss standings: a bye is a point, Buchholz adds the points of the
// opponents played, kill difference and then the seed break what is left.
func TestSwissStandings(t *testing.T) {
	lines := func(team string, kills, deaths int) Line {
		return Line{UserID: int64(team[0]), Team: team, Kills: kills, Deaths: deaths}
	}
	teams := letters(5)
	rounds := [][]Pair{{{"A", "D"}, {"B", "C"}}, {{"E", "A"}, {"C", "D"}}}
	results := []Result{
		{Home: "A", Away: "D", Winner: "A", Lines: []Line{lines("A", 10, 5), lines("D", 5, 10)}},
		{Home: "B", Away: "C", Winner: "C", Lines: []Line{lines("B", 8, 8), lines("C", 8, 8)}},
		{Home: "E", Away: "A", Winner: "E", Lines: []Line{lines("E", 9, 3), lines("A", 4, 9)}},
		{Home: "C", Away: "D", Winner: "C", Forfeit: true},
	}
	rows := SwissStandings(teams, rounds, results, nil)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %d/%d/%d", r.Team, r.Points, r.Buchholz, r.KillDiff))
	}
	// E: a bye and a win over A (1): 2 points, Buchholz 1. C: two wins over B (1, B's bye) and D (0): 2, Buchholz 1, kill
	// difference 0 against E's +6. A: 1 point, Buchholz D 0 + E 2 = 2, kill difference 0. B: its bye, Buchholz C 2, kill
	// difference 0: level with A, behind it by seed. D: none.
	want := []string{"E 2/1/6", "C 2/1/0", "A 1/2/0", "B 1/2/0", "D 0/3/-5"}
	if !slices.Equal(got, want) {
		t.Fatalf("standings %v, want %v", got, want)
	}
	if rows[3].Byes != 1 || rows[0].Byes != 1 || rows[1].Won != 2 {
		t.Fatalf("%+v", rows)
	}
}
