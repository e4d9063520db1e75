// Package bracket makes a tournament's fixtures from its seeded teams, and
// ranks what was played: the formats (round robin, single elimination, a
// league then play-offs), the Points Table and the Red Cap. Everything here
// is a pure function of its arguments: no clock, no I/O.
package bracket

import "fmt"

// Formats: a league (the Points Table ranks it), a knockout, and the
// Premier League's default, a league whose top four play semi-finals and a
// final.
const (
	RoundRobin         = "round_robin"
	SingleElimination  = "single_elimination"
	LeagueThenPlayoffs = "league_then_playoffs"
	DefaultFormat      = LeagueThenPlayoffs

	MinTeams, MaxTeams = 2, 16
	PlayoffTeams       = 4
)

// Stages a match belongs to.
const (
	StageLeague = "league"
	StageSemi   = "semi_final"
	StageFinal  = "final"
)

const firstRound = 1

// ValidFormat reports whether f is a format.
func ValidFormat(f string) bool {
	return f == RoundRobin || f == SingleElimination || f == LeagueThenPlayoffs
}

// Match is one fixture. Home and Away are seeds (1 is the strongest), 0
// when the team is not known yet (the winner of an earlier match). A
// knockout match names where its winner goes: match Next (an index into the
// fixtures), as its home (side 1) or away (side 2) team.
type Match struct {
	Round int
	Slot  int // position within the round, from 0
	Stage string
	Home  int
	Away  int
	Next  int // index of the match the winner plays next, -1 for none
	Side  int // 1: the winner is Next's home team, 2: its away team
}

// Fixtures are a format's matches, in play order (by round).
type Fixtures struct {
	Format  string
	Teams   int
	Matches []Match
}

// Generate makes the fixtures of format for n teams seeded 1..n. For
// LeagueThenPlayoffs it makes the league stage only: the play-offs depend
// on its table (Playoffs).
func Generate(format string, n int) (Fixtures, error) {
	if n < MinTeams || n > MaxTeams {
		return Fixtures{}, fmt.Errorf("bracket: %d teams; a bracket needs %d to %d", n, MinTeams, MaxTeams)
	}
	f := Fixtures{Format: format, Teams: n}
	switch format {
	case RoundRobin, LeagueThenPlayoffs:
		f.Matches = roundRobin(n)
	case SingleElimination:
		f.Matches = knockout(n)
	default:
		return Fixtures{}, fmt.Errorf("bracket: unknown format %q", format)
	}
	return f, nil
}

// roundRobin pairs every two teams once (the circle method): n-1 rounds
// for an even n, n rounds with one team resting in each for an odd n. The
// side with fewer home games so far is at home, so each team hosts about
// half its games.
func roundRobin(n int) []Match {
	slots := n
	if n%2 == 1 {
		slots++ // the extra slot is the rest
	}
	ring := make([]int, slots)
	for i := range ring {
		ring[i] = i + 1
	}
	var out []Match
	home := make([]int, n+1)
	for r := 0; r < slots-1; r++ {
		slot := 0
		for i := 0; i < slots/2; i++ {
			a, b := ring[i], ring[slots-1-i]
			if a > n || b > n {
				continue // a bye: that team rests
			}
			if home[b] < home[a] || (home[b] == home[a] && (r+i)%2 == 1) {
				a, b = b, a
			}
			home[a]++
			out = append(out, Match{Round: r + 1, Slot: slot, Stage: StageLeague, Home: a, Away: b, Next: -1})
			slot++
		}
		// Keep the first team fixed and turn the rest by one.
		last := ring[slots-1]
		copy(ring[2:], ring[1:slots-1])
		ring[1] = last
	}
	return out
}

// Seeding is the standard order of seeds down a knockout bracket of size
// (a power of two): 1 v size, and the top two seeds meet only in the final.
// For 8: 1 8 4 5 2 7 3 6.
func Seeding(size int) []int {
	order := []int{1}
	for len(order) < size {
		m := 2*len(order) + 1
		next := make([]int, 0, 2*len(order))
		for _, s := range order {
			next = append(next, s, m-s)
		}
		order = next
	}
	return order
}

// knockout is a single-elimination bracket for n teams: the bracket is the
// next power of two, and the top seeds whose opponent would be missing get
// a bye into the second round.
func knockout(n int) []Match {
	size := 1
	for size < n {
		size *= 2
	}
	seeds := Seeding(size)
	rounds := 0
	for s := size; s > 1; s /= 2 {
		rounds++
	}
	// Matches of every round, with their slots; the first round is built
	// from the seeding, and a pair with a missing seed is a bye.
	var out []Match
	index := map[[2]int]int{} // (round, slot) -> index in out
	for r := 1; r <= rounds; r++ {
		matches := size >> r
		for slot := 0; slot < matches; slot++ {
			m := Match{Round: r, Slot: slot, Stage: knockoutStage(r, rounds), Next: -1}
			if r == firstRound {
				m.Home, m.Away = seeds[2*slot], seeds[2*slot+1]
				if m.Away > n || m.Home > n {
					continue // a bye: the seed goes straight to round 2
				}
			}
			index[[2]int{r, slot}] = len(out)
			out = append(out, m)
		}
	}
	// Wire winners forward, and place the byes' seeds in round 2.
	for i := range out {
		m := &out[i]
		if m.Round == rounds {
			continue
		}
		next := index[[2]int{m.Round + 1, m.Slot / 2}]
		m.Next, m.Side = next, 1+m.Slot%2
	}
	for slot := 0; slot < size/2; slot++ {
		home, away := seeds[2*slot], seeds[2*slot+1]
		if home <= n && away <= n {
			continue
		}
		seed := min(home, away)
		if rounds == 1 {
			continue
		}
		next := &out[index[[2]int{2, slot / 2}]]
		if slot%2 == 0 {
			next.Home = seed
		} else {
			next.Away = seed
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

// Playoffs are the play-offs after a league stage: the top four of its
// table (standing[0] is first) in semi-finals, 1 v 4 and 2 v 3, whose
// winners meet in the final. Teams are given as they are in standing.
func Playoffs(standing []int) ([]Match, error) {
	if len(standing) < PlayoffTeams {
		return nil, fmt.Errorf("bracket: play-offs need %d teams, the table has %d", PlayoffTeams, len(standing))
	}
	return []Match{
		{Round: 1, Slot: 0, Stage: StageSemi, Home: standing[0], Away: standing[3], Next: 2, Side: 1},
		{Round: 1, Slot: 1, Stage: StageSemi, Home: standing[1], Away: standing[2], Next: 2, Side: 2},
		{Round: 2, Slot: 0, Stage: StageFinal, Next: -1},
	}, nil
}
