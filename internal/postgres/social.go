package postgres

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/social"
)

// Social implements social.Store.
type Social struct{ DB *DB }

var _ social.Store = Social{}

// Person implements social.Store.
func (s Social) Person(ctx context.Context, viewer, userID int64) (social.Person, error) {
	p := social.Person{ID: userID}
	err := s.DB.q(ctx).QueryRow(ctx, `
SELECT u.deleted_at IS NULL, u.profile_hidden, u.follows_visible,
       EXISTS (SELECT 1 FROM follows WHERE follower_id = $1 AND player_id = u.id),
       EXISTS (SELECT 1 FROM follows WHERE follower_id = u.id AND player_id = $1),
       EXISTS (SELECT 1 FROM blocks WHERE blocker_id = u.id AND blocked_id = $1),
       EXISTS (SELECT 1 FROM blocks WHERE blocker_id = $1 AND blocked_id = u.id)
  FROM users u WHERE u.id = $2`, viewer, userID).
		Scan(&p.Exists, &p.Hidden, &p.Visible, &p.Follows, &p.Followed, &p.Blocks, &p.Blocked)
	if errors.Is(err, pgx.ErrNoRows) {
		return social.Person{ID: userID}, nil
	}
	return p, unavailable(err)
}

// Resolve implements social.Store.
func (s Social) Resolve(ctx context.Context, t social.Target) (int64, error) {
	var q string
	var arg any = t.ID
	switch t.Kind {
	case social.KindTeam:
		n, err := strconv.ParseInt(t.ID, 10, 64)
		if err != nil {
			return 0, nil
		}
		q, arg = `SELECT id FROM teams WHERE id = $1`, n
	case social.KindTournament:
		q = `SELECT id FROM tournaments WHERE name = $1`
	default:
		return 0, nil
	}
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, q, arg).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return id, unavailable(err)
}

func followColumn(kind string) string {
	switch kind {
	case social.KindPlayer:
		return "player_id"
	case social.KindTeam:
		return "team_id"
	}
	return "tournament_id"
}

// Follow implements social.Store. A player who blocks the follower is not
// followed, whatever came in between the check and this.
func (s Social) Follow(ctx context.Context, follower int64, kind string, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `
INSERT INTO follows (follower_id, `+followColumn(kind)+`)
SELECT $1, $2
 WHERE $3 <> 'player' OR NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = $2 AND blocked_id = $1)
ON CONFLICT DO NOTHING`, follower, id, kind)
	return unavailable(err)
}

// Unfollow implements social.Store.
func (s Social) Unfollow(ctx context.Context, follower int64, kind string, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM follows WHERE follower_id = $1 AND `+followColumn(kind)+` = $2`, follower, id)
	return unavailable(err)
}

// maxListed bounds the follows an account's own list answers at once.
const maxListed = 2000

// Follows implements social.Store: newest first.
func (s Social) Follows(ctx context.Context, userID int64) ([]social.Follow, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
SELECT kind, id, name, friend, at FROM (
  SELECT 'player' AS kind, u.id::text AS id, u.name, f.created_at AS at, f.id AS fid,
         EXISTS (SELECT 1 FROM follows b WHERE b.follower_id = u.id AND b.player_id = $1) AS friend
    FROM follows f JOIN users u ON u.id = f.player_id
   WHERE f.follower_id = $1 AND u.deleted_at IS NULL
  UNION ALL
  SELECT 'team', t.id::text, t.name, f.created_at, f.id, false
    FROM follows f JOIN teams t ON t.id = f.team_id WHERE f.follower_id = $1
  UNION ALL
  SELECT 'tournament', tr.name, coalesce(nullif(tr.display_name, ''), tr.name), f.created_at, f.id, false
    FROM follows f JOIN tournaments tr ON tr.id = f.tournament_id WHERE f.follower_id = $1
) x ORDER BY fid DESC LIMIT $2`, userID, maxListed)
	if err != nil {
		return nil, unavailable(err)
	}
	out := []social.Follow{}
	for rows.Next() {
		var f social.Follow
		var at time.Time
		if err := rows.Scan(&f.Kind, &f.ID, &f.Name, &f.Friend, &at); err != nil {
			rows.Close()
			return nil, err
		}
		f.At = at.UTC().Format(time.RFC3339)
		out = append(out, f)
	}
	return out, unavailable(rows.Err())
}

// FollowersPage implements social.Store.
func (s Social) FollowersPage(ctx context.Context, userID, after int64, limit int) ([]social.Follower, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
SELECT f.id, u.id, u.name, EXISTS (SELECT 1 FROM follows b WHERE b.follower_id = $1 AND b.player_id = u.id)
  FROM follows f JOIN users u ON u.id = f.follower_id
 WHERE f.player_id = $1 AND u.deleted_at IS NULL AND NOT u.profile_hidden AND ($2 = 0 OR f.id < $2)
 ORDER BY f.id DESC LIMIT $3`, userID, after, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	var out []social.Follower
	for rows.Next() {
		var fid int64
		var f social.Follower
		if err := rows.Scan(&fid, &f.UserID, &f.Name, &f.Friend); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, social.WithCursor(f, fid))
	}
	return out, unavailable(rows.Err())
}

// Counts implements social.Store: the followers a list shows, and the
// players followed.
func (s Social) Counts(ctx context.Context, userID int64) (followers, following int, err error) {
	err = s.DB.q(ctx).QueryRow(ctx, `
SELECT (SELECT count(*) FROM follows f JOIN users u ON u.id = f.follower_id
         WHERE f.player_id = $1 AND u.deleted_at IS NULL AND NOT u.profile_hidden),
       (SELECT count(*) FROM follows f JOIN users u ON u.id = f.player_id
         WHERE f.follower_id = $1 AND u.deleted_at IS NULL)`, userID).Scan(&followers, &following)
	return followers, following, unavailable(err)
}

// Block implements social.Store: the follows between the two go with it.
func (s Social) Block(ctx context.Context, blocker, blocked int64) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `INSERT INTO blocks (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, blocker, blocked); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM follows WHERE (follower_id = $1 AND player_id = $2) OR (follower_id = $2 AND player_id = $1)`, blocker, blocked)
		return err
	}))
}

// Unblock implements social.Store.
func (s Social) Unblock(ctx context.Context, blocker, blocked int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2`, blocker, blocked)
	return unavailable(err)
}

// SetVisible implements social.Store.
func (s Social) SetVisible(ctx context.Context, userID int64, visible string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE users SET follows_visible = $2 WHERE id = $1`, userID, visible)
	return unavailable(err)
}
