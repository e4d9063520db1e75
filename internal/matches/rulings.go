// An organiser's word on a match: a ruling or a correction, and forfeits.

package matches

import (
	"context"
	"slices"
	"strings"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Resolve rules on a match (organisers): a dispute, a report nobody
// answered, a match nobody reported (a no-show), or a correction of a
// completed result. A correction that changes the winner waits on nothing
// the result decided being played: the winner's and the loser's next
// matches, a grand final's reset; a Swiss result's winner is final once the
// next round is paired on it. A ruling that names only the winner keeps the
// lines reported, else counts each side's lineup (or its first four
// players) with no kills.
func (s *Service) Resolve(ctx context.Context, a core.Actor, id int64, r Report) (Match, error) {
	m, err := s.change(ctx, a, ActResolve, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if len(r.Players) == 0 {
			r.Players = linesWithoutScore(m)
		}
		if err := checkReport(m, r); err != nil {
			return err
		}
		if m.Status == StatusCompleted && m.Winner != nil && *m.Winner != r.Winner {
			if err := s.mayOverturn(ctx, m); err != nil {
				return err
			}
		}
		if err := s.Audit.Record(ctx, a, ActionResolve, m.TournamentID, matchTarget(m),
			map[string]any{"was": m.Status, "report": r}); err != nil {
			return err
		}
		return s.complete(ctx, m, r, false)
	})
	return shown(m, a, s.now()), err
}

// linesWithoutScore are the lines of a ruling that gives only the winner:
// those reported, else each side's lineup (or first four players) with no
// kills.
func linesWithoutScore(m Match) []PlayerLine {
	if m.Report != nil && len(m.Report.Players) > 0 {
		return slices.Clone(m.Report.Players)
	}
	var lines []PlayerLine
	for _, side := range m.Sides() {
		list := m.Lineups[side.ID]
		if len(list) == 0 {
			list = m.Members[side.ID]
		}
		for _, p := range list[:min(len(list), KartsPerSide)] {
			lines = append(lines, PlayerLine{UserID: p.UserID, Team: side.ID})
		}
	}
	return lines
}

// Forfeit gives the match to the other side (a side's captain forfeits
// their own team) while nobody has reported it.
func (s *Service) Forfeit(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActForfeit, id, func(ctx context.Context, m Match, side *TeamRef) error {
		return s.forfeit(ctx, a, m, side)
	})
	return shown(m, a, s.now()), err
}

// ForfeitFor forfeits a side on an organiser's word (a side that does not
// turn up): the other side wins, as when its captain forfeits. A match
// reported already is ruled on instead (Resolve), so no kills are lost.
func (s *Service) ForfeitFor(ctx context.Context, a core.Actor, id int64, team string) (Match, error) {
	team = strings.ToUpper(strings.TrimSpace(team))
	m, err := s.change(ctx, a, ActForfeitSide, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		side := m.Side(team)
		if side == nil {
			return errs.E(errs.Invalid, "Team %q does not play match %d: name one of its sides.", errs.Echo(team), m.ID)
		}
		return s.forfeit(ctx, a, m, side)
	})
	return shown(m, a, s.now()), err
}

// forfeit completes the locked match m against side, with no kills (the
// rules let it only where nobody reported any).
func (s *Service) forfeit(ctx context.Context, a core.Actor, m Match, side *TeamRef) error {
	if err := s.Audit.Record(ctx, a, ActionForfeit, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID}); err != nil {
		return err
	}
	return s.complete(ctx, m, Report{Winner: m.Other(side.ID).ID}, true)
}

// mayOverturn says whether the winner of the completed match m may change:
// not once a match it decided is played, nor a Swiss round paired after it.
func (s *Service) mayOverturn(ctx context.Context, m Match) error {
	all, err := s.Store.Matches(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	played := func(x Match) bool { return x.Status != StatusScheduled && x.Status != StatusLive }
	for _, x := range all {
		switch {
		case m.NextMatch != nil && x.ID == *m.NextMatch && played(x):
			return errs.E(errs.Conflict, "The winner's next match (%d) is played already: correct that one first.", x.ID)
		case m.LoserMatch != nil && x.ID == *m.LoserMatch && played(x):
			return errs.E(errs.Conflict, "The loser's next match (%d) is played already: correct that one first.", x.ID)
		case m.Stage == bracket.StageGrandFinal && x.Stage == bracket.StageGrandFinal && x.Round > m.Round && played(x):
			return errs.E(errs.Conflict, "The grand final's reset (%d) is played already: correct that one first.", x.ID)
		case m.Stage == bracket.StageSwiss && (x.Stage != bracket.StageSwiss || x.Round > m.Round):
			return errs.E(errs.Conflict, "Match %d is paired on this result already: a Swiss result's winner stands once the next round is made.", x.ID)
		}
	}
	return nil
}
