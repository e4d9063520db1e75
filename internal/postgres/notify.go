package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/notify"
)

// Notify is the PostgreSQL store of notify.Store and notify.Directory.
type Notify struct{ DB *DB }

var (
	_ notify.Store     = Notify{}
	_ notify.Directory = Notify{}
)

// Choices implements notify.Store: kind -> channel -> on.
func (s Notify) Choices(ctx context.Context, userID int64) (map[string]map[string]bool, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT kind, channel FROM notification_choices WHERE user_id = $1`, userID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := map[string]map[string]bool{}
	for rows.Next() {
		var kind, channel string
		if err := rows.Scan(&kind, &channel); err != nil {
			return nil, err
		}
		if out[kind] == nil {
			out[kind] = map[string]bool{}
		}
		out[kind][channel] = true
	}
	return out, unavailable(rows.Err())
}

// SetChoices implements notify.Store: the kinds given are set, others kept.
func (s Notify) SetChoices(ctx context.Context, userID int64, on map[string]map[string]bool) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		for kind, channels := range on {
			if _, err := q.Exec(ctx, `DELETE FROM notification_choices WHERE user_id = $1 AND kind = $2`, userID, kind); err != nil {
				return err
			}
			for channel, yes := range channels {
				if !yes {
					continue
				}
				if _, err := q.Exec(ctx, `INSERT INTO notification_choices (user_id, kind, channel) VALUES ($1, $2, $3)`,
					userID, kind, channel); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

// TurnOff implements notify.Store.
func (s Notify) TurnOff(ctx context.Context, userID int64, kind string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `WITH off AS (DELETE FROM notification_choices WHERE user_id = $1 AND kind = $2)
		INSERT INTO reminder_optouts (user_id) SELECT $1 WHERE $2 = '`+notify.KindReminder+`' ON CONFLICT DO NOTHING`, userID, kind)
	return unavailable(err)
}

// DiscordID implements notify.Store ("" when not linked).
func (s Notify) DiscordID(ctx context.Context, userID int64) (string, error) {
	var id *string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT discord_id FROM users WHERE id = $1`, userID).Scan(&id)
	if err != nil || id == nil {
		return "", unavailable(notFound(err, "Account not found"))
	}
	return *id, nil
}

// CountDevices implements notify.Store.
func (s Notify) CountDevices(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FROM push_devices WHERE user_id = $1`, userID).Scan(&n)
	return n, unavailable(err)
}

// AddDevice implements notify.Store. A browser subscribed again keeps one
// row, the latest: with new keys for the same account, or for another
// account with the same keys (the browser signed in as someone else). The
// row is taken in the one statement, so two accounts racing cannot both.
func (s Notify) AddDevice(ctx context.Context, d notify.Device) error {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO push_devices (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
		ON CONFLICT (endpoint) DO UPDATE SET user_id = $1, p256dh = $3, auth = $4, created_at = now()
		WHERE push_devices.user_id = $1 OR (push_devices.p256dh = $3 AND push_devices.auth = $4)
		RETURNING id`, d.UserID, d.Endpoint, d.Keys.P256dh, d.Keys.Auth).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return errs.E(errs.Conflict, "This browser's push subscription belongs to another account: turn push off there first.")
	}
	return unavailable(err)
}

// RemoveDevice implements notify.Store.
func (s Notify) RemoveDevice(ctx context.Context, userID int64, endpoint string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM push_devices WHERE user_id = $1 AND endpoint = $2`, userID, endpoint)
	return unavailable(err)
}

// Device implements notify.Store.
func (s Notify) Device(ctx context.Context, id int64) (notify.Device, error) {
	var d notify.Device
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT id, user_id, endpoint, p256dh, auth FROM push_devices WHERE id = $1`, id).
		Scan(&d.ID, &d.UserID, &d.Endpoint, &d.Keys.P256dh, &d.Keys.Auth)
	return d, unavailable(notFound(err, "No such device"))
}

// DropDevice implements notify.Store.
func (s Notify) DropDevice(ctx context.Context, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM push_devices WHERE id = $1`, id)
	return unavailable(err)
}

// Event implements notify.Store.
func (s Notify) Event(ctx context.Context, topic string, seq int64) (core.Event, bool, error) {
	ev := core.Event{Topic: topic, Seq: seq}
	var data string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT event, data::text, created_at FROM outbox WHERE topic = $1 AND seq = $2`, topic, seq).
		Scan(&ev.Name, &data, &ev.At)
	if errors.Is(err, pgx.ErrNoRows) {
		return ev, false, nil
	}
	ev.Data = []byte(data)
	return ev, err == nil, unavailable(err)
}

// Recipient implements notify.Store.
func (s Notify) Recipient(ctx context.Context, userID int64, kind string) (notify.Recipient, error) {
	r := notify.Recipient{UserID: userID}
	var discordID *string
	err := s.DB.q(ctx).QueryRow(ctx, `
SELECT EXISTS (SELECT 1 FROM notification_choices c WHERE c.user_id = u.id AND c.kind = $2 AND c.channel = 'push'),
       EXISTS (SELECT 1 FROM notification_choices c WHERE c.user_id = u.id AND c.kind = $2 AND c.channel = 'discord'),
       u.discord_id,
       COALESCE((SELECT array_agg(d.id ORDER BY d.id) FROM push_devices d WHERE d.user_id = u.id), '{}')
  FROM users u WHERE u.id = $1`, userID, kind).Scan(&r.Push, &r.Discord, &discordID, &r.Devices)
	if errors.Is(err, pgx.ErrNoRows) {
		return notify.Recipient{UserID: userID}, nil // gone since: nobody to tell
	}
	if discordID != nil {
		r.DiscordID = *discordID
	}
	return r, unavailable(err)
}

// AddDelivery implements notify.Store.
func (s Notify) AddDelivery(ctx context.Context, d notify.Delivery) (int64, bool, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO notification_deliveries (key, user_id, channel, target, kind, title, body, url)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (key, user_id, channel, target) DO NOTHING RETURNING id`,
		d.Key, d.UserID, d.Channel, d.Target, d.Kind, d.Title, d.Body, d.URL).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, unavailable(err)
}

// Delivery implements notify.Store.
func (s Notify) Delivery(ctx context.Context, id int64) (notify.Delivery, error) {
	var d notify.Delivery
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT id, key, user_id, channel, target, kind, title, body, url, sent_at
		FROM notification_deliveries WHERE id = $1`, id).
		Scan(&d.ID, &d.Key, &d.UserID, &d.Channel, &d.Target, &d.Kind, &d.Title, &d.Body, &d.URL, &d.SentAt)
	return d, unavailable(notFound(err, "No such delivery"))
}

// MarkSent implements notify.Store.
func (s Notify) MarkSent(ctx context.Context, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE notification_deliveries SET sent_at = now() WHERE id = $1`, id)
	return unavailable(err)
}

// Captain implements notify.Directory.
func (s Notify) Captain(ctx context.Context, tournament, team string) (int64, error) {
	var id *int64
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT tm.captain_user_id FROM teams tm JOIN tournaments t ON t.id = tm.tournament_id
		WHERE t.name = $1 AND tm.letter = $2`, tournament, team).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil || id == nil {
		return 0, unavailable(err)
	}
	return *id, nil
}

// BeatenTeam implements notify.Directory.
func (s Notify) BeatenTeam(ctx context.Context, lot int64, amount int) (string, error) {
	var letter string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT tm.letter FROM auction_bids b JOIN teams tm ON tm.id = b.team_id
		WHERE b.lot_id = $1 AND b.amount < $2 ORDER BY b.amount DESC, b.id DESC LIMIT 1`, lot, amount).Scan(&letter)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return letter, unavailable(err)
}

// PruneDeliveries deletes deliveries older than a month: their keys only
// need to outlive the events that might tell of the same thing again.
type PruneDeliveries struct{}

// Kind implements core.Job.
func (PruneDeliveries) Kind() string { return "notify.prune" }

// Prune is PruneDeliveries' work.
func (s Notify) Prune(ctx context.Context, _ PruneDeliveries) error {
	_, err := s.DB.Pool.Exec(ctx, `DELETE FROM notification_deliveries WHERE created_at < now() - interval '30 days'`)
	return unavailable(err)
}
