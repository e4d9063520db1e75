package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/streams"
)

// Streams is the PostgreSQL store of streams.Store.
type Streams struct{ DB *DB }

var _ streams.Store = Streams{}

// SaveState implements streams.Store.
func (s Streams) SaveState(ctx context.Context, stateMAC []byte, userID int64, platform, verifier string, ttl time.Duration) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO stream_oauth_states (state_mac, user_id, platform, verifier, expires_at)
		VALUES ($1, $2, $3, $4, now() + $5::interval)`, stateMAC, userID, platform, verifier, ttl)
	if err == nil {
		_, err = s.DB.q(ctx).Exec(ctx, `DELETE FROM stream_oauth_states WHERE expires_at < now()`)
	}
	return unavailable(err)
}

// TakeState implements streams.Store.
func (s Streams) TakeState(ctx context.Context, stateMAC []byte) (userID int64, platform, verifier string, err error) {
	err = s.DB.q(ctx).QueryRow(ctx, `DELETE FROM stream_oauth_states WHERE state_mac = $1 AND expires_at > now()
		RETURNING user_id, platform, verifier`, stateMAC).Scan(&userID, &platform, &verifier)
	return userID, platform, verifier, unavailable(notFound(err, "Unknown state"))
}

const channelColumns = `id, platform, channel_id, login, display_name, coalesce(user_id, 0), live, title, viewers, thumbnail, started_at, changed_at`

func scanChannel(row pgx.Row) (streams.Channel, error) {
	var c streams.Channel
	err := row.Scan(&c.ID, &c.Platform, &c.ChannelID, &c.Login, &c.DisplayName, &c.UserID,
		&c.State.Live, &c.State.Title, &c.State.Viewers, &c.State.Thumbnail, &c.State.StartedAt, &c.ChangedAt)
	return c, err
}

// LinkChannel implements streams.Store.
func (s Streams) LinkChannel(ctx context.Context, userID int64, platform string, id streams.Identity,
	seal func(label string) []byte) (streams.Channel, *streams.Channel, error) {
	var replaced *streams.Channel
	old, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `SELECT `+channelColumns+` FROM stream_channels
		WHERE user_id = $1 AND platform = $2 FOR UPDATE`, userID, platform))
	switch {
	case err == nil && old.ChannelID != id.ID:
		if _, err := s.DB.q(ctx).Exec(ctx, `UPDATE stream_channels SET user_id = NULL, tokens = NULL WHERE id = $1`, old.ID); err != nil {
			return streams.Channel{}, nil, unavailable(err)
		}
		replaced = &old
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return streams.Channel{}, nil, unavailable(err)
	}
	ch, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `INSERT INTO stream_channels (platform, channel_id, login, display_name, user_id, tokens)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (platform, channel_id) DO UPDATE SET login = EXCLUDED.login, display_name = EXCLUDED.display_name,
			user_id = EXCLUDED.user_id, tokens = EXCLUDED.tokens
		 WHERE stream_channels.user_id IS NULL OR stream_channels.user_id = EXCLUDED.user_id
		RETURNING `+channelColumns, platform, id.ID, id.Login, id.DisplayName, userID, seal(streams.TokenLabel(platform, id.ID))))
	if errors.Is(err, pgx.ErrNoRows) {
		return streams.Channel{}, nil, errs.E(errs.Conflict, streams.MsgTaken)
	}
	return ch, replaced, unavailable(err)
}

// UnlinkChannel implements streams.Store.
func (s Streams) UnlinkChannel(ctx context.Context, userID int64, platform string) (streams.Channel, error) {
	ch, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `UPDATE stream_channels SET user_id = NULL, tokens = NULL
		WHERE user_id = $1 AND platform = $2 RETURNING `+channelColumns, userID, platform))
	return ch, unavailable(notFound(err, streams.MsgNotLinked))
}

// AddOfficial implements streams.Store.
func (s Streams) AddOfficial(ctx context.Context, tournamentID, by int64, platform string, id streams.Identity) (streams.Channel, bool, error) {
	ch, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `INSERT INTO stream_channels (platform, channel_id, login, display_name)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (platform, channel_id) DO UPDATE SET login = EXCLUDED.login, display_name = EXCLUDED.display_name
		RETURNING `+channelColumns, platform, id.ID, id.Login, id.DisplayName))
	if err != nil {
		return ch, false, unavailable(err)
	}
	tag, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO tournament_channels (tournament_id, channel_id, added_by)
		VALUES ($1, $2, nullif($3, 0)) ON CONFLICT DO NOTHING`, tournamentID, ch.ID, by)
	return ch, tag.RowsAffected() == 1, unavailable(err)
}

// RemoveOfficial implements streams.Store.
func (s Streams) RemoveOfficial(ctx context.Context, tournamentID int64, platform, login string) (streams.Channel, error) {
	ch, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `SELECT `+channelColumns+` FROM stream_channels c
		WHERE platform = $2 AND login = $3
		  AND EXISTS (SELECT 1 FROM tournament_channels tc WHERE tc.channel_id = c.id AND tc.tournament_id = $1)`,
		tournamentID, platform, login))
	if err != nil {
		return ch, unavailable(notFound(err, "That channel is not one of this tournament's."))
	}
	_, err = s.DB.q(ctx).Exec(ctx, `DELETE FROM tournament_channels WHERE tournament_id = $1 AND channel_id = $2`, tournamentID, ch.ID)
	return ch, unavailable(err)
}

// Forget implements streams.Store. The statement's SELECT sees the
// subscriptions as they were before its DELETE cascaded to them.
func (s Streams) Forget(ctx context.Context) ([]string, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `WITH gone AS (
		DELETE FROM stream_channels c WHERE c.user_id IS NULL
		   AND NOT EXISTS (SELECT 1 FROM tournament_channels tc WHERE tc.channel_id = c.id) RETURNING id)
		SELECT e.subscription_id FROM eventsub_subscriptions e WHERE e.channel_id IN (SELECT id FROM gone)`)
	if err != nil {
		return nil, unavailable(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return ids, unavailable(err)
}

// Channels implements streams.Store.
func (s Streams) Channels(ctx context.Context, platform string) ([]streams.Channel, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+channelColumns+` FROM stream_channels WHERE platform = $1 ORDER BY id`, platform)
	if err != nil {
		return nil, unavailable(err)
	}
	chans, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (streams.Channel, error) { return scanChannel(row) })
	return chans, unavailable(err)
}

// FindChannel implements streams.Store, locking the row for the change
// that follows.
func (s Streams) FindChannel(ctx context.Context, platform, channelID string) (streams.Channel, error) {
	ch, err := scanChannel(s.DB.q(ctx).QueryRow(ctx, `SELECT `+channelColumns+` FROM stream_channels
		WHERE platform = $1 AND channel_id = $2 FOR UPDATE`, platform, channelID))
	return ch, unavailable(notFound(err, "No such channel"))
}

// SetState implements streams.Store.
func (s Streams) SetState(ctx context.Context, id int64, st streams.State) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE stream_channels SET
		changed_at = CASE WHEN live <> $2 THEN now() ELSE changed_at END,
		live = $2, title = $3, viewers = $4, thumbnail = $5, started_at = $6, checked_at = now()
		WHERE id = $1`, id, st.Live, st.Title, st.Viewers, st.Thumbnail, st.StartedAt)
	return unavailable(err)
}

// Confirm implements streams.Store.
func (s Streams) Confirm(ctx context.Context, ids []int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE stream_channels SET checked_at = now() WHERE id = ANY($1)`, ids)
	return unavailable(err)
}

// streamSelect is a channel as the public list shows it. $1 is now: the
// player's match is one live, or scheduled on now's day. A hidden
// profile's channel names neither the player nor the match.
const streamSelect = `SELECT c.login, c.platform, c.display_name, c.live, c.title, c.viewers, c.thumbnail, c.started_at, c.checked_at,
	CASE WHEN coalesce(u.profile_hidden, false) THEN NULL ELSE c.user_id END,
	EXISTS (SELECT 1 FROM tournament_channels tc JOIN tournaments t ON t.id = tc.tournament_id
	         WHERE tc.channel_id = c.id AND t.status <> 'completed') AS official,
	CASE WHEN c.user_id IS NULL OR coalesce(u.profile_hidden, false) THEN NULL ELSE (
		SELECT m.id FROM matches m JOIN teams tm ON tm.id IN (m.team1_id, m.team2_id)
		 WHERE (tm.captain_user_id = c.user_id
		        OR EXISTS (SELECT 1 FROM team_players tp WHERE tp.team_id = tm.id AND tp.user_id = c.user_id))
		   AND (m.status = 'live' OR (m.status = 'scheduled' AND m.scheduled_at >= date_trunc('day', $1::timestamptz)
		        AND m.scheduled_at < date_trunc('day', $1::timestamptz) + interval '1 day'))
		 ORDER BY m.status = 'live' DESC, m.scheduled_at NULLS LAST, m.id LIMIT 1) END
	FROM stream_channels c LEFT JOIN users u ON u.id = c.user_id`

func scanStream(row pgx.Row, now time.Time) (streams.Stream, error) {
	var st streams.Stream
	err := row.Scan(&st.Channel, &st.Platform, &st.DisplayName, &st.Live, &st.Title, &st.Viewers, &st.Thumbnail,
		&st.StartedAt, &st.CheckedAt, &st.PlayerID, &st.Official, &st.MatchID)
	st.Stale = st.CheckedAt == nil || now.Sub(*st.CheckedAt) > streams.StaleAfter
	if !st.Live {
		st.Viewers, st.Thumbnail, st.StartedAt = 0, "", nil
	}
	return st, err
}

// Stream implements streams.Store.
func (s Streams) Stream(ctx context.Context, id int64, now time.Time) (streams.Stream, error) {
	st, err := scanStream(s.DB.q(ctx).QueryRow(ctx, streamSelect+` WHERE c.id = $2`, now, id), now)
	return st, unavailable(notFound(err, "No such channel"))
}

// maxStreams bounds the public list: live channels and the running
// tournaments' official ones are far fewer.
const maxStreams = 500

// Streams implements streams.Store.
func (s Streams) Streams(ctx context.Context, now time.Time) ([]streams.Stream, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT * FROM (`+streamSelect+`) s WHERE s.live OR s.official
		ORDER BY s.live DESC, s.viewers DESC, s.login LIMIT $2`, now, maxStreams)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (streams.Stream, error) { return scanStream(row, now) })
	if list == nil {
		list = []streams.Stream{}
	}
	return list, unavailable(err)
}

// PlayerStreams implements streams.Store.
func (s Streams) PlayerStreams(ctx context.Context, userID int64, now time.Time) ([]streams.Stream, error) {
	rows, err := s.DB.q(ctx).Query(ctx, streamSelect+` WHERE c.user_id = $2 ORDER BY c.platform`, now, userID)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (streams.Stream, error) { return scanStream(row, now) })
	if list == nil {
		list = []streams.Stream{}
	}
	return list, unavailable(err)
}

// FirstSeen implements streams.Store.
func (s Streams) FirstSeen(ctx context.Context, messageID string) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO eventsub_messages (id) VALUES ($1) ON CONFLICT DO NOTHING`, messageID)
	return tag.RowsAffected() == 1, unavailable(err)
}

// PruneMessages implements streams.Store.
func (s Streams) PruneMessages(ctx context.Context, before time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM eventsub_messages WHERE received_at < $1`, before)
	return unavailable(err)
}

// Unsubscribed implements streams.Store.
func (s Streams) Unsubscribed(ctx context.Context, platform string, types []string, now time.Time) ([]streams.Channel, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+channelColumns+` FROM stream_channels c
		WHERE platform = $1 AND subscribe_after <= $3
		  AND (SELECT count(*) FROM eventsub_subscriptions e WHERE e.channel_id = c.id AND e.type = ANY($2)) < cardinality($2::text[])
		ORDER BY id LIMIT 100`, platform, types, now)
	if err != nil {
		return nil, unavailable(err)
	}
	chans, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (streams.Channel, error) { return scanChannel(row) })
	return chans, unavailable(err)
}

// SaveSubscriptions implements streams.Store.
func (s Streams) SaveSubscriptions(ctx context.Context, channel int64, subs []streams.Subscription) error {
	for _, sub := range subs {
		if _, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO eventsub_subscriptions (channel_id, type, subscription_id, status)
			VALUES ($1, $2, $3, $4) ON CONFLICT (channel_id, type) DO UPDATE
			SET subscription_id = EXCLUDED.subscription_id, status = EXCLUDED.status`,
			channel, sub.Type, sub.ID, sub.Status); err != nil {
			return unavailable(err)
		}
	}
	return nil
}

// RefuseSubscriptions implements streams.Store.
func (s Streams) RefuseSubscriptions(ctx context.Context, channel int64, after time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE stream_channels SET subscribe_after = $2 WHERE id = $1`, channel, after)
	return unavailable(err)
}

// DropSubscription implements streams.Store.
func (s Streams) DropSubscription(ctx context.Context, id string, after time.Time) error {
	if id == "" {
		return nil
	}
	_, err := s.DB.q(ctx).Exec(ctx, `WITH gone AS (DELETE FROM eventsub_subscriptions WHERE subscription_id = $1 RETURNING channel_id)
		UPDATE stream_channels SET subscribe_after = $2 WHERE id IN (SELECT channel_id FROM gone)`, id, after)
	return unavailable(err)
}

// EnableSubscription implements streams.Store.
func (s Streams) EnableSubscription(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE eventsub_subscriptions SET status = 'enabled' WHERE subscription_id = $1`, id)
	return unavailable(err)
}
