// Taking fixtures back: a reset archives them with their results, so they can be made again
// (another format, other seeds) or the season go back to its auction.

package matches

import (
	"context"
	"fmt"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// EventReset tells the bracket topic that a season's fixtures were reset:
// {"tournament", "reset", "bracket"} (the bracket as it is now, empty).
const EventReset = "bracket.reset"

// ActionReset is a reset's audit entry.
const ActionReset = "bracket.reset"

// Reset is one reset of a season's fixtures, with the fixtures it took
// away as they stood (their results and lines kept).
type Reset struct {
	ID         int64           `json:"id"`
	Tournament string          `json:"tournament"`
	Format     string          `json:"format"`
	Options    bracket.Options `json:"options"`
	Matches    int             `json:"matches"`
	Results    int             `json:"results"` // matches that had a result (reported, disputed or completed)
	Forced     bool            `json:"forced"`
	By         *int64          `json:"reset_by"` // the organiser's user id
	At         time.Time       `json:"reset_at"`
	Fixtures   []ArchivedMatch `json:"fixtures"`
}

// ArchivedMatch is a fixture a reset took away, as it stood.
type ArchivedMatch struct {
	ID          int64        `json:"id"`
	Stage       string       `json:"stage"`
	Round       int          `json:"round_number"`
	Slot        int          `json:"slot"`
	Team1       *string      `json:"team1"` // letters: the teams stay, the match went
	Team2       *string      `json:"team2"`
	Winner      *string      `json:"winner"`
	Status      string       `json:"status"`
	Forfeit     bool         `json:"forfeit"`
	ScheduledAt *time.Time   `json:"scheduled_at"`
	Report      *Report      `json:"report"`
	Proof       *string      `json:"proof"`
	Lines       []PlayerLine `json:"lines"`
	// ThreadID is the match's Discord thread, which the bot archives.
	ThreadID string `json:"-"`
}

// hasResult reports whether a match has a result a reset would take away:
// reported, disputed or completed (a forfeit included).
func hasResult(m Match) bool {
	return m.Status == StatusReported || m.Status == StatusDisputed || m.Status == StatusCompleted
}

// ResetFixtures takes the named season's fixtures back (organisers, in the
// matches phase): freely while no match has a result; with results only
// when forced, and then those results are archived with the fixtures
// (Resets), never lost. The season keeps its phase: the fixtures can be
// made again, in another format or with other seeds, or the season moved
// back to its auction. Audited, and told on the bracket topic.
func (s *Service) ResetFixtures(ctx context.Context, a core.Actor, name string, force bool) (Reset, error) {
	if err := tournament.Admit(a, tournament.ResetFixtures); err != nil {
		return Reset{}, err
	}
	var r Reset
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := tournament.Authorize(a, t, tournament.ResetFixtures); err != nil {
			return err
		}
		if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
			return err
		}
		if err := t.Allows(tournament.ResetFixtures); err != nil {
			return err
		}
		all, err := s.Store.Matches(ctx, t.ID)
		if err != nil {
			return err
		}
		if len(all) == 0 {
			return errs.E(errs.Conflict, "%s has no fixtures to reset.", t.Name)
		}
		var results []string
		for _, m := range all {
			if hasResult(m) {
				results = append(results, resultLine(m))
			}
		}
		switch {
		case len(results) == 1 && !force:
			return errs.WithProblems(errs.Conflict, results, "1 match of %s has a result: a reset with force archives it with the fixtures.", t.Name)
		case len(results) > 1 && !force:
			return errs.WithProblems(errs.Conflict, results, "%d matches of %s have results: a reset with force archives them with the fixtures.",
				len(results), t.Name)
		}
		// The jobs of the matches going away would find nothing to do; they go with them.
		for _, m := range all {
			if err := s.Jobs.Unschedule(ctx, Remind{}.Kind(), "match", m.ID); err != nil {
				return err
			}
			if m.Status == StatusReported {
				if err := s.Jobs.Unschedule(ctx, AutoConfirm{}.Kind(), "match", m.ID); err != nil {
					return err
				}
			}
		}
		if r, err = s.Store.ResetFixtures(ctx, t, a.UserID, len(results) > 0); err != nil {
			return err
		}
		data := map[string]any{"reset": r.ID, "format": r.Format, "matches": r.Matches, "results": r.Results, "force": len(results) > 0}
		if len(results) > 0 {
			data["problems"] = results
		}
		if err := s.Audit.Record(ctx, a, ActionReset, t.ID, t.Name, data); err != nil {
			return err
		}
		if t, err = s.Tournaments.FindByID(ctx, t.ID); err != nil {
			return err
		}
		b, err := s.bracketOf(ctx, core.Actor{}, t)
		if err != nil {
			return err
		}
		summary := r
		summary.Fixtures = nil
		if _, err := s.Events.Emit(ctx, core.TopicBracket, EventReset, map[string]any{"tournament": t.Name, "reset": summary, "bracket": b}); err != nil {
			return err
		}
		return s.emitStandings(ctx, t)
	})
	return r, err
}

// Resets lists the named season's resets, the newest first, with the
// fixtures each took away and their results (organisers only).
func (s *Service) Resets(ctx context.Context, a core.Actor, name string) ([]Reset, error) {
	if err := tournament.MayOrganise(a); err != nil {
		return nil, err
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := a.MustOrganise(t.ID); err != nil {
		return nil, err
	}
	return s.Store.Resets(ctx, t.ID)
}

// resultLine says what result of m a reset would take away.
func resultLine(m Match) string {
	what := fmt.Sprintf("Match %d (%s, %s v %s)", m.ID, RoundName(m.Stage, m.Round), letterOf(m.Team1), letterOf(m.Team2))
	switch {
	case m.Status == StatusCompleted && m.Forfeit && m.Winner != nil:
		return fmt.Sprintf("%s: team %s won by forfeit", what, *m.Winner)
	case m.Status == StatusCompleted && m.Winner != nil:
		return fmt.Sprintf("%s: team %s won", what, *m.Winner)
	case m.Status == StatusReported && m.ReportedBy != nil:
		return fmt.Sprintf("%s: reported by team %s, not confirmed yet", what, *m.ReportedBy)
	}
	return fmt.Sprintf("%s: %s", what, m.Status)
}
