package bracket

// A team that withdraws plays no more. Every match it still has to play is
// a forfeit to whoever meets it (in a knockout, a double elimination's
// losers bracket and grand final included, so the bracket still reaches
// its champion); a Swiss stage pairs it no more; a table keeps it with what
// it won, but it never goes on to play-offs and is never champion.

// Withdrawn are the teams that withdrew, each with how many Swiss rounds
// were paired when it did: it keeps a bye it had until then, and is in
// none of the rounds after (0 for the other formats, or before a round).
type Withdrawn map[string]int

// Out reports whether team withdrew.
func (w Withdrawn) Out(team string) bool {
	_, ok := w[team]
	return ok
}

// inRound reports whether team was still in the stage when Swiss round r
// was paired.
func (w Withdrawn) inRound(team string, r int) bool {
	n, ok := w[team]
	return !ok || r <= n
}

// ForfeitWinner is who wins a match between home and away when a side has
// withdrawn: the other side; with both withdrawn, the home side goes on
// (it loses its next match the same way). ok is false when neither has.
func ForfeitWinner(home, away string, out Withdrawn) (winner string, ok bool) {
	switch {
	case out.Out(away):
		return home, true
	case out.Out(home):
		return away, true
	}
	return "", false
}

// Qualify is the top of a table or standings (rows ranked best first) for
// play-offs of size: the teams that have not withdrawn, best first, as many
// as the largest power of two no more than size and their number. One
// team left is the champion; none, nobody is.
func Qualify(rows []Row, out Withdrawn, size int) []string {
	var in []string
	for _, r := range rows {
		if !out.Out(r.Team) {
			in = append(in, r.Team)
		}
	}
	n := 1
	for n*2 <= min(size, len(in)) {
		n *= 2
	}
	return in[:min(n, len(in))]
}
