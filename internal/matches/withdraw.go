// A team that stops showing up: withdrawn by an organiser, its matches go to whoever meets it.

package matches

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// EventWithdrawn tells the bracket topic that a team withdrew:
// {"tournament", "team", "reason", "forfeited"}.
const EventWithdrawn = "team.withdrawn"

// ActionWithdrawTeam is a team's withdrawal's audit entry.
const ActionWithdrawTeam = "team.withdraw"

// Withdrawal is what a team's withdrawal did: the matches it forfeited at
// once, and those it leaves for a ruling (reported or disputed: a forfeit
// never lands on a report).
type Withdrawal struct {
	Tournament string  `json:"tournament"`
	Team       TeamRef `json:"team"`
	Reason     string  `json:"reason"`
	Forfeited  []int64 `json:"forfeited"`
	ToRule     []int64 `json:"to_rule"`
}

// WithdrawTeam takes a team out of the season (organisers, in the matches
// phase): it plays no more. Each of its matches still to be played is a
// forfeit to its opponent, now or as soon as the opponent is known (a
// double elimination's losers bracket and grand final included); a Swiss
// stage pairs it no more; it stays in the tables, marked withdrawn, and is
// never champion nor in the play-offs. Before the fixtures it is left out
// of them. The last team still in the running cannot withdraw: somebody
// has to be champion.
func (s *Service) WithdrawTeam(ctx context.Context, a core.Actor, name, letter, reason string) (Withdrawal, error) {
	if err := tournament.Admit(a, tournament.WithdrawTeam); err != nil {
		return Withdrawal{}, err
	}
	letter = strings.ToUpper(strings.TrimSpace(letter))
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > MaxReason {
		return Withdrawal{}, errs.E(errs.Invalid, "A reason is at most %d characters.", MaxReason)
	}
	var w Withdrawal
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := tournament.Authorize(a, t, tournament.WithdrawTeam); err != nil {
			return err
		}
		if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
			return err
		}
		if err := t.Allows(tournament.WithdrawTeam); err != nil {
			return err
		}
		all, err := s.Store.Matches(ctx, t.ID)
		if err != nil {
			return err
		}
		seeds, err := s.fixtureTeams(ctx, t, all)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(seeds, func(st SeededTeam) bool { return st.Team.ID == letter })
		switch {
		case i < 0:
			return errs.E(errs.NotFound, "Team %s does not play in %s (a team plays once it has a captain).", letter, t.Name)
		case seeds[i].Withdrawn:
			return errs.E(errs.Conflict, "Team %s has withdrawn already.", letter)
		}
		team := seeds[i].Team
		out, err := s.Store.Withdrawn(ctx, t.ID)
		if err != nil {
			return err
		}
		champion, err := s.Store.Champion(ctx, t.ID)
		if err != nil {
			return err
		}
		running := inTheRunning(t, seeds, all, out)
		if champion != nil {
			running = []string{champion.ID} // everyone else is out
		}
		switch {
		case len(all) == 0 && len(running) <= bracket.MinTeams:
			return errs.E(errs.Conflict, "Withdrawing team %s would leave fewer than %d teams for the fixtures.", letter, bracket.MinTeams)
		case len(running) == 1 && running[0] == letter:
			return errs.E(errs.Conflict, "Team %s is the last team in the running: withdrawn, it would leave no champion. Rule on its matches instead.", letter)
		}
		rounds := 0
		for _, m := range all {
			if m.Stage == bracket.StageSwiss {
				rounds = max(rounds, m.Round)
			}
		}
		if err := s.Store.WithdrawTeam(ctx, team.DBID, reason, rounds); err != nil {
			return err
		}
		w = Withdrawal{Tournament: t.Name, Team: team, Reason: reason, Forfeited: []int64{}, ToRule: []int64{}}
		if w.Forfeited, err = s.settleWithdrawn(ctx, t.ID); err != nil {
			return err
		}
		if all, err = s.Store.Matches(ctx, t.ID); err != nil {
			return err
		}
		for _, m := range all {
			if m.Side(letter) != nil && (m.Status == StatusReported || m.Status == StatusDisputed) {
				w.ToRule = append(w.ToRule, m.ID)
			}
		}
		if err := s.Audit.Record(ctx, a, ActionWithdrawTeam, t.ID, "team "+letter, map[string]any{"team": letter, "reason": reason,
			"forfeited": w.Forfeited, "to_rule": w.ToRule, "swiss_rounds": rounds}); err != nil {
			return err
		}
		if _, err := s.Events.Emit(ctx, core.TopicBracket, EventWithdrawn, map[string]any{"tournament": t.Name, "team": team,
			"reason": reason, "forfeited": w.Forfeited}); err != nil {
			return err
		}
		return s.emitStandings(ctx, t)
	})
	return w, err
}

// settleWithdrawn forfeits, one after the other, every match still to be
// played whose sides are known and one of them withdrawn, to the side
// still in (bracket.ForfeitWinner): each forfeit may bring a withdrawn
// team to its next match, which goes the same way. It returns the matches
// it forfeited.
func (s *Service) settleWithdrawn(ctx context.Context, tournamentID int64) ([]int64, error) {
	done := []int64{}
	out, err := s.Store.Withdrawn(ctx, tournamentID)
	if err != nil || len(out) == 0 {
		return done, err
	}
	for {
		all, err := s.Store.Matches(ctx, tournamentID)
		if err != nil {
			return done, err
		}
		i := slices.IndexFunc(all, func(m Match) bool {
			if m.Team1 == nil || m.Team2 == nil || !slices.Contains(open, m.Status) {
				return false
			}
			_, ok := bracket.ForfeitWinner(m.Team1.ID, m.Team2.ID, out)
			return ok
		})
		if i < 0 {
			return done, nil
		}
		m, err := s.Store.LockMatch(ctx, all[i].ID)
		if err != nil {
			return done, err
		}
		winner, _ := bracket.ForfeitWinner(m.Team1.ID, m.Team2.ID, out)
		if err := s.Audit.Record(ctx, core.System, ActionForfeit, m.TournamentID, matchTarget(m),
			map[string]any{"team": m.Other(winner).ID, "withdrawn": true}); err != nil {
			return done, err
		}
		if err := s.record(ctx, m, Report{Winner: winner}, true); err != nil {
			return done, err
		}
		after, err := s.Store.FindMatch(ctx, m.ID)
		if err != nil {
			return done, err
		}
		if err := s.emitMatch(ctx, EventMatch, after); err != nil {
			return done, err
		}
		done = append(done, m.ID)
	}
}

// fixtureTeams are the seeded teams (with a captain) the season's fixtures
// are about: all of them, but for a team withdrawn before the fixtures
// were made, which is in none of them.
func (s *Service) fixtureTeams(ctx context.Context, t tournament.Tournament, all []Match) ([]SeededTeam, error) {
	seeds, err := s.Store.SeedTeams(ctx, t.ID)
	if err != nil || len(all) == 0 {
		return seeds, err
	}
	return slices.DeleteFunc(seeds, func(st SeededTeam) bool {
		return st.Withdrawn && !slices.ContainsFunc(all, func(m Match) bool { return m.Side(st.Team.ID) != nil })
	}), nil
}

// inTheRunning are the teams that can still be champion, by letter: not
// withdrawn and not knocked out. A team is knocked out by a loss that
// sends it nowhere in a knockout (a league's or a Swiss stage's losses
// knock nobody out; a double elimination's winners-bracket loss sends the
// loser on; a grand final the losers' champion wins is played again with
// the reset), and by play-offs made without it.
func inTheRunning(t tournament.Tournament, seeds []SeededTeam, all []Match, out bracket.Withdrawn) []string {
	knocked := map[string]bool{}
	var playoffs []string
	for _, m := range all {
		league := m.Stage == bracket.StageLeague || m.Stage == bracket.StageSwiss
		if !league {
			for _, side := range m.Sides() {
				playoffs = append(playoffs, side.ID)
			}
		}
		if league || m.Status != StatusCompleted || m.Winner == nil || m.LoserMatch != nil {
			continue
		}
		loser := m.Other(*m.Winner)
		if loser == nil {
			continue
		}
		gf := bracket.Match{Round: m.Round, Stage: m.Stage}
		if _, again := bracket.AfterGrandFinal(t.Options, gf, m.Team2 != nil && *m.Winner == m.Team2.ID); !again {
			knocked[loser.ID] = true
		}
	}
	// Play-offs after a league or a Swiss stage: those not in them are out.
	after := t.Format == bracket.LeagueThenPlayoffs || t.Format == bracket.Swiss
	var in []string
	for _, st := range seeds {
		switch {
		case out.Out(st.Team.ID), knocked[st.Team.ID]:
		case after && len(playoffs) > 0 && !slices.Contains(playoffs, st.Team.ID):
		default:
			in = append(in, st.Team.ID)
		}
	}
	return in
}
