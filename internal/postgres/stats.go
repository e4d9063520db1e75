package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/stats"
)

// Stats is the PostgreSQL store of stats.Store.
type Stats struct{ DB *DB }

var _ stats.Store = Stats{}

const statsColumns = `player_name, sk_id, level, kills, deaths, games_played, kd::float8,
	CASE WHEN cart_image_id IS NULL THEN NULL ELSE '/api/images/' || cart_image_id END,
	description, category, preferred_role, verified, updated_at`

func scanStats(row pgx.Row) (core.Stats, error) {
	var s core.Stats
	err := row.Scan(&s.PlayerName, &s.SkID, &s.Level, &s.Kills, &s.Deaths, &s.GamesPlayed, &s.KD,
		&s.CartImage, &s.Description, &s.Category, &s.PreferredRole, &s.Verified, &s.UpdatedAt)
	return s, err
}

const saveStatsSQL = `
INSERT INTO stats (user_id, player_name, sk_id, level, kills, deaths, games_played, kd, cart_image_id,
                   description, category, preferred_role, verified, updated_at, source)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, substring($9 from 13), $10, $11, $12, $13, now(),
        CASE WHEN $14 <> '' THEN $14 WHEN $13 THEN 'read' ELSE 'typed' END)
ON CONFLICT (user_id) DO UPDATE SET
    player_name = EXCLUDED.player_name, sk_id = EXCLUDED.sk_id, level = EXCLUDED.level,
    kills = EXCLUDED.kills, deaths = EXCLUDED.deaths, games_played = EXCLUDED.games_played,
    kd = EXCLUDED.kd, cart_image_id = EXCLUDED.cart_image_id, description = EXCLUDED.description,
    category = EXCLUDED.category, preferred_role = EXCLUDED.preferred_role,
    verified = EXCLUDED.verified, updated_at = now(), source = EXCLUDED.source
RETURNING ` + statsColumns

// SaveStats implements stats.Store.
func (s Stats) SaveStats(ctx context.Context, userID int64, in core.Stats) (core.Stats, error) {
	var out core.Stats
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		var err error
		out, err = scanStats(tx.QueryRow(ctx, saveStatsSQL, userID, in.PlayerName, in.SkID, in.Level, in.Kills,
			in.Deaths, in.GamesPlayed, in.KD, in.CartImage, in.Description, in.Category, in.PreferredRole, in.Verified, in.Source))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO stats_history (user_id, level, kills, deaths, games_played, kd, verified)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, userID, out.Level, out.Kills, out.Deaths, out.GamesPlayed, out.KD, out.Verified); err != nil {
			return err
		}
		return bumpRosters(ctx, tx, userID)
	})
	return out, unavailable(err)
}

// FindStats implements stats.Store.
func (s Stats) FindStats(ctx context.Context, userID int64) (*core.Stats, error) {
	st, err := scanStats(s.DB.q(ctx).QueryRow(ctx, `SELECT `+statsColumns+` FROM stats WHERE user_id = $1`, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return &st, nil
}

// DeleteStats implements stats.Store.
func (s Stats) DeleteStats(ctx context.Context, userID int64) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM stats WHERE user_id = $1
		AND NOT EXISTS (SELECT 1 FROM registrations WHERE user_id = $1)`, userID)
	if err != nil {
		return unavailable(err)
	}
	if tag.RowsAffected() == 0 {
		var registered bool
		if err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM registrations WHERE user_id = $1)`, userID).Scan(&registered); err != nil {
			return unavailable(err)
		}
		if registered {
			return errs.E(errs.Conflict, "Unregister from the tournament before deleting your stats.")
		}
	}
	return nil
}

// HoldReading implements stats.Store.
func (s Stats) HoldReading(ctx context.Context, userID int64, reader string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO stats_held (user_id, reader) VALUES ($1, coalesce(nullif($2, ''), 'read'))
		ON CONFLICT (user_id) DO UPDATE SET reader = EXCLUDED.reader, at = now()`, userID, reader)
	return unavailable(err)
}

// TakeHeld implements stats.Store.
func (s Stats) TakeHeld(ctx context.Context, userID int64, since time.Time) (string, error) {
	var reader string
	err := s.DB.q(ctx).QueryRow(ctx, `DELETE FROM stats_held WHERE user_id = $1 AND at >= $2 RETURNING reader`,
		userID, since).Scan(&reader)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return reader, unavailable(err)
}
