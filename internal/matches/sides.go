// What a side does before a match: the home captain's room and each side's lineup.

package matches

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// PostRoom sets the Smash Karts private room (a code or a link) the home
// captain made; the match is then live.
func (s *Service) PostRoom(ctx context.Context, a core.Actor, id int64, room string) (Match, error) {
	room = strings.TrimSpace(room)
	m, err := s.change(ctx, a, ActPostRoom, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if room == "" || utf8.RuneCountInString(room) > MaxRoom || strings.IndexFunc(room, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			return errs.E(errs.Invalid, "The room is a code or a link of 1 to %d characters.", MaxRoom)
		}
		if err := s.Store.SetRoom(ctx, id, room); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionRoom, m.TournamentID, matchTarget(m), nil)
	})
	return shown(m, a, s.now()), err
}

// SetLineup picks the side's karts for the match: up to four of the team's
// captain, players and substitutes.
func (s *Service) SetLineup(ctx context.Context, a core.Actor, id int64, userIDs []int64) (Match, error) {
	m, err := s.change(ctx, a, ActPickLineup, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if len(userIDs) == 0 || len(userIDs) > KartsPerSide {
			return errs.E(errs.Invalid, "A lineup is 1 to %d players.", KartsPerSide)
		}
		seen := map[int64]bool{}
		for _, u := range userIDs {
			if seen[u] {
				return errs.E(errs.Invalid, "Player %d is in the lineup twice.", u)
			}
			seen[u] = true
			if !isMember(m.Members[side.ID], u) {
				return errs.E(errs.Unprocessable, "Player %d does not play for team %s.", u, side.ID)
			}
		}
		if err := s.Store.SetLineup(ctx, id, *side, userIDs); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionLineup, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "players": userIDs})
	})
	return shown(m, a, s.now()), err
}

func isMember(members []Member, userID int64) bool {
	for _, p := range members {
		if p.UserID == userID {
			return true
		}
	}
	return false
}
