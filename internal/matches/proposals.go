// The captains agreeing on a match's time: one side proposes, the other accepts one time or counters.

package matches

import (
	"context"
	"slices"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Propose records up to MaxProposals times for the match from the
// captain's side. The home captain proposes first; the away captain
// answers by accepting one (Accept) or by proposing its own, which
// replaces the standing proposal and swaps the roles (a counter). A
// side may also replace its own proposal. Each time must be in the
// future within MaxAhead; they are kept to the minute, soonest first.
func (s *Service) Propose(ctx context.Context, a core.Actor, id int64, times []time.Time) (Match, error) {
	m, err := s.change(ctx, a, ActPropose, id, func(ctx context.Context, m Match, side *TeamRef) error {
		var clean []time.Time
		for _, at := range times {
			t, err := s.futureTime(at)
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(clean, t.Equal) {
				clean = append(clean, t)
			}
		}
		if len(clean) == 0 || len(clean) > MaxProposals {
			return errs.E(errs.Unprocessable, "Propose one to %d times.", MaxProposals)
		}
		slices.SortFunc(clean, time.Time.Compare)
		counter := m.Proposal != nil && m.Proposal.By != side.ID
		if err := s.Store.Propose(ctx, m.ID, *side, clean); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionPropose, m.TournamentID, matchTarget(m),
			map[string]any{"team": side.ID, "times": clean, "counter": counter}); err != nil {
			return err
		}
		after, err := s.Store.FindMatch(ctx, m.ID)
		if err != nil {
			return err
		}
		return s.emitMatch(ctx, EventProposal, after)
	})
	return shown(m, a, s.now()), err
}

// Accept makes at, one of the times the other side proposed, the match's
// time (its reminders written again, as SetTime does) and clears the
// proposal. A proposed time that has passed can no longer be accepted.
func (s *Service) Accept(ctx context.Context, a core.Actor, id int64, at time.Time) (Match, error) {
	m, err := s.change(ctx, a, ActAccept, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		at = at.UTC().Truncate(time.Minute)
		if !slices.ContainsFunc(m.Proposal.Times, at.Equal) {
			return errs.E(errs.Unprocessable, "%s is not one of the times team %s proposed.",
				at.Format("Mon 2 Jan 15:04 UTC"), m.Proposal.By)
		}
		if !at.After(s.now()) {
			return errs.E(errs.Conflict, "%s has passed: propose a new time instead.", at.Format("Mon 2 Jan 15:04 UTC"))
		}
		return s.setTime(ctx, a, m, &at, ActionAccept)
	})
	return shown(m, a, s.now()), err
}
