// What a result sets going: winners and losers moving on, later rounds made, a champion crowned.

package matches

import (
	"context"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/tournament"
)

// complete records a result (record), then forfeits whatever match it
// brings a withdrawn team to (settleWithdrawn).
func (s *Service) complete(ctx context.Context, m Match, r Report, forfeit bool) error {
	if err := s.record(ctx, m, r, forfeit); err != nil {
		return err
	}
	_, err := s.settleWithdrawn(ctx, m.TournamentID)
	return err
}

// record records a result: the winner advances (and a double
// elimination's loser drops), a finished league stage makes its play-offs,
// a finished Swiss round the next round or the top cut, a final or a
// grand final crowns the champion, and the tables change.
func (s *Service) record(ctx context.Context, m Match, r Report, forfeit bool) error {
	winner := m.Side(r.Winner)
	lines := r.Players
	if forfeit {
		lines = nil
	}
	if err := s.Store.Complete(ctx, m, *winner, lines, forfeit); err != nil {
		return err
	}
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return err
	}
	switch {
	case m.Stage == bracket.StageLeague:
		if stageDone(all, bracket.StageLeague) {
			err = s.afterLeague(ctx, t, all)
		}
	case m.Stage == bracket.StageSwiss:
		if stageDone(all, bracket.StageSwiss) {
			err = s.afterSwiss(ctx, t, all)
		}
	case m.Stage == bracket.StageGrandFinal:
		err = s.afterGrandFinal(ctx, t, m, *winner, all)
	case m.NextMatch == nil:
		err = s.Store.SetChampion(ctx, t.ID, winner)
	}
	if err != nil {
		return err
	}
	return s.emitStandings(ctx, t)
}

// afterGrandFinal crowns a grand final's winner, unless the losers'
// champion won the first with the reset on: then the two play again, and
// nobody is champion until they have. A correction that gives the first
// back to the winners' champion takes the unplayed reset away.
func (s *Service) afterGrandFinal(ctx context.Context, t tournament.Tournament, m Match, winner TeamRef, all []Match) error {
	var reset *Match
	for _, x := range all {
		if x.Stage == bracket.StageGrandFinal && x.Round > m.Round {
			reset = &x
		}
	}
	gf := bracket.Match{Round: m.Round, Stage: m.Stage, Home: 1, Away: 2}
	if again, ok := bracket.AfterGrandFinal(t.Options, gf, winner.ID == m.Team2.ID); ok {
		if err := s.Store.SetChampion(ctx, t.ID, nil); err != nil || reset != nil {
			return err
		}
		if _, err := s.Store.CreateMatches(ctx, t.ID, []bracket.Match{again}, map[int]TeamRef{1: *m.Team1, 2: *m.Team2}); err != nil {
			return err
		}
		return s.emitBracket(ctx, t.ID)
	}
	if reset != nil {
		if err := s.Store.DeleteMatch(ctx, reset.ID); err != nil {
			return err
		}
		if err := s.emitBracket(ctx, t.ID); err != nil {
			return err
		}
	}
	return s.Store.SetChampion(ctx, t.ID, &winner)
}

// swissStage is a Swiss stage so far, as internal/bracket takes it.
type swissStage struct {
	teams   []string // in seed order
	bySeed  map[int]TeamRef
	rounds  [][]bracket.Pair
	results []bracket.Result
	out     bracket.Withdrawn
}

func (s *Service) swissStage(ctx context.Context, t tournament.Tournament, all []Match) (swissStage, error) {
	st := swissStage{bySeed: map[int]TeamRef{}}
	seeds, err := s.fixtureTeams(ctx, t, all)
	if err != nil {
		return st, err
	}
	for _, sd := range seeds {
		st.teams = append(st.teams, sd.Team.ID)
		st.bySeed[sd.Seed] = sd.Team
	}
	if st.out, err = s.Store.Withdrawn(ctx, t.ID); err != nil {
		return st, err
	}
	for _, m := range all {
		if m.Stage != bracket.StageSwiss || m.Team1 == nil || m.Team2 == nil {
			continue
		}
		for len(st.rounds) < m.Round {
			st.rounds = append(st.rounds, nil)
		}
		st.rounds[m.Round-1] = append(st.rounds[m.Round-1], bracket.Pair{Home: m.Team1.ID, Away: m.Team2.ID})
	}
	st.results, err = s.Store.Results(ctx, t.ID, bracket.StageSwiss)
	return st, err
}

// afterSwiss follows a Swiss round's last result: the next round, paired
// on the standings, or once every round is played the top cut's play-offs,
// seeded by the standings, or without a cut the leader is champion.
func (s *Service) afterSwiss(ctx context.Context, t tournament.Tournament, all []Match) error {
	for _, m := range all {
		if m.Stage != bracket.StageSwiss {
			return nil // the top cut is made already
		}
	}
	st, err := s.swissStage(ctx, t, all)
	if err != nil {
		return err
	}
	played := len(st.rounds)
	if played < t.Options.Rounds {
		// Fewer than two teams still in pair no round: the stage is over.
		if next := bracket.SwissRound(st.teams, st.rounds, st.results, st.out); len(next) > 0 {
			if _, err := s.Store.CreateMatches(ctx, t.ID, next, st.bySeed); err != nil {
				return err
			}
			return s.emitBracket(ctx, t.ID)
		}
	}
	rows := bracket.SwissStandings(st.teams, st.rounds, st.results, st.out)
	refs := map[string]TeamRef{}
	for _, ref := range st.bySeed {
		refs[ref.ID] = ref
	}
	// Without a cut the leader still in is champion; with one, the teams
	// still in play it off (fewer when fewer are left).
	return s.playoffs(ctx, t, bracket.Qualify(rows, st.out, max(t.Options.TopCut, 1)), refs, played)
}

// playoffs crowns the only qualified team, or makes the play-offs of the
// qualified (best first) after round last.
func (s *Service) playoffs(ctx context.Context, t tournament.Tournament, qualified []string, refs map[string]TeamRef, last int) error {
	switch len(qualified) {
	case 0:
		return nil
	case 1:
		champion := refs[qualified[0]]
		return s.Store.SetChampion(ctx, t.ID, &champion)
	}
	bySeed := map[int]TeamRef{}
	order := make([]int, len(qualified))
	for i, team := range qualified {
		bySeed[i+1], order[i] = refs[team], i+1
	}
	po, err := bracket.Playoffs(order, len(qualified))
	if err != nil {
		return err
	}
	for i := range po {
		po[i].Round += last
	}
	if _, err := s.Store.CreateMatches(ctx, t.ID, po, bySeed); err != nil {
		return err
	}
	return s.emitBracket(ctx, t.ID)
}

func stageDone(all []Match, stage string) bool {
	for _, m := range all {
		if m.Stage == stage && m.Status != StatusCompleted && m.Status != StatusCancelled {
			return false
		}
	}
	return true
}

// afterLeague ends a league stage: the table's leader still in is
// champion of a round robin; a league then play-offs sends its top four
// still in (fewer when fewer are left) to the play-offs.
func (s *Service) afterLeague(ctx context.Context, t tournament.Tournament, all []Match) error {
	table, err := s.standings(ctx, t)
	if err != nil {
		return err
	}
	out, err := s.Store.Withdrawn(ctx, t.ID)
	if err != nil || len(table.Rows) == 0 {
		return err
	}
	rows := make([]bracket.Row, len(table.Rows))
	refs := map[string]TeamRef{}
	for i, row := range table.Rows {
		rows[i], refs[row.Team] = row.Row, row.TeamRef
	}
	if t.Format != bracket.LeagueThenPlayoffs || len(table.Rows) < bracket.PlayoffTeams {
		return s.playoffs(ctx, t, bracket.Qualify(rows, out, 1), refs, 0)
	}
	for _, m := range all {
		if m.Stage != bracket.StageLeague {
			return nil // the play-offs are made already
		}
	}
	lastRound := 0
	for _, m := range all {
		lastRound = max(lastRound, m.Round)
	}
	return s.playoffs(ctx, t, bracket.Qualify(rows, out, bracket.PlayoffTeams), refs, lastRound)
}
