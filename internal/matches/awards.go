// A season's awards, given when it completes.

package matches

import (
	"context"
	"fmt"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Award crowns a completing season, in the transaction that completes it
// (tournament.Service.OnComplete): "Season N Winner" to the champion's
// captain and players, "Red Cap Season N" to the top killer. A tournament
// with fixtures needs its champion first.
func (s *Service) Award(ctx context.Context, a core.Actor, t tournament.Tournament) error {
	ms, err := s.Store.Matches(ctx, t.ID)
	if err != nil || len(ms) == 0 {
		return err
	}
	champ, err := s.Store.Champion(ctx, t.ID)
	if err != nil {
		return err
	}
	if champ == nil {
		return errs.E(errs.Conflict, "%s has no champion yet: finish its matches first.", t.Name)
	}
	season := t.Name
	if t.Season > 0 {
		season = fmt.Sprint(t.Season)
	}
	members, err := s.Store.TeamMembers(ctx, champ.DBID)
	if err != nil {
		return err
	}
	var winners []int64
	for _, p := range members {
		winners = append(winners, p.UserID)
	}
	winnerBadge := "Season " + season + " Winner"
	if err := s.Store.Award(ctx, winnerBadge, "trophy", "#FFD700", winners); err != nil {
		return err
	}
	data := map[string]any{"champion": champ.ID, "winner_badge": winnerBadge}
	rc, err := s.redCap(ctx, t)
	if err != nil {
		return err
	}
	if len(rc.Rows) > 0 {
		redCapBadge := "Red Cap Season " + season
		if err := s.Store.Award(ctx, redCapBadge, "flame", "#E53935", []int64{rc.Rows[0].UserID}); err != nil {
			return err
		}
		data["red_cap"], data["red_cap_badge"] = rc.Rows[0].Name, redCapBadge
	}
	return s.Audit.Record(ctx, a, ActionAward, t.ID, t.Name, data)
}
