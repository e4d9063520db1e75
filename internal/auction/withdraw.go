// A withdrawn player's slot on a team: freed (the sale voided during the auction), or given to a replacement.

package auction

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Slot is a player's place on a team.
type Slot struct {
	Team       string // the letter
	TeamID     int64
	Credits    int
	Substitute bool
	LotID      *int64 // the sale that filled it, if a lot did
}

// MsgWithdrawn is why a withdrawn player's pending substitute requests
// are refused.
const MsgWithdrawn = "Withdrawn from the season."

// WithdrawFromTeam frees a withdrawn player's slot, in the transaction
// that withdraws them (tournament.Service.OnWithdraw, the season's row
// held): a player under the hammer waits for the lot to close; during the
// auction a sale is voided (the credits go back, as Void does); once the
// matches are on the player leaves the team and the lineups of its
// matches still to play, and replacement (when not 0: a confirmed player
// on no team) takes the slot at the same price and as the same kind of
// slot. Their pending substitute requests are refused. It names the team
// the player left, "" for none.
func (s *Service) WithdrawFromTeam(ctx context.Context, a core.Actor, t tournament.Tournament, userID, replacement int64) (string, error) {
	lot, err := s.Store.OpenLot(ctx, t.ID)
	if err != nil {
		return "", err
	}
	if lot != nil && lot.Player.UserID == userID {
		return "", errs.E(errs.Conflict, "%s is under the hammer: close the lot first.", lot.Player.Name)
	}
	if err := s.refusePending(ctx, a, t, userID, MsgWithdrawn); err != nil {
		return "", err
	}
	slot, on, err := s.Store.Slot(ctx, t.ID, userID)
	if err != nil || !on {
		if err == nil && replacement != 0 {
			return "", errs.E(errs.Conflict, "Player %d is on no team: there is no slot to give a replacement.", userID)
		}
		return "", err
	}
	if t.Status == tournament.StatusAuction && slot.LotID != nil {
		_, err := s.void(ctx, a, t, *slot.LotID, ActionVoid)
		return slot.Team, err
	}
	if err := s.Store.LeaveTeam(ctx, t.ID, userID); err != nil {
		return "", err
	}
	if replacement != 0 {
		p, err := s.free(ctx, t, replacement)
		if err != nil {
			return "", err
		}
		if err := s.Store.JoinTeam(ctx, t.ID, slot, replacement); err != nil {
			return "", err
		}
		if err := s.refusePending(ctx, a, t, replacement, "Signed by Team "+slot.Team+" as a replacement."); err != nil {
			return "", err
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionReplace, t.ID, core.AuditSubject{UserID: userID, Name: p.Name}, map[string]any{"team": slot.Team, "user_id": replacement,
			"replaces": userID, "price": slot.Credits, "substitute": slot.Substitute}); err != nil {
			return "", err
		}
	}
	_, err = s.emitTeam(ctx, t, slot.Team)
	return slot.Team, err
}

// refusePending refuses every pending substitute request for userID, with
// why.
func (s *Service) refusePending(ctx context.Context, a core.Actor, t tournament.Tournament, userID int64, why string) error {
	pending, err := s.Store.PendingFor(ctx, t.ID, userID)
	if err != nil {
		return err
	}
	for _, r := range pending {
		if r, err = s.Store.DecideSubstituteRequest(ctx, r, RequestRefused, a.UserID, why); err != nil {
			return err
		}
		if err := s.emitRequest(ctx, t, r); err != nil {
			return err
		}
	}
	return nil
}
