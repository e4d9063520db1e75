// A player's place on a team: read, freed and given to a replacement (withdrawals).

package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/errs"
)

// Slot implements auction.Store.
func (s Auction) Slot(ctx context.Context, tournamentID, userID int64) (auction.Slot, bool, error) {
	var slot auction.Slot
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT t.letter, t.id, p.credits, p.substitute, p.lot_id FROM team_players p
		JOIN teams t ON t.id = p.team_id WHERE p.tournament_id = $1 AND p.user_id = $2`, tournamentID, userID).
		Scan(&slot.Team, &slot.TeamID, &slot.Credits, &slot.Substitute, &slot.LotID)
	if errors.Is(err, pgx.ErrNoRows) {
		return slot, false, nil
	}
	return slot, err == nil, unavailable(err)
}

// LeaveTeam implements auction.Store.
func (s Auction) LeaveTeam(ctx context.Context, tournamentID, userID int64) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `DELETE FROM match_lineups l USING matches m WHERE m.id = l.match_id AND m.tournament_id = $1
			AND l.user_id = $2 AND m.status IN ('scheduled', 'live')`, tournamentID, userID); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `DELETE FROM team_players WHERE tournament_id = $1 AND user_id = $2`, tournamentID, userID)
		return err
	}))
}

// JoinTeam implements auction.Store.
func (s Auction) JoinTeam(ctx context.Context, tournamentID int64, slot auction.Slot, userID int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO team_players (team_id, tournament_id, user_id, credits, substitute)
		VALUES ($1, $2, $3, $4, $5)`, slot.TeamID, tournamentID, userID, slot.Credits, slot.Substitute)
	if isUniqueViolation(err) {
		return errs.E(errs.Conflict, "That player is already on a team.")
	}
	return unavailable(err)
}
