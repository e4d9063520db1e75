package tournament

import (
	"context"
	"slices"

	"github.com/pitlane/pitlane/internal/core"
)

// TakingPart are the actions a player takes part in a season by: a ban
// from the tournament (or from the site) refuses each of them, with the
// ban's reason and end (internal/moderation).
var TakingPart = []Action{Register, CheckIn, Bid, Nominate, AskSubstitute, TalkInRoom}

// Barred refuses act to a player a sanction keeps out of t; the actions of
// the staff and of the league's jobs are not a player's taking part.
func (s *Service) Barred(ctx context.Context, a core.Actor, t Tournament, act Action) error {
	if s.Sanctions == nil || a.UserID == 0 || !slices.Contains(TakingPart, act) {
		return nil
	}
	return s.Sanctions.MayTakePart(ctx, a.UserID, t.ID)
}
