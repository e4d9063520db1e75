package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/room"
)

// Room is the PostgreSQL store of room.Store.
type Room struct{ DB *DB }

var _ room.Store = Room{}

// AddMessage implements room.Store.
func (s Room) AddMessage(ctx context.Context, tournamentID int64, m room.Message) (room.Message, error) {
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO captain_messages (tournament_id, user_id, author, role, team, text)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, at`,
		tournamentID, m.UserID, m.Author, m.Role, m.Team, m.Text).Scan(&m.ID, &m.At)
	return m, unavailable(err)
}

// Messages implements room.Store.
func (s Room) Messages(ctx context.Context, tournamentID int64, n int) ([]room.Message, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT * FROM (
		SELECT id, coalesce(user_id, 0), author, role, team, text, at
		  FROM captain_messages WHERE tournament_id = $1 ORDER BY id DESC LIMIT $2) newest ORDER BY id`, tournamentID, n)
	if err != nil {
		return nil, unavailable(err)
	}
	msgs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (room.Message, error) {
		var m room.Message
		return m, row.Scan(&m.ID, &m.UserID, &m.Author, &m.Role, &m.Team, &m.Text, &m.At)
	})
	if msgs == nil {
		msgs = []room.Message{}
	}
	return msgs, unavailable(err)
}
