package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
)

var _ accounts.ErasureStore = Accounts{}

// DeletionFacts implements accounts.ErasureStore.
func (s Accounts) DeletionFacts(ctx context.Context, userID int64) (accounts.DeletionFacts, error) {
	var f accounts.DeletionFacts
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT t.tournament_id, tr.name, t.letter FROM teams t
		JOIN tournaments tr ON tr.id = t.tournament_id
		WHERE t.captain_user_id = $1 AND tr.status <> 'completed' ORDER BY tr.id`, userID)
	if err != nil {
		return f, unavailable(err)
	}
	f.Running, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (core.Captaincy, error) {
		var c core.Captaincy
		return c, row.Scan(&c.TournamentID, &c.Tournament, &c.Team)
	})
	if err != nil {
		return f, unavailable(err)
	}
	rows, err = s.DB.q(ctx).Query(ctx, `SELECT tr.name FROM auction_lots l JOIN tournaments tr ON tr.id = l.tournament_id
		WHERE l.user_id = $1 AND l.status = 'open'`, userID)
	if err != nil {
		return f, unavailable(err)
	}
	f.OnTheBlock, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return f, unavailable(err)
}

// eraseSQL erases an account in order: first the audit log's words about
// it (found by the account's id: the entries about it, its own account
// events and the entries it made, never by a name, which a rival, a team or
// a tournament may share), then everything it owns but the league's
// records, then the account's own fields. $1 is the account, $2 its
// pseudonym.
var eraseSQL = []string{
	`UPDATE audit_log SET target = $2 WHERE subject_id = $1`,
	`UPDATE audit_log SET target = 'user ' || $1::bigint::text || ' (' || $2 || ')', data = data - 'discord' - 'discord_id' - 'name'
	  WHERE target LIKE 'user ' || $1::bigint::text || ' (%'`,
	// An entry about something else that names the account beside its id
	// (a team's captain).
	`UPDATE audit_log SET data = jsonb_set(data, '{name}', to_jsonb($2::text))
	  WHERE data ? 'name' AND data->>'user_id' = $1::bigint::text`,
	`UPDATE audit_log SET actor_name = $2 WHERE actor_id = $1`,
	`UPDATE captain_messages SET author = $2 WHERE user_id = $1`,
	// Its card: the in-game name and id, the blurb and the kart picture
	// (the image goes after, unless something else shows the same bytes).
	// The game figures stay with the pseudonym: seeds, tiers and strengths
	// were worked out from them, and the season's pages must add up.
	`UPDATE stats SET player_name = '', sk_id = '', description = '', cart_image_id = NULL WHERE user_id = $1`,
	`DELETE FROM sessions WHERE user_id = $1`,
	`DELETE FROM email_changes WHERE user_id = $1`,
	`DELETE FROM totp_factors WHERE user_id = $1`,
	`DELETE FROM recovery_codes WHERE user_id = $1`,
	`DELETE FROM passkeys WHERE user_id = $1`,
	`DELETE FROM webauthn_ceremonies WHERE user_id = $1`,
	`DELETE FROM push_devices WHERE user_id = $1`,
	`DELETE FROM notification_choices WHERE user_id = $1`,
	`DELETE FROM notification_deliveries WHERE user_id = $1`,
	`DELETE FROM reminders WHERE user_id = $1`,
	`DELETE FROM reminder_optouts WHERE user_id = $1`,
	`DELETE FROM stats_held WHERE user_id = $1`,
	`DELETE FROM discord_codes WHERE user_id = $1`,
	`DELETE FROM discord_oauth_states WHERE user_id = $1`,
	// A linked stream channel loses its player and sealed tokens; the
	// channel goes unless a tournament names it (streams.Store.Forget).
	`DELETE FROM stream_oauth_states WHERE user_id = $1`,
	`UPDATE audit_log SET data = data - 'channel' - 'channel_id' - 'replaced'
	  WHERE actor_id = $1 AND action IN ('stream.channel_linked', 'stream.channel_unlinked')`,
	`DELETE FROM stream_channels c WHERE c.user_id = $1
	    AND NOT EXISTS (SELECT 1 FROM tournament_channels tc WHERE tc.channel_id = c.id)`,
	`UPDATE stream_channels SET user_id = NULL, tokens = NULL WHERE user_id = $1`,
	`DELETE FROM email_codes WHERE user_id = $1`,
	// Follows and blocks, both ways: an erased account follows nobody and
	// is followed by nobody.
	`DELETE FROM follows WHERE follower_id = $1 OR player_id = $1`,
	`DELETE FROM blocks WHERE blocker_id = $1 OR blocked_id = $1`,
	`DELETE FROM newsletter_subscribers WHERE email = (SELECT email FROM users WHERE id = $1)`,
	// The calendar feed's address dies: a new generation, whose token
	// nobody has.
	`INSERT INTO calendar_feeds (user_id, generation) VALUES ($1, 2)
	 ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET generation = calendar_feeds.generation + 1, reset_at = now()`,
	`UPDATE users SET email = NULL, password_hash = NULL, google_id = NULL, google_name = NULL, avatar_image_id = NULL,
	        discord_username = NULL, discord_id = NULL, discord_verified = false, email_verified = false,
	        name = $2, deleted_at = now(), updated_at = now()
	  WHERE id = $1`,
}

// EraseAccount implements accounts.ErasureStore, in the caller's
// transaction (or one of its own).
func (s Accounts) EraseAccount(ctx context.Context, userID int64, pseudonym string) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		// The images go after the rows that show them.
		rows, err := tx.Query(ctx, `SELECT cart_image_id FROM stats WHERE user_id = $1 AND cart_image_id IS NOT NULL
			UNION SELECT avatar_image_id FROM users WHERE id = $1 AND avatar_image_id IS NOT NULL`, userID)
		if err != nil {
			return err
		}
		images, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, q := range eraseSQL {
			args := []any{userID}
			if strings.Contains(q, "$2") {
				args = append(args, pseudonym)
			}
			if _, err := tx.Exec(ctx, q, args...); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM images i WHERE i.id = ANY($1)
			AND NOT EXISTS (SELECT 1 FROM stats WHERE cart_image_id = i.id)
			AND NOT EXISTS (SELECT 1 FROM users WHERE avatar_image_id = i.id)
			AND NOT EXISTS (SELECT 1 FROM match_proofs WHERE image_id = i.id)
			AND NOT EXISTS (SELECT 1 FROM matches WHERE proof_image_id = i.id)`, images); err != nil {
			return err
		}
		return bumpRosters(ctx, tx, userID)
	}))
}

// exportSQL is one JSON document of everything kept about account $1. An
// audit entry is by the account when it acted, or when no session acted
// and the entry is one of the actions $2 only the account does signed out.
const exportSQL = `
SELECT json_build_object(
  'account', (SELECT json_build_object('id', u.id, 'email', u.email, 'name', u.name,
       'discord_username', u.discord_username, 'discord_id', u.discord_id, 'discord_verified', u.discord_verified,
       'google_linked', u.google_id IS NOT NULL, 'google_name', u.google_name, 'email_verified', u.email_verified,
       'has_password', u.password_hash IS NOT NULL, 'avatar', '/api/images/' || u.avatar_image_id,
       'profile_hidden', u.profile_hidden, 'created_at', u.created_at, 'updated_at', u.updated_at) FROM users u WHERE u.id = $1),
  'stats', (SELECT json_build_object('player_name', s.player_name, 'sk_id', s.sk_id, 'level', s.level, 'kills', s.kills,
       'deaths', s.deaths, 'games_played', s.games_played, 'kd', s.kd, 'cart_image', '/api/images/' || s.cart_image_id,
       'description', s.description, 'category', s.category, 'preferred_role', s.preferred_role,
       'read_from_screenshot', s.verified, 'updated_at', s.updated_at) FROM stats s WHERE s.user_id = $1),
  'stats_history', coalesce((SELECT json_agg(json_build_object('at', h.taken_at, 'level', h.level, 'kills', h.kills,
       'deaths', h.deaths, 'games_played', h.games_played, 'kd', h.kd, 'read_from_screenshot', h.verified) ORDER BY h.id)
       FROM stats_history h WHERE h.user_id = $1), '[]'),
  'badges', coalesce((SELECT json_agg(b.name ORDER BY b.id) FROM user_badges ub JOIN badges b ON b.id = ub.badge_id
       WHERE ub.user_id = $1), '[]'),
  'registrations', coalesce((SELECT json_agg(json_build_object('tournament', t.name, 'status', r.status, 'tier', r.tier,
       'registered_at', r.created_at, 'checked_in_at', r.checked_in_at, 'waitlisted_at', r.waitlisted_at) ORDER BY r.created_at)
       FROM registrations r JOIN tournaments t ON t.id = r.tournament_id WHERE r.user_id = $1), '[]'),
  'teams', coalesce((SELECT json_agg(x ORDER BY x.tournament) FROM (
       SELECT tr.name AS tournament, tm.letter AS team, tm.name AS team_name, tp.credits AS price, tp.substitute,
              false AS captain, tp.bought_at AS joined_at
         FROM team_players tp JOIN teams tm ON tm.id = tp.team_id JOIN tournaments tr ON tr.id = tp.tournament_id
        WHERE tp.user_id = $1
       UNION ALL
       SELECT tr.name, tm.letter, tm.name, NULL, false, true, NULL
         FROM teams tm JOIN tournaments tr ON tr.id = tm.tournament_id WHERE tm.captain_user_id = $1) x), '[]'),
  'match_lines', coalesce((SELECT json_agg(json_build_object('match', l.match_id, 'tournament', tr.name, 'team', tm.letter,
       'kills', l.kills, 'deaths', l.deaths, 'placement', l.placement, 'match_status', m.status) ORDER BY l.match_id)
       FROM match_lines l JOIN matches m ON m.id = l.match_id JOIN teams tm ON tm.id = l.team_id
       JOIN tournaments tr ON tr.id = tm.tournament_id WHERE l.user_id = $1), '[]'),
  'lineups', coalesce((SELECT json_agg(json_build_object('match', l.match_id, 'team', tm.letter) ORDER BY l.match_id)
       FROM match_lineups l JOIN teams tm ON tm.id = l.team_id WHERE l.user_id = $1), '[]'),
  'auction_lots', coalesce((SELECT json_agg(json_build_object('tournament', tr.name, 'status', l.status,
       'base_price', l.base_price, 'sold_for', l.high_amount, 'opened_at', l.opened_at, 'closed_at', l.closed_at) ORDER BY l.id)
       FROM auction_lots l JOIN tournaments tr ON tr.id = l.tournament_id WHERE l.user_id = $1), '[]'),
  'bids_placed', coalesce((SELECT json_agg(json_build_object('lot', b.lot_id, 'team', tm.letter, 'amount', b.amount, 'at', b.at)
       ORDER BY b.id) FROM auction_bids b JOIN teams tm ON tm.id = b.team_id WHERE b.user_id = $1), '[]'),
  'captains_room_messages', coalesce((SELECT json_agg(json_build_object('tournament', tr.name, 'text', c.text, 'at', c.at)
       ORDER BY c.id) FROM captain_messages c JOIN tournaments tr ON tr.id = c.tournament_id WHERE c.user_id = $1), '[]'),
  'substitute_requests', coalesce((SELECT json_agg(json_build_object('tournament', tr.name, 'status', r.status,
       'price', r.price, 'asked_at', r.asked_at, 'decided_at', r.decided_at) ORDER BY r.id)
       FROM substitute_requests r JOIN tournaments tr ON tr.id = r.tournament_id WHERE r.user_id = $1), '[]'),
  'sessions', coalesce((SELECT json_agg(json_build_object('client', s.client, 'method', s.method, 'created_at', s.created_at,
       'seen_at', s.seen_at, 'expires_at', s.expires_at, 'second_factor_at', s.second_factor_at) ORDER BY s.id)
       FROM sessions s WHERE s.user_id = $1), '[]'),
  'second_factors', json_build_object(
       'authenticator_app', EXISTS (SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL),
       'recovery_codes_left', (SELECT count(*) FROM recovery_codes WHERE user_id = $1),
       'passkeys', coalesce((SELECT json_agg(json_build_object('name', p.name, 'created_at', p.created_at,
            'last_used_at', p.last_used_at) ORDER BY p.created_at) FROM passkeys p WHERE p.user_id = $1), '[]')),
  'notifications', json_build_object(
       'choices', coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'channel', c.channel) ORDER BY c.kind, c.channel)
            FROM notification_choices c WHERE c.user_id = $1), '[]'),
       'push_devices', coalesce((SELECT json_agg(json_build_object('service', split_part(d.endpoint, '/', 3),
            'created_at', d.created_at) ORDER BY d.id) FROM push_devices d WHERE d.user_id = $1), '[]'),
       'reminders_received', coalesce((SELECT json_agg(json_build_object('step', m.step, 'channels', m.channels,
            'sent_at', m.sent_at) ORDER BY m.id) FROM reminders m WHERE m.user_id = $1), '[]'),
       'reminder_emails_off', EXISTS (SELECT 1 FROM reminder_optouts o WHERE o.user_id = $1)),
  'follows', coalesce((SELECT json_agg(json_build_object('at', f.created_at,
       'player_id', f.player_id, 'team_id', f.team_id, 'tournament', t.name) ORDER BY f.id)
       FROM follows f LEFT JOIN tournaments t ON t.id = f.tournament_id WHERE f.follower_id = $1), '[]'),
  'followers', (SELECT count(*) FROM follows WHERE player_id = $1),
  'follows_visible', (SELECT follows_visible FROM users WHERE id = $1),
  'blocks', coalesce((SELECT json_agg(json_build_object('at', b.created_at, 'user_id', b.blocked_id) ORDER BY b.created_at)
       FROM blocks b WHERE b.blocker_id = $1), '[]'),
  'calendar_feed', (SELECT json_build_object('generation', f.generation, 'reset_at', f.reset_at)
       FROM calendar_feeds f WHERE f.user_id = $1),
  'audit_log', coalesce((SELECT json_agg(json_build_object('at', a.at, 'action', a.action, 'target', a.target, 'data', a.data,
       'by_you', CASE WHEN a.actor_id IS NOT NULL THEN a.actor_id = $1 ELSE a.action = ANY($2) END) ORDER BY a.id DESC) FROM (
         SELECT * FROM audit_log WHERE actor_id = $1 OR subject_id = $1 OR target LIKE 'user ' || $1::bigint::text || ' (%'
         ORDER BY id DESC LIMIT 5000) a), '[]')
)`

// Export implements accounts.ErasureStore.
func (s Accounts) Export(ctx context.Context, userID int64) (json.RawMessage, error) {
	var doc []byte
	err := s.DB.q(ctx).QueryRow(ctx, exportSQL, userID, accounts.OwnSignedOut).Scan(&doc)
	return doc, unavailable(notFound(err, "Account not found "+strconv.FormatInt(userID, 10)))
}
