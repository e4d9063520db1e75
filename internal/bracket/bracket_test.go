package bracket

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSeeding(t *testing.T) {
	tests := map[int][]int{
		2:  {1, 2},
		4:  {1, 4, 2, 3},
		8:  {1, 8, 4, 5, 2, 7, 3, 6},
		16: {1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11},
	}
	for size, want := range tests {
		if got := Seeding(size); !slices.Equal(got, want) {
			t.Errorf("Seeding(%d) = %v, want %v", size, got, want)
		}
	}
}

// Every pair of teams meets exactly once, nobody plays twice in a round,
// and home games are shared fairly; 2 to 16 teams.
func TestRoundRobinEachPairOnce(t *testing.T) {
	for n := MinTeams; n <= MaxTeams; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f, err := Generate(RoundRobin, n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			met := map[[2]int]int{}
			perRound := map[int]map[int]bool{}
			home := map[int]int{}
			rounds := 0
			for _, m := range f.Matches {
				a, b := min(m.Home, m.Away), max(m.Home, m.Away)
				if a < 1 || b > n || a == b {
					t.Fatalf("match %+v", m)
				}
				met[[2]int{a, b}]++
				if perRound[m.Round] == nil {
					perRound[m.Round] = map[int]bool{}
				}
				for _, team := range []int{m.Home, m.Away} {
					if perRound[m.Round][team] {
						t.Fatalf("team %d plays twice in round %d", team, m.Round)
					}
					perRound[m.Round][team] = true
				}
				home[m.Home]++
				rounds = max(rounds, m.Round)
			}
			if len(met) != n*(n-1)/2 {
				t.Fatalf("%d pairs met, want %d", len(met), n*(n-1)/2)
			}
			for pair, times := range met {
				if times != 1 {
					t.Fatalf("pair %v met %d times", pair, times)
				}
			}
			wantRounds := n - 1
			if n%2 == 1 {
				wantRounds = n
			}
			if rounds != wantRounds {
				t.Fatalf("%d rounds, want %d", rounds, wantRounds)
			}
			for team := 1; team <= n; team++ {
				if games := n - 1; home[team] < games/2-1 || home[team] > (games+1)/2+1 {
					t.Fatalf("team %d at home %d times of %d", team, home[team], games)
				}
			}
		})
	}
}

// playKnockout plays a knockout bracket to its end, the winner of each
// match chosen by win (by seed), and returns the champion and how many
// matches each seed played.
func playKnockout(t *testing.T, f Fixtures, win func(a, b int) int) (int, map[int]int) {
	t.Helper()
	ms := slices.Clone(f.Matches)
	played := map[int]int{}
	champion := 0
	for i := range ms {
		m := ms[i]
		if m.Home == 0 || m.Away == 0 {
			t.Fatalf("match %d (%+v) is played before both sides are known", i, m)
		}
		w := win(m.Home, m.Away)
		played[m.Home]++
		played[m.Away]++
		if m.Next < 0 {
			if champion != 0 {
				t.Fatal("two finals")
			}
			champion = w
			continue
		}
		if m.Next <= i {
			t.Fatalf("match %d feeds match %d, which comes before it", i, m.Next)
		}
		next := &ms[m.Next]
		if m.Side == 1 {
			if next.Home != 0 {
				t.Fatalf("match %d's home side is filled twice", m.Next)
			}
			next.Home = w
		} else {
			if next.Away != 0 {
				t.Fatalf("match %d's away side is filled twice", m.Next)
			}
			next.Away = w
		}
	}
	return champion, played
}

// Single elimination for 2 to 16 teams: one champion, every match's sides
// filled exactly once, byes to the top seeds when the count is not a power
// of two, and with the favourite always winning the top seed is champion.
func TestSingleElimination(t *testing.T) {
	for n := MinTeams; n <= MaxTeams; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f, err := Generate(SingleElimination, n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Matches) != n-1 {
				t.Fatalf("%d matches, want %d (one per team knocked out)", len(f.Matches), n-1)
			}
			size := 1
			for size < n {
				size *= 2
			}
			byes := size - n
			firstRound := 0
			for _, m := range f.Matches {
				if m.Round == 1 {
					firstRound++
				}
			}
			if firstRound != (n-byes)/2 {
				t.Fatalf("%d first-round matches, want %d", firstRound, (n-byes)/2)
			}
			favourite := func(a, b int) int { return min(a, b) }
			champion, played := playKnockout(t, f, favourite)
			if champion != 1 {
				t.Fatalf("champion %d when favourites win, want seed 1", champion)
			}
			for seed := 1; seed <= byes; seed++ {
				if f.firstRoundOf(seed) {
					t.Fatalf("seed %d plays round 1; the top %d seeds have byes", seed, byes)
				}
			}
			for seed := 1; seed <= n; seed++ {
				if played[seed] == 0 {
					t.Fatalf("seed %d never plays", seed)
				}
			}
			// Any results at all: one champion, everyone knocked out once.
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			champion, _ = playKnockout(t, f, func(a, b int) int {
				if rng.IntN(2) == 0 {
					return a
				}
				return b
			})
			if champion < 1 || champion > n {
				t.Fatalf("champion %d", champion)
			}
		})
	}
	t.Run("EightTeamsStandardPairs", func(t *testing.T) {
		f, _ := Generate(SingleElimination, 8, Options{})
		var first [][2]int
		for _, m := range f.Matches {
			if m.Round == 1 {
				first = append(first, [2]int{m.Home, m.Away})
			}
		}
		want := [][2]int{{1, 8}, {4, 5}, {2, 7}, {3, 6}}
		if !slices.Equal(first, want) {
			t.Fatalf("round 1 %v, want %v", first, want)
		}
		if last := f.Matches[len(f.Matches)-1]; last.Stage != StageFinal || last.Next != -1 {
			t.Fatalf("last match %+v", last)
		}
	})
}

func (f Fixtures) firstRoundOf(seed int) bool {
	for _, m := range f.Matches {
		if m.Round == 1 && (m.Home == seed || m.Away == seed) {
			return true
		}
	}
	return false
}

func TestPlayoffs(t *testing.T) {
	ms, err := Playoffs([]int{5, 2, 7, 1, 3}, PlayoffTeams)
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Home != 5 || ms[0].Away != 1 || ms[1].Home != 2 || ms[1].Away != 7 || ms[2].Stage != StageFinal {
		t.Fatalf("%+v", ms)
	}
	f := Fixtures{Matches: ms}
	champion, _ := playKnockout(t, f, func(a, b int) int { return max(a, b) })
	if champion != 7 {
		t.Fatalf("champion %d", champion)
	}
	if _, err := Playoffs([]int{1, 2, 3}, PlayoffTeams); err == nil {
		t.Fatal("play-offs of three teams")
	}
}

// Fixtures are refused for a count out of range, an unknown format, and
// options the format does not have or the count cannot bear.
func TestGenerateRefuses(t *testing.T) {
	for _, c := range []struct {
		format string
		n      int
		o      Options
	}{
		{RoundRobin, 1, Options{}},
		{SingleElimination, 17, Options{}},
		{"triple_elimination", 8, Options{}},
		{RoundRobin, 8, Options{Rounds: 3}},
		{DoubleElimination, 8, Options{TopCut: 4}},
		{SingleElimination, 8, Options{GrandFinalReset: true}},
		{Swiss, 8, Options{Rounds: 8}},  // more rounds than opponents
		{Swiss, 8, Options{Rounds: -1}}, // no such count
		{Swiss, 8, Options{TopCut: 6}},  // not a power of two
		{Swiss, 6, Options{TopCut: 8}},  // more than the teams
		{Swiss, 8, Options{TopCut: 1}},
	} {
		if _, err := Generate(c.format, c.n, c.o); err == nil {
			t.Errorf("Generate(%q, %d, %+v) made fixtures", c.format, c.n, c.o)
		}
	}
	if f, err := Generate(Swiss, 8, Options{}); err != nil || f.Options.Rounds != 3 {
		t.Errorf("a Swiss stage of 8 without rounds: %+v %v, want the default 3 rounds", f.Options, err)
	}
}

func TestStandings(t *testing.T) {
	lines := func(team string, kills, deaths int) []Line {
		return []Line{{UserID: int64(team[0]), Team: team, Kills: kills, Deaths: deaths}}
	}
	result := func(home, away, winner string, hk, hd, ak, ad int) Result {
		return Result{Home: home, Away: away, Winner: winner, Lines: append(lines(home, hk, hd), lines(away, ak, ad)...)}
	}
	s := Scoring{Win: 3, Loss: 0, KillsPerPoint: 10}
	tests := []struct {
		name    string
		results []Result
		want    []string
	}{
		{"Points", []Result{result("A", "B", "A", 10, 5, 5, 10), result("B", "C", "B", 10, 5, 5, 10), result("A", "C", "A", 10, 5, 5, 10)},
			[]string{"A", "B", "C"}},
		{"KillPointsCount", []Result{result("A", "B", "A", 0, 5, 40, 10), result("C", "D", "C", 5, 0, 0, 5)},
			// A and C win (3), B has 4 kill points: B 4, A 3, C 3 (A and C: kill difference -5 v +5).
			[]string{"B", "C", "A", "D"}},
		{"KillDifferenceBreaksATie", []Result{result("A", "C", "A", 9, 1, 1, 9), result("B", "D", "B", 8, 7, 7, 8)},
			[]string{"A", "B", "D", "C"}},
		{"HeadToHeadBreaksATie", []Result{result("A", "B", "B", 5, 5, 5, 5), result("A", "C", "A", 5, 5, 5, 5),
			result("B", "C", "C", 5, 5, 5, 5)},
			// A, B and C all 3 points and level on kills; head-to-head among them is 1 win each, so kills
			// (15 each) and then the name decide.
			[]string{"A", "B", "C"}},
		{"KillsBreakWhatHeadToHeadLeaves", []Result{result("A", "C", "A", 6, 6, 3, 3), result("B", "D", "B", 4, 4, 2, 2)},
			[]string{"A", "B", "C", "D"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := Standings([]string{"A", "B", "C", "D"}, tc.results, s)
			var got []string
			for _, r := range rows {
				got = append(got, r.Team)
			}
			if len(tc.want) == 3 {
				got = got[:3]
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("order %v, want %v (%+v)", got, tc.want, rows)
			}
		})
	}
	t.Run("ForfeitIsAWinWithoutKills", func(t *testing.T) {
		rows := Standings([]string{"A", "B"}, []Result{{Home: "A", Away: "B", Winner: "B", Forfeit: true}}, s)
		if rows[0].Team != "B" || rows[0].Points != 3 || rows[0].Won != 1 || rows[1].Lost != 1 {
			t.Fatalf("%+v", rows)
		}
	})
}

func TestRedCap(t *testing.T) {
	results := []Result{
		{Home: "A", Away: "B", Winner: "A", Lines: []Line{{UserID: 1, Team: "A", Kills: 12, Deaths: 3}, {UserID: 2, Team: "B", Kills: 12, Deaths: 5}}},
		{Home: "A", Away: "C", Winner: "C", Lines: []Line{{UserID: 1, Team: "A", Kills: 3, Deaths: 4}, {UserID: 3, Team: "C", Kills: 15, Deaths: 2}}},
		{Home: "B", Away: "C", Winner: "B", Lines: []Line{{UserID: 2, Team: "B", Kills: 3, Deaths: 0}, {UserID: 3, Team: "C", Kills: 0, Deaths: 9}}},
	}
	got := RedCap(results)
	// 1: 15 kills 7 deaths; 2: 15 kills 5 deaths; 3: 15 kills 11 deaths.
	if got[0].UserID != 2 || got[1].UserID != 1 || got[2].UserID != 3 || got[0].Kills != 15 || got[0].Matches != 2 {
		t.Fatalf("%+v", got)
	}
}
