// The auction's flow: its pause and its nomination turns, one row per
// tournament (made with the tournament, migrations/060_auction_flow.sql).

package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/auction"
)

const flowSQL = `SELECT paused_at, coalesce(turn_seconds, 0), coalesce(turn_letter, ''), turn_ends_at, turn_left_ms
  FROM auction_flows WHERE tournament_id = $1`

func scanFlow(row pgx.Row) (auction.Flow, error) {
	var f auction.Flow
	var left *int64
	err := row.Scan(&f.PausedAt, &f.TurnSeconds, &f.Turn, &f.TurnEndsAt, &left)
	f.Paused, f.TurnLeftMs = f.PausedAt != nil, left
	return f, err
}

// LockFlow implements auction.Store.
func (s Auction) LockFlow(ctx context.Context, tournamentID int64) (auction.Flow, error) {
	f, err := scanFlow(s.DB.q(ctx).QueryRow(ctx, flowSQL+` FOR UPDATE`, tournamentID))
	return f, unavailable(notFound(err, "Tournament not found"))
}

// Flow implements auction.Store.
func (s Auction) Flow(ctx context.Context, tournamentID int64) (auction.Flow, error) {
	f, err := scanFlow(s.DB.q(ctx).QueryRow(ctx, flowSQL, tournamentID))
	return f, unavailable(notFound(err, "Tournament not found"))
}

// SaveFlow implements auction.Store.
func (s Auction) SaveFlow(ctx context.Context, tournamentID int64, f auction.Flow) error {
	var paused *time.Time
	if f.Paused {
		paused = f.PausedAt
	}
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO auction_flows (tournament_id, paused_at, turn_seconds, turn_letter, turn_ends_at, turn_left_ms)
		VALUES ($1, $2, nullif($3, 0), nullif($4, ''), $5, $6)
		ON CONFLICT (tournament_id) DO UPDATE SET paused_at = EXCLUDED.paused_at, turn_seconds = EXCLUDED.turn_seconds,
			turn_letter = EXCLUDED.turn_letter, turn_ends_at = EXCLUDED.turn_ends_at, turn_left_ms = EXCLUDED.turn_left_ms`,
		tournamentID, paused, f.TurnSeconds, f.Turn, f.TurnEndsAt, f.TurnLeftMs)
	return unavailable(err)
}

// SetLotClock implements auction.Store.
func (s Auction) SetLotClock(ctx context.Context, lotID int64, endsAt time.Time, pausedLeftMs *int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE auction_lots SET ends_at = $2, paused_left_ms = $3 WHERE id = $1`, lotID, endsAt, pausedLeftMs)
	return unavailable(err)
}

// LastSale implements auction.Store.
func (s Auction) LastSale(ctx context.Context, tournamentID int64) (int64, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT id FROM auction_lots WHERE tournament_id = $1 AND status = 'sold'
		ORDER BY closed_at DESC, id DESC LIMIT 1`, tournamentID).Scan(&id)
	return id, unavailable(notFound(err, "No sale"))
}
