// Package bracket makes a tournament's fixtures from its seeded teams, and
// ranks what was played: the formats (round robin, single and double
// elimination, a league then play-offs, a Swiss stage with an optional top
// cut), the Points Table, the Swiss standings and the Red Cap. Everything
// here is a pure function of its arguments: no clock, no I/O.
package bracket

import "fmt"

// Formats: a league (the Points Table ranks it), knockouts, the Premier
// League's default (a league whose top four play semi-finals and a final),
// and a Swiss stage (rounds paired by score, an optional top cut).
const (
	RoundRobin         = "round_robin"
	SingleElimination  = "single_elimination"
	DoubleElimination  = "double_elimination"
	LeagueThenPlayoffs = "league_then_playoffs"
	Swiss              = "swiss"
	DefaultFormat      = LeagueThenPlayoffs

	MinTeams, MaxTeams = 2, 16
	PlayoffTeams       = 4
)

// Formats lists every format, the default first.
var Formats = []string{LeagueThenPlayoffs, RoundRobin, SingleElimination, DoubleElimination, Swiss}

// Stages a match belongs to. A knockout's rounds are named by how many
// teams are left (quarter_final, round_of_16, …); a double elimination's
// and a Swiss stage's matches are named by the bracket they are in.
const (
	StageLeague     = "league"
	StageSemi       = "semi_final"
	StageFinal      = "final"
	StageWinners    = "winners"     // a double elimination's winners bracket
	StageLosers     = "losers"      // its losers bracket: a second chance
	StageGrandFinal = "grand_final" // the two brackets' champions (round 2: the reset)
	StageSwiss      = "swiss"
)

// BracketOf is the bracket a stage's round is drawn in: winners, losers,
// grand_final or swiss, and "" for the formats with one bracket (a league,
// a knockout, play-offs).
func BracketOf(stage string) string {
	switch stage {
	case StageWinners, StageLosers, StageGrandFinal, StageSwiss:
		return stage
	}
	return ""
}

const firstRound = 1

// ValidFormat reports whether f is a format.
func ValidFormat(f string) bool {
	for _, g := range Formats {
		if f == g {
			return true
		}
	}
	return false
}

// Match is one fixture. Home and Away are seeds (1 is the strongest), 0
// when the team is not known yet (the winner of an earlier match). A
// knockout match names where its winner goes: match Next (an index into the
// fixtures), as its home (side 1) or away (side 2) team; in a double
// elimination a winners-bracket match names where its loser goes too
// (LoserNext, as LoserSide's team), and a loser with nowhere to go is out.
type Match struct {
	Round int
	Slot  int // position within the round, from 0
	Stage string
	Home  int
	Away  int
	Next  int // index of the match the winner plays next, -1 for none
	Side  int // 1: the winner is Next's home team, 2: its away team
	// LoserNext is the index of the match the loser plays next; it counts
	// only when LoserSide is 1 or 2 (0: the loser is out).
	LoserNext int
	LoserSide int
}

// Options are a format's choices; the zero value is every format's
// default. A Swiss stage plays Rounds rounds (0: DefaultSwissRounds), then
// its top TopCut teams (2, 4, 8 or 16; 0: none, the leader is champion)
// play a single elimination. A double elimination with GrandFinalReset
// plays a second grand final when the losers' champion wins the first, so
// that the winners' champion, unbeaten until then, also goes out only on a
// second loss.
type Options struct {
	Rounds          int  `json:"rounds,omitempty"`
	TopCut          int  `json:"top_cut,omitempty"`
	GrandFinalReset bool `json:"grand_final_reset,omitempty"`
}

// DefaultSwissRounds is enough rounds for one team to win them all when n
// is a power of two (log2 n, rounded up), and never more than n-1.
func DefaultSwissRounds(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return max(1, min(r, n-1))
}

// Check says what is wrong with o for format and n teams, in words an
// organiser reads, or nil.
func (o Options) Check(format string, n int) error {
	switch {
	case format != Swiss && (o.Rounds != 0 || o.TopCut != 0):
		return fmt.Errorf("rounds and top_cut are a Swiss stage's options, not %s's", format)
	case format != DoubleElimination && o.GrandFinalReset:
		return fmt.Errorf("a grand final reset (grand_final_reset) is a double elimination's option, not %s's", format)
	case format != Swiss:
		return nil
	case o.Rounds < 0 || o.Rounds > n-1:
		return fmt.Errorf("%d teams play 1 to %d Swiss rounds (each meets another team at most once while it can)", n, n-1)
	case o.TopCut != 0 && o.TopCut != 2 && o.TopCut != 4 && o.TopCut != 8 && o.TopCut != 16:
		return fmt.Errorf("a top cut is 2, 4, 8 or 16 teams (or 0 for none)")
	case o.TopCut > n:
		return fmt.Errorf("a top cut of %d needs at least %d teams; there are %d", o.TopCut, o.TopCut, n)
	}
	return nil
}

// Fixtures are a format's matches, each after the matches that feed it
// (by round, a double elimination's winners bracket before its losers
// bracket and the grand final), with the options they were made with.
type Fixtures struct {
	Format  string
	Teams   int
	Options Options
	Matches []Match
}

// Generate makes the fixtures of format for n teams seeded 1..n. For
// LeagueThenPlayoffs it makes the league stage only: the play-offs depend
// on its table (Playoffs). For Swiss it makes the first round only: each
// later round depends on the results (SwissRound), and so does the top cut.
func Generate(format string, n int, o Options) (Fixtures, error) {
	if n < MinTeams || n > MaxTeams {
		return Fixtures{}, fmt.Errorf("bracket: %d teams; a bracket needs %d to %d", n, MinTeams, MaxTeams)
	}
	if !ValidFormat(format) {
		return Fixtures{}, fmt.Errorf("bracket: unknown format %q", format)
	}
	if err := o.Check(format, n); err != nil {
		return Fixtures{}, err
	}
	if format == Swiss && o.Rounds == 0 {
		o.Rounds = DefaultSwissRounds(n)
	}
	f := Fixtures{Format: format, Teams: n, Options: o}
	switch format {
	case RoundRobin, LeagueThenPlayoffs:
		f.Matches = roundRobin(n)
	case SingleElimination:
		f.Matches = knockout(n, false)
	case DoubleElimination:
		f.Matches = knockout(n, true)
	case Swiss:
		f.Matches = swissFirstRound(n)
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
