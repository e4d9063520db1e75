package matches_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// losses counts each team's losses in the tournament's completed matches.
func (s *season) losses() map[string]int {
	s.t.Helper()
	b, err := s.svc.Bracket(context.Background(), s.admin, "PPL7")
	if err != nil {
		s.t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range b.Rounds {
		for _, m := range r.Matches {
			if m.Status == matches.StatusCompleted {
				out[m.Other(*m.Winner).ID]++
			}
		}
	}
	return out
}

// roundsOf names a bracket's rounds as "bracket stage number".
func roundsOf(b matches.Bracket) []string {
	var out []string
	for _, r := range b.Rounds {
		out = append(out, fmt.Sprintf("%s %s %d", r.Bracket, r.Stage, r.Number))
	}
	return out
}

// A double elimination of eight with the reset: winners drop into the
// losers bracket on their first loss and go out on their second; the
// losers' champion beats the unbeaten winners' champion, so the grand
// final is played again; a correction of the first grand final takes the
// unplayed reset away and gives it back; the reset crowns the champion,
// every other team out on two losses.
func TestDoubleEliminationSeason(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 8))
	b, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.DoubleElimination})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"winners winners 1", "winners winners 2", "winners winners 3", "losers losers 1", "losers losers 2",
		"losers losers 3", "losers losers 4", "grand_final grand_final 1"}
	if got := roundsOf(b); !slices.Equal(got, want) || b.Options == nil || !b.Options.GrandFinalReset {
		t.Fatalf("rounds %v, options %+v", got, b.Options)
	}
	seedOf := map[string]int{}
	for _, st := range b.Seeds {
		seedOf[st.Team.ID] = st.Seed
	}
	top := func(seed int) string { return b.Seeds[seed-1].Team.ID }
	// The favourite wins everything but the grand final, which the losers'
	// champion (seed 2, beaten by seed 1 in the winners' final) wins.
	win := func(m matches.Match) string {
		if m.Stage == bracket.StageGrandFinal {
			return m.Team2.ID
		}
		if seedOf[m.Team1.ID] < seedOf[m.Team2.ID] {
			return m.Team1.ID
		}
		return m.Team2.ID
	}
	for s.play(func(m matches.Match) string {
		if m.Stage == bracket.StageGrandFinal && m.Round == 2 {
			t.Fatal("the reset is played before the grand final's correction is tried")
		}
		return win(m)
	}, rng) > 0 {
		if b, _ = s.svc.Bracket(ctx, s.admin, "PPL7"); len(b.Rounds) == 9 {
			break
		}
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	gf := b.Rounds[7].Matches[0]
	if len(b.Rounds) != 9 || b.Champion != nil || gf.Team1.ID != top(1) || gf.Team2.ID != top(2) || *gf.Winner != top(2) {
		t.Fatalf("after the grand final: rounds %v, champion %+v, grand final %v v %v won by %v", roundsOf(b), b.Champion, gf.Team1, gf.Team2, *gf.Winner)
	}
	reset := b.Rounds[8].Matches[0]
	if reset.Stage != bracket.StageGrandFinal || reset.Round != 2 || reset.Team1.ID != top(1) || reset.Team2.ID != top(2) {
		t.Fatalf("reset %+v", reset)
	}

	// The organiser corrects the grand final: the winners' champion won it
	// after all, so there is no reset and seed 1 is champion; corrected back,
	// the reset returns.
	gf = s.match(gf.ID)
	if _, err := s.svc.Resolve(ctx, s.admin, gf.ID, s.report(gf, top(1), rng).Report); err != nil {
		t.Fatal(err)
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if len(b.Rounds) != 8 || b.Champion == nil || b.Champion.ID != top(1) {
		t.Fatalf("corrected: rounds %v, champion %+v", roundsOf(b), b.Champion)
	}
	if _, err := s.svc.Resolve(ctx, s.admin, gf.ID, s.report(gf, top(2), rng).Report); err != nil {
		t.Fatal(err)
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if len(b.Rounds) != 9 || b.Champion != nil {
		t.Fatalf("corrected back: rounds %v, champion %+v", roundsOf(b), b.Champion)
	}
	_, err = s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false)
	refused(t, "completing before the reset", err, errs.Conflict)

	if n := s.play(win, rng); n != 1 {
		t.Fatalf("%d matches played after the grand final, want the reset", n)
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if b.Champion == nil || b.Champion.ID != top(2) {
		t.Fatalf("champion %+v, want seed 2 (%s)", b.Champion, top(2))
	}
	losses := s.losses()
	for _, st := range b.Seeds {
		want := 2
		if st.Team.ID == top(2) {
			want = 1
		}
		if losses[st.Team.ID] != want {
			t.Fatalf("team %s (seed %d) lost %d times, want %d (%v)", st.Team.ID, st.Seed, losses[st.Team.ID], want, losses)
		}
	}
	_, err = s.svc.Resolve(ctx, s.admin, gf.ID, s.report(s.match(gf.ID), top(1), rng).Report)
	refused(t, "overturning a grand final whose reset is played", err, errs.Conflict)
	first := s.match(b.Rounds[0].Matches[0].ID)
	_, err = s.svc.Resolve(ctx, s.admin, first.ID, s.report(first, first.Other(*first.Winner).ID, rng).Report)
	refused(t, "overturning a first-round result whose sides played on", err, errs.Conflict)

	table, err := s.svc.Standings(ctx, "PPL7")
	if err != nil || table.Stage != "all" || len(table.Rows) != 8 {
		t.Fatalf("points table %+v %v", table, err)
	}
	if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false); err != nil {
		t.Fatal(err)
	}
}

// A Swiss stage of eight, three rounds and a top cut of four: each round is
// paired when the one before ends, on the standings and without a rematch;
// a result stands once the next round is paired on it; the top four of the
// standings play semi-finals (1 v 4, 2 v 3) and a final for the title.
func TestSwissSeason(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(6, 6))
	_, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.Swiss, Rounds: 8})
	refused(t, "eight Swiss rounds for eight teams", err, errs.Unprocessable)
	_, err = s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.Swiss, Rounds: 40})
	refused(t, "more Swiss rounds than any count of teams can play", err, errs.Invalid)
	_, err = s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.SingleElimination, TopCut: 4})
	refused(t, "a top cut for a knockout", err, errs.Invalid)
	b, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.Swiss, Rounds: 3, TopCut: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := roundsOf(b); !slices.Equal(got, []string{"swiss swiss 1"}) || b.Options.Rounds != 3 || b.Options.TopCut != 4 {
		t.Fatalf("rounds %v, options %+v", got, b.Options)
	}
	met := map[[2]string]bool{}
	random := func(m matches.Match) string {
		if rng.IntN(2) == 0 {
			return m.Team1.ID
		}
		return m.Team2.ID
	}
	for round := 1; round <= 3; round++ {
		b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
		if len(b.Rounds) != round {
			t.Fatalf("before round %d: rounds %v", round, roundsOf(b))
		}
		r := b.Rounds[round-1]
		if r.Bracket != bracket.StageSwiss || len(r.Matches) != 4 || r.Bye != nil {
			t.Fatalf("round %d: %+v", round, r)
		}
		for _, m := range r.Matches {
			pair := [2]string{min(m.Team1.ID, m.Team2.ID), max(m.Team1.ID, m.Team2.ID)}
			if met[pair] {
				t.Fatalf("round %d: %v meet again", round, pair)
			}
			met[pair] = true
		}
		if n := s.play(random, rng); n != 4 {
			t.Fatalf("round %d: %d matches played", round, n)
		}
		if round == 1 {
			table, _ := s.svc.Standings(ctx, "PPL7")
			if table.Stage != bracket.StageSwiss || !slices.Contains(table.TieBreak, "Buchholz") || table.Scoring != bracket.SwissScoring {
				t.Fatalf("the Swiss standings: %+v", table)
			}
		}
	}
	first := s.match(b.Rounds[0].Matches[0].ID)
	_, err = s.svc.Resolve(ctx, s.admin, first.ID, s.report(first, first.Other(*first.Winner).ID, rng).Report)
	refused(t, "overturning a Swiss result the next round was paired on", err, errs.Conflict)

	table, err := s.svc.Standings(ctx, "PPL7")
	if err != nil || len(table.Rows) != 8 {
		t.Fatalf("standings %+v %v", table, err)
	}
	for _, row := range table.Rows {
		if row.Played != 3 || row.Points != row.Won {
			t.Fatalf("row %+v after three rounds", row)
		}
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if got := roundsOf(b); !slices.Equal(got, []string{"swiss swiss 1", "swiss swiss 2", "swiss swiss 3", " semi_final 4", " final 5"}) {
		t.Fatalf("rounds %v", got)
	}
	semis := b.Rounds[3].Matches
	rank := func(i int) string { return table.Rows[i].Team }
	if semis[0].Team1.ID != rank(0) || semis[0].Team2.ID != rank(3) || semis[1].Team1.ID != rank(1) || semis[1].Team2.ID != rank(2) {
		t.Fatalf("semi-finals %v v %v, %v v %v; standings %v %v %v %v", semis[0].Team1, semis[0].Team2, semis[1].Team1, semis[1].Team2,
			rank(0), rank(1), rank(2), rank(3))
	}
	for s.play(random, rng) > 0 {
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if b.Champion == nil || !slices.Contains([]string{rank(0), rank(1), rank(2), rank(3)}, b.Champion.ID) {
		t.Fatalf("champion %+v", b.Champion)
	}
	if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false); err != nil {
		t.Fatal(err)
	}
}

// A Swiss stage of seven without a cut: one team sits out each round (a
// bye, shown with the round and counted a win), never the same one twice,
// and after the last round the standings' leader is champion.
func TestSwissSeasonWithByes(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	if _, err := s.db.Pool.Exec(ctx, `UPDATE teams SET captain_user_id = NULL WHERE tournament_id = $1 AND letter = 'H'`, s.tid); err != nil {
		t.Fatal(err)
	}
	b, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.Swiss})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Seeds) != 7 || b.Options.Rounds != 3 {
		t.Fatalf("%d seeds, options %+v", len(b.Seeds), b.Options)
	}
	for s.play(func(m matches.Match) string { return m.Team1.ID }, rng) > 0 {
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	byes := map[string]int{}
	for _, r := range b.Rounds {
		if r.Bye == nil || len(r.Matches) != 3 {
			t.Fatalf("round %d: %d matches, bye %+v", r.Number, len(r.Matches), r.Bye)
		}
		byes[r.Bye.ID]++
		if byes[r.Bye.ID] > 1 {
			t.Fatalf("team %s sits out twice", r.Bye.ID)
		}
	}
	table, _ := s.svc.Standings(ctx, "PPL7")
	if len(b.Rounds) != 3 || b.Champion == nil || b.Champion.ID != table.Rows[0].Team {
		t.Fatalf("rounds %v, champion %+v, standings' leader %s", roundsOf(b), b.Champion, table.Rows[0].Team)
	}
	for _, row := range table.Rows {
		if row.Played+row.Byes != 3 || row.Byes != byes[row.Team] {
			t.Fatalf("row %+v, byes %v", row, byes)
		}
	}
}

// Organisers reorder the seeds before the fixtures (the order every team
// with a captain once, audited, told on the bracket topic) and the
// fixtures are made by it; an empty order goes back to strength; nobody
// else reorders, and nobody once the fixtures are made.
func TestReorderSeeds(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	b, err := s.svc.Bracket(ctx, s.admin, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	var byStrength, reversed []string
	for _, st := range b.Seeds {
		byStrength = append(byStrength, st.Team.ID)
	}
	reversed = slices.Clone(byStrength)
	slices.Reverse(reversed)

	_, err = s.svc.SetSeeds(ctx, s.captain("A"), "PPL7", reversed)
	refused(t, "a captain reorders the seeds", err, errs.Forbidden)
	_, err = s.svc.SetSeeds(ctx, s.admin, "PPL7", reversed[:7])
	refused(t, "an order without one team", err, errs.Unprocessable)
	_, err = s.svc.SetSeeds(ctx, s.admin, "PPL7", append(reversed[:7:7], reversed[0]))
	refused(t, "an order naming a team twice", err, errs.Unprocessable)

	lower := make([]string, len(reversed))
	for i, l := range reversed {
		lower[i] = string(rune(l[0] + 'a' - 'A'))
	}
	b, err = s.svc.SetSeeds(ctx, s.admin, "PPL7", lower)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range b.Seeds {
		got = append(got, st.Team.ID)
	}
	if !slices.Equal(got, reversed) || b.SeededBy != matches.SeededByOrder {
		t.Fatalf("seeds %v (%s), want %v", got, b.SeededBy, reversed)
	}
	var audited, told int
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action = 'bracket.seeds'`).Scan(&audited)
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE event = 'bracket.seeds'`).Scan(&told)
	if audited != 1 || told != 1 {
		t.Fatalf("%d audit entries, %d events", audited, told)
	}

	b, _ = s.svc.SetSeeds(ctx, s.admin, "PPL7", nil)
	got = got[:0]
	for _, st := range b.Seeds {
		got = append(got, st.Team.ID)
	}
	if !slices.Equal(got, byStrength) || b.SeededBy != matches.SeededBy {
		t.Fatalf("back to strength: %v (%s), want %v", got, b.SeededBy, byStrength)
	}

	if _, err := s.svc.SetSeeds(ctx, s.admin, "PPL7", reversed); err != nil {
		t.Fatal(err)
	}
	b, err = s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	first := b.Rounds[0].Matches[0]
	if first.Team1.ID != reversed[0] || first.Team2.ID != reversed[7] {
		t.Fatalf("the first match is %s v %s; seeds 1 and 8 are %s and %s", first.Team1.ID, first.Team2.ID, reversed[0], reversed[7])
	}
	_, err = s.svc.SetSeeds(ctx, s.admin, "PPL7", byStrength)
	refused(t, "reordering after the fixtures", err, errs.Conflict)
}

// Rounds and formats are named as the bot and the pages say them.
func TestRoundAndFormatNames(t *testing.T) {
	rounds := []struct {
		stage string
		round int
		want  string
	}{
		{bracket.StageLeague, 3, "Round 3"},
		{"quarter_final", 1, "Quarter-finals"},
		{bracket.StageSemi, 2, "Semi-finals"},
		{bracket.StageFinal, 3, "Final"},
		{"round_of_16", 1, "Round of 16"},
		{bracket.StageWinners, 2, "Winners round 2"},
		{bracket.StageLosers, 4, "Losers round 4"},
		{bracket.StageGrandFinal, 1, "Grand final"},
		{bracket.StageGrandFinal, 2, "Grand final reset"},
		{bracket.StageSwiss, 1, "Swiss round 1"},
	}
	for _, c := range rounds {
		if got := matches.RoundName(c.stage, c.round); got != c.want {
			t.Errorf("RoundName(%q, %d) = %q, want %q", c.stage, c.round, got, c.want)
		}
	}
	formats := []struct{ got, want string }{
		{matches.FormatName(bracket.Swiss, &bracket.Options{Rounds: 4, TopCut: 8}), "swiss, 4 rounds, top 8 cut"},
		{matches.FormatName(bracket.Swiss, &bracket.Options{Rounds: 3}), "swiss, 3 rounds"},
		{matches.FormatName(bracket.DoubleElimination, &bracket.Options{GrandFinalReset: true}), "double elimination with a grand final reset"},
		{matches.FormatName(bracket.DoubleElimination, &bracket.Options{}), "double elimination"},
		{matches.FormatName(bracket.LeagueThenPlayoffs, nil), "league then playoffs"},
	}
	for _, c := range formats {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
