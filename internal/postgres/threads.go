package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// The bot's thread per match (match_threads), and the Discord accounts it mentions.

// ClaimThread implements bot.ThreadStore: true for the first call for the
// match only.
func (b Bot) ClaimThread(ctx context.Context, matchID int64) (bool, error) {
	tag, err := b.DB.q(ctx).Exec(ctx, `INSERT INTO match_threads (match_id) VALUES ($1) ON CONFLICT DO NOTHING`, matchID)
	if err != nil {
		return false, unavailable(err)
	}
	return tag.RowsAffected() == 1, nil
}

// SaveThread implements bot.ThreadStore.
func (b Bot) SaveThread(ctx context.Context, matchID int64, threadID string) error {
	_, err := b.DB.q(ctx).Exec(ctx, `UPDATE match_threads SET thread_id = $2 WHERE match_id = $1`, matchID, threadID)
	return unavailable(err)
}

// ThreadOf implements bot.ThreadStore.
func (b Bot) ThreadOf(ctx context.Context, matchID int64) (string, error) {
	var id string
	err := b.DB.q(ctx).QueryRow(ctx, `SELECT thread_id FROM match_threads WHERE match_id = $1`, matchID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return id, unavailable(err)
}

// DiscordIDs implements bot.ThreadStore: the users' linked, verified
// Discord accounts.
func (b Bot) DiscordIDs(ctx context.Context, userIDs []int64) (map[int64]string, error) {
	return idStrings(b.DB.q(ctx).Query(ctx, `SELECT id, discord_id FROM users WHERE id = ANY($1) AND discord_id IS NOT NULL
		AND discord_verified ORDER BY id`, userIDs))
}

// ResetThreads implements bot.ThreadStore.
func (b Bot) ResetThreads(ctx context.Context, resetID int64) (map[int64]string, error) {
	return idStrings(b.DB.q(ctx).Query(ctx, `SELECT match_id, thread_id FROM fixture_reset_matches
		WHERE reset_id = $1 AND thread_id <> '' AND status <> 'completed'`, resetID))
}
