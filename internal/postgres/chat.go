package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/chat"
)

// Chat is the PostgreSQL store of chat.Store.
type Chat struct{ DB *DB }

var _ chat.Store = Chat{}

// roomColumns read a room (r: chat_rooms, t: its tournament, tm: its team,
// m: its match, t1 and t2: the match's teams).
const roomColumns = `r.id, CASE WHEN r.team_id IS NULL THEN 'match' ELSE 'team' END, t.name,
	CASE WHEN r.team_id IS NOT NULL THEN tm.name
	     ELSE coalesce(t1.name, 'TBD') || ' vs ' || coalesce(t2.name, 'TBD') || ' (round ' || m.round_number || ')' END,
	coalesce(tm.letter, ''), coalesce(r.match_id, 0), r.slow_seconds, t.status, t.id`

const roomJoins = ` FROM chat_rooms r JOIN tournaments t ON t.id = r.tournament_id
	LEFT JOIN teams tm ON tm.id = r.team_id
	LEFT JOIN matches m ON m.id = r.match_id
	LEFT JOIN teams t1 ON t1.id = m.team1_id
	LEFT JOIN teams t2 ON t2.id = m.team2_id`

// memberOf is the condition that user (an SQL expression) plays in or
// captains room r.
func memberOf(user string) string {
	return `((r.team_id IS NOT NULL AND (tm.captain_user_id = ` + user + ` OR EXISTS (
		SELECT 1 FROM team_players tp WHERE tp.team_id = r.team_id AND tp.user_id = ` + user + `)))
	OR (r.match_id IS NOT NULL AND ` + user + ` IN (t1.captain_user_id, t2.captain_user_id)))`
}

func scanRoom(row pgx.Row, extra ...any) (chat.Room, error) {
	var r chat.Room
	err := row.Scan(append([]any{&r.ID, &r.Kind, &r.Tournament, &r.Title, &r.Team, &r.MatchID, &r.SlowSeconds, &r.Status, &r.TournamentID}, extra...)...)
	return r, err
}

// ensureRooms gives every team and match of the seasons past their
// registration a room, once.
func (s Chat) ensureRooms(ctx context.Context) error {
	_, err := s.DB.q(ctx).Exec(ctx, `
		WITH live AS (SELECT id FROM tournaments WHERE status IN ('auction', 'matches')),
		teamrooms AS (INSERT INTO chat_rooms (tournament_id, team_id)
			SELECT tm.tournament_id, tm.id FROM teams tm JOIN live ON live.id = tm.tournament_id
			WHERE NOT EXISTS (SELECT 1 FROM chat_rooms c WHERE c.team_id = tm.id)
			ON CONFLICT DO NOTHING)
		INSERT INTO chat_rooms (tournament_id, match_id)
			SELECT m.tournament_id, m.id FROM matches m JOIN live ON live.id = m.tournament_id
			WHERE NOT EXISTS (SELECT 1 FROM chat_rooms c WHERE c.match_id = m.id)
			ON CONFLICT DO NOTHING`)
	return unavailable(err)
}

// Rooms implements chat.Store.
func (s Chat) Rooms(ctx context.Context, userID int64, staffOf []int64, admin bool) ([]chat.Room, error) {
	if err := s.ensureRooms(ctx); err != nil {
		return nil, err
	}
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+roomColumns+`,
		(SELECT count(*) FROM chat_messages x WHERE x.room_id = r.id AND x.deleted_at IS NULL
			AND x.id > coalesce((SELECT last_id FROM chat_reads d WHERE d.room_id = r.id AND d.user_id = $1), 0)
			AND x.user_id IS DISTINCT FROM $1),
		(SELECT max(x.at) FROM chat_messages x WHERE x.room_id = r.id AND x.deleted_at IS NULL)`+roomJoins+`
		WHERE t.status <> 'registration' AND (`+memberOf("$1")+`
			OR (t.status <> 'completed' AND ($3 OR r.tournament_id = ANY($2::bigint[]))))
		ORDER BY t.id DESC, r.team_id IS NULL, tm.letter, m.round_number, m.slot LIMIT 200`, userID, staffOf, admin)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (chat.Room, error) {
		var unread int
		var last *time.Time
		r, err := scanRoom(row, &unread, &last)
		r.Unread, r.LastAt = unread, last
		return r, err
	})
	if list == nil {
		list = []chat.Room{}
	}
	return list, unavailable(err)
}

// Room implements chat.Store.
func (s Chat) Room(ctx context.Context, id int64) (chat.Room, error) {
	r, err := scanRoom(s.DB.q(ctx).QueryRow(ctx, `SELECT `+roomColumns+roomJoins+` WHERE r.id = $1`, id))
	return r, unavailable(notFound(err, "Room "+strconv.FormatInt(id, 10)+" not found"))
}

// IsMember implements chat.Store.
func (s Chat) IsMember(ctx context.Context, roomID, userID int64) (bool, error) {
	var ok bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1`+roomJoins+` WHERE r.id = $2 AND `+memberOf("$1")+`)`, userID, roomID).Scan(&ok)
	return ok, unavailable(err)
}

const messageColumns = `id, room_id, user_id, author, text, at, edited_at`

func scanMessage(row pgx.Row) (chat.Message, error) {
	var m chat.Message
	err := row.Scan(&m.ID, &m.RoomID, &m.UserID, &m.Author, &m.Text, &m.At, &m.EditedAt)
	return m, err
}

// Messages implements chat.Store.
func (s Chat) Messages(ctx context.Context, roomID, before int64, limit int) ([]chat.Message, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+messageColumns+` FROM chat_messages
		WHERE room_id = $1 AND deleted_at IS NULL AND ($2 = 0 OR id < $2) ORDER BY id DESC LIMIT $3`, roomID, before, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (chat.Message, error) { return scanMessage(row) })
	if list == nil {
		list = []chat.Message{}
	}
	return list, unavailable(err)
}

// AddMessage implements chat.Store.
func (s Chat) AddMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	m, err := scanMessage(s.DB.q(ctx).QueryRow(ctx, `INSERT INTO chat_messages (room_id, user_id, author, text)
		VALUES ($1, $2, $3, $4) RETURNING `+messageColumns, m.RoomID, m.UserID, m.Author, m.Text))
	return m, unavailable(err)
}

// LockMessage implements chat.Store.
func (s Chat) LockMessage(ctx context.Context, roomID, id int64) (chat.Message, error) {
	m, err := scanMessage(s.DB.q(ctx).QueryRow(ctx, `SELECT `+messageColumns+` FROM chat_messages
		WHERE id = $2 AND room_id = $1 AND deleted_at IS NULL FOR UPDATE`, roomID, id))
	return m, unavailable(notFound(err, "Message "+strconv.FormatInt(id, 10)+" not found"))
}

// EditMessage implements chat.Store.
func (s Chat) EditMessage(ctx context.Context, id int64, text string) (chat.Message, error) {
	m, err := scanMessage(s.DB.q(ctx).QueryRow(ctx, `UPDATE chat_messages SET text = $2, edited_at = now()
		WHERE id = $1 RETURNING `+messageColumns, id, text))
	return m, unavailable(err)
}

// DeleteMessage implements chat.Store. The text goes at once; the row stays
// so the ids of a room's pages hold.
func (s Chat) DeleteMessage(ctx context.Context, id, by int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE chat_messages SET deleted_at = now(), deleted_by = $2, text = '' WHERE id = $1`, id, by)
	return unavailable(err)
}

// MarkRead implements chat.Store.
func (s Chat) MarkRead(ctx context.Context, roomID, userID, lastID int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO chat_reads (room_id, user_id, last_id) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, room_id) DO UPDATE SET last_id = greatest(chat_reads.last_id, excluded.last_id)`, roomID, userID, lastID)
	return unavailable(err)
}

// LastPost implements chat.Store.
func (s Chat) LastPost(ctx context.Context, roomID, userID int64) (time.Time, error) {
	var at *time.Time
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT max(at) FROM chat_messages WHERE room_id = $1 AND user_id = $2`, roomID, userID).Scan(&at)
	if at == nil {
		return time.Time{}, unavailable(err)
	}
	return *at, unavailable(err)
}

// SetSlowMode implements chat.Store.
func (s Chat) SetSlowMode(ctx context.Context, roomID int64, seconds int) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE chat_rooms SET slow_seconds = $2 WHERE id = $1`, roomID, seconds)
	return unavailable(err)
}

// MembersNamed implements chat.Store.
func (s Chat) MembersNamed(ctx context.Context, roomID int64, names []string) ([]int64, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT u.id FROM users u LEFT JOIN stats s ON s.user_id = u.id
		WHERE (lower(`+playerName+`) = ANY($2) OR lower(u.discord_username) = ANY($2))
		  AND EXISTS (SELECT 1`+roomJoins+` WHERE r.id = $1 AND `+memberOf("u.id")+`)`, roomID, names)
	if err != nil {
		return nil, unavailable(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, unavailable(err)
}
