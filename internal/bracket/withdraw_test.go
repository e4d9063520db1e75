package bracket

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// withdrawal is a season played with random results in which the teams
// gone withdraw once after matches have been played: from then on each
// of their matches is a forfeit (ForfeitWinner), a Swiss stage pairs them
// no more, and play-offs take the teams still in (Qualify). As the league
// refuses it, the last team still in the running (not knocked out) does
// not withdraw: someone has to be champion.
type withdrawal struct {
	t          *testing.T
	rng        *rand.Rand
	teams      []string // by seed: teams[0] is seed 1
	gone       []string
	after      int
	played     int
	out        Withdrawn
	knockedOut map[string]bool
	rounds     [][]Pair // a Swiss stage's pairs so far
	results    []Result
}

// play decides one match between home and away (teams), withdrawing the
// gone teams first when it is their time, and records its result.
func (w *withdrawal) play(home, away string) string {
	w.t.Helper()
	if w.played == w.after && w.out == nil {
		w.out = Withdrawn{}
		running := 0
		for _, team := range w.teams {
			if !w.knockedOut[team] && !slices.Contains(w.gone, team) {
				running++
			}
		}
		for _, g := range w.gone {
			if running == 0 && !w.knockedOut[g] {
				running++ // refused: the last team in the running stays
				continue
			}
			w.out[g] = len(w.rounds)
		}
	}
	w.played++
	r := Result{Home: home, Away: away}
	if winner, ok := ForfeitWinner(home, away, w.out); ok {
		r.Winner, r.Forfeit = winner, true
		if w.out.Out(winner) && !w.out.Out(r.loser()) {
			w.t.Fatalf("withdrawn %s wins against %s", winner, r.loser())
		}
	} else {
		r = result(Pair{home, away}, w.rng)
	}
	w.results = append(w.results, r)
	return r.Winner
}

// knockout plays a knockout's fixtures (seeds resolved by teams, which may
// be a play-off's own order) to its champion: winners and losers go where
// their match says, a grand final brings its reset when AfterGrandFinal
// says so.
func (w *withdrawal) knockout(f []Match, o Options, teams []string) string {
	w.t.Helper()
	ms := slices.Clone(f)
	champion := ""
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		if m.Home == 0 || m.Away == 0 {
			w.t.Fatalf("match %d (%+v) is played before both its sides are known", i, m)
		}
		home, away := teams[m.Home-1], teams[m.Away-1]
		winner := w.play(home, away)
		ws, ls := m.Home, m.Away
		if winner == away {
			ws, ls = m.Away, m.Home
		}
		place := func(to, side, seed int) {
			if side == 2 {
				ms[to].Away = seed
			} else {
				ms[to].Home = seed
			}
		}
		if m.LoserSide > 0 {
			place(m.LoserNext, m.LoserSide, ls)
		}
		reset, again := AfterGrandFinal(o, m, winner == away)
		if m.LoserSide == 0 && !again {
			w.knockedOut[teams[ls-1]] = true
		}
		if m.Next >= 0 {
			place(m.Next, m.Side, ws)
			continue
		}
		if again {
			ms = append(ms, reset)
			continue
		}
		if champion != "" {
			w.t.Fatal("two champions")
		}
		champion = winner
	}
	return champion
}

// playoffs plays the play-offs of the qualified teams (best first), or
// crowns the only one.
func (w *withdrawal) playoffs(qualified []string) string {
	w.t.Helper()
	switch len(qualified) {
	case 0:
		return ""
	case 1:
		return qualified[0]
	}
	// Whoever is not in the play-offs is out of the running.
	for _, team := range w.teams {
		if !slices.Contains(qualified, team) {
			w.knockedOut[team] = true
		}
	}
	order := make([]int, len(qualified))
	for i := range order {
		order[i] = i + 1
	}
	po, err := Playoffs(order, len(qualified))
	if err != nil {
		w.t.Fatal(err)
	}
	return w.knockout(po, Options{}, qualified)
}

// stillIn says, apart from the code under test, whether team was still in
// when round r was paired: not withdrawn, or withdrawn with round r paired.
func (w *withdrawal) stillIn(team string, r int) bool {
	n, gone := w.out[team]
	return !gone || n >= r
}

// swiss plays a Swiss stage of rounds, then its top cut (or crowns its
// leader): checking that nobody withdrawn is paired after withdrawing or
// given a bye, and that nobody sits out twice while a team still in has
// not sat out yet.
func (w *withdrawal) swiss(first []Match, o Options) string {
	w.t.Helper()
	ms := first
	byes := map[string]int{}
	for r := 1; ; r++ {
		pairs := pairsOf(w.teams, ms)
		w.rounds = append(w.rounds, pairs)
		var in []string
		for _, team := range w.teams {
			if w.stillIn(team, r) {
				in = append(in, team)
			}
		}
		for _, team := range in {
			if !sitsOut(pairs, team) {
				continue
			}
			if byes[team] > 0 && slices.ContainsFunc(in, func(x string) bool { return byes[x] == 0 }) {
				w.t.Fatalf("round %d: %s sits out a second time while others still in never did", r, team)
			}
			byes[team]++
		}
		if len(in)-2*len(pairs) > 1 {
			w.t.Fatalf("round %d pairs %d of the %d teams still in", r, 2*len(pairs), len(in))
		}
		for _, p := range pairs {
			if !w.stillIn(p.Home, r) || !w.stillIn(p.Away, r) {
				w.t.Fatalf("round %d pairs %v, a team that withdrew before it", r, p)
			}
			w.play(p.Home, p.Away)
		}
		if r == o.Rounds {
			break
		}
		if ms = SwissRound(w.teams, w.rounds, w.results, w.out); len(ms) == 0 {
			break // fewer than two teams still in: the stage is over
		}
	}
	rows := SwissStandings(w.teams, w.rounds, w.results, w.out)
	for _, row := range rows {
		if row.Byes != byes[row.Team] {
			w.t.Fatalf("%s counts %d byes, sat out %d rounds while still in", row.Team, row.Byes, byes[row.Team])
		}
	}
	if o.TopCut == 0 {
		return w.playoffs(Qualify(rows, w.out, 1))
	}
	return w.playoffs(Qualify(rows, w.out, o.TopCut))
}

// season plays format to its champion.
func (w *withdrawal) season(format string, o Options) string {
	w.t.Helper()
	f, err := Generate(format, len(w.teams), o)
	if err != nil {
		w.t.Fatal(err)
	}
	switch format {
	case SingleElimination, DoubleElimination:
		return w.knockout(f.Matches, f.Options, w.teams)
	case Swiss:
		return w.swiss(f.Matches, f.Options)
	}
	for _, m := range f.Matches {
		w.play(w.teams[m.Home-1], w.teams[m.Away-1])
	}
	rows := Standings(w.teams, w.results, DefaultScoring)
	if format == RoundRobin || len(w.teams) < PlayoffTeams {
		return w.playoffs(Qualify(rows, w.out, 1))
	}
	return w.playoffs(Qualify(rows, w.out, PlayoffTeams))
}

// A team (or several) withdrawing at any point of a season, in every
// format and for every size, leaves a bracket that still reaches one
// champion, and the champion is a team still in: each match of a withdrawn
// team after it withdrew is a forfeit to whoever meets it (a double
// elimination's losers bracket and grand final included), a Swiss stage
// pairs it no more and gives it no bye, and play-offs are for the teams
// still in.
func TestAWithdrawalStillYieldsAChampion(t *testing.T) {
	type variant struct {
		format string
		o      Options
	}
	variants := []variant{{SingleElimination, Options{}}, {DoubleElimination, Options{}}, {DoubleElimination, Options{GrandFinalReset: true}},
		{RoundRobin, Options{}}, {LeagueThenPlayoffs, Options{}}, {Swiss, Options{}}, {Swiss, Options{TopCut: 4}}, {Swiss, Options{TopCut: 2}}}
	for _, v := range variants {
		for n := MinTeams; n <= MaxTeams; n++ {
			if v.o.TopCut > n {
				continue
			}
			t.Run(fmt.Sprintf("%s %+v, %d teams", v.format, v.o, n), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 38))
				// The matches a season plays without withdrawals bound when one may come.
				plain := &withdrawal{t: t, rng: rng, teams: letters(n), after: -1, knockedOut: map[string]bool{}}
				plain.season(v.format, v.o)
				for try := range 30 {
					w := &withdrawal{t: t, rng: rng, teams: letters(n), after: rng.IntN(plain.played + 1), knockedOut: map[string]bool{}}
					// One team, or several (all but one at most), the strongest among them sometimes.
					k := 1
					if try%3 == 2 {
						k = 1 + rng.IntN(n-1)
					}
					perm := rng.Perm(n)
					for _, i := range perm[:k] {
						w.gone = append(w.gone, w.teams[i])
					}
					if try%5 == 0 {
						w.gone[0] = w.teams[0]
					}
					champion := w.season(v.format, v.o)
					switch {
					case champion == "":
						t.Fatalf("no champion with %v withdrawn after %d matches", w.gone, w.after)
					case w.out != nil && w.out.Out(champion):
						t.Fatalf("withdrawn %s is champion (%v withdrawn after %d matches)", champion, w.gone, w.after)
					}
				}
			})
		}
	}
}

// The one place a forfeit's winner is decided: the side still in, or the
// home side when both withdrew; no forfeit when neither did.
func TestForfeitWinner(t *testing.T) {
	out := Withdrawn{"B": 0, "C": 2}
	for _, c := range []struct {
		home, away, winner string
		ok                 bool
	}{{"A", "B", "A", true}, {"B", "A", "A", true}, {"B", "C", "B", true}, {"A", "D", "", false}} {
		if w, ok := ForfeitWinner(c.home, c.away, out); w != c.winner || ok != c.ok {
			t.Errorf("%s v %s: %q %v, want %q %v", c.home, c.away, w, ok, c.winner, c.ok)
		}
	}
}

// Play-offs take the teams still in, best first: as many as the largest
// power of two the cut and their number allow.
func TestQualify(t *testing.T) {
	rows := []Row{{Team: "A"}, {Team: "B"}, {Team: "C"}, {Team: "D"}, {Team: "E"}}
	for _, c := range []struct {
		out  Withdrawn
		size int
		want []string
	}{
		{nil, 4, []string{"A", "B", "C", "D"}},
		{Withdrawn{"B": 0}, 4, []string{"A", "C", "D", "E"}},
		{Withdrawn{"A": 0, "B": 0}, 4, []string{"C", "D"}},
		{Withdrawn{"A": 0, "B": 0, "C": 0, "D": 0}, 4, []string{"E"}},
		{Withdrawn{"A": 0}, 1, []string{"B"}},
		{Withdrawn{"A": 0, "B": 0, "C": 0, "D": 0, "E": 0}, 2, nil},
	} {
		if got := Qualify(rows, c.out, c.size); !slices.Equal(got, c.want) {
			t.Errorf("%v out, top %d: %v, want %v", c.out, c.size, got, c.want)
		}
	}
}
