package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/tournament"
)

// SetLook implements tournament.Store.
func (s Tournaments) SetLook(ctx context.Context, id int64, l tournament.Look) (tournament.Tournament, error) {
	return s.updateTournament(ctx, `UPDATE tournaments SET display_name = $2, hero = $3, description = $4, starts_on = $5, ends_on = $6
		WHERE id = $1 RETURNING `+tournamentColumns, id, l.DisplayName, l.Hero, l.Description, l.StartsOn, l.EndsOn)
}

// SetBanner implements tournament.Store.
func (s Tournaments) SetBanner(ctx context.Context, id int64, imageID string) (tournament.Tournament, error) {
	return s.updateTournament(ctx, `UPDATE tournaments SET banner_image_id = nullif($2, '') WHERE id = $1 RETURNING `+tournamentColumns,
		id, imageID)
}

func (s Tournaments) updateTournament(ctx context.Context, sql string, args ...any) (tournament.Tournament, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, sql, args...), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, tournament.ErrUnknown("")
	}
	return t, unavailable(err)
}
