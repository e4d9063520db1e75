// An organiser's choices before the lots: the teams' captains and the players' tiers.

package auction

import (
	"context"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// SetCaptain makes a registered player the captain of a team (organisers,
// while registration or the auction runs). A captain captains one team per
// tournament and is not auctioned.
func (s *Service) SetCaptain(ctx context.Context, a core.Actor, name, letter string, userID int64) (Team, error) {
	if err := tournament.Admit(a, tournament.NameCaptain); err != nil {
		return Team{}, err
	}
	letter, err := validLetter(letter)
	if err != nil {
		return Team{}, err
	}
	var team Team
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.NameCaptain)
		if err != nil {
			return err
		}
		p, err := s.Store.LockPlayer(ctx, t.ID, userID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Unprocessable, "Only a player registered for %s can captain a team.", t.Name)
		} else if err != nil {
			return err
		}
		why, err := s.Store.Engaged(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if why != "" && !strings.HasPrefix(why, "captains team "+letter) {
			return errs.E(errs.Conflict, "%s %s and cannot captain team %s.", p.Name, why, letter)
		}
		if err := s.Store.SetCaptain(ctx, t.ID, letter, userID); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionCaptain, t.ID, "team "+letter,
			map[string]any{"user_id": userID, "name": p.Name}); err != nil {
			return err
		}
		team, err = s.emitTeam(ctx, t, letter)
		return err
	})
	return team, err
}

// SetTier sets an organiser's tier for a registered player (0: back to the
// tier of their stats). It sets their lots' default price.
func (s *Service) SetTier(ctx context.Context, a core.Actor, name string, userID int64, tier int) (PlayerRef, error) {
	if err := tournament.Admit(a, tournament.SetTier); err != nil {
		return PlayerRef{}, err
	}
	if tier < 0 || tier > core.Tiers {
		return PlayerRef{}, errs.E(errs.Invalid, "Tier must be from 1 to %d (0: the tier of the player's stats)", core.Tiers)
	}
	var p PlayerRef
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.SetTier)
		if err != nil {
			return err
		}
		before, err := s.Store.LockPlayer(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if err := s.Store.SetTier(ctx, t.ID, userID, tier); err != nil {
			return err
		}
		if p, err = s.Store.Player(ctx, t.ID, userID); err != nil {
			return err
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionTier, t.ID, subjectOf(p),
			map[string]any{"user_id": userID, "from": before.Tier, "to": p.Tier}); err != nil {
			return err
		}
		return s.Cards.PlayerChanged(ctx, userID)
	})
	return p, err
}
