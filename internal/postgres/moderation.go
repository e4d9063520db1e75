package postgres

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/moderation"
)

// Moderation is the PostgreSQL store of moderation.Store.
type Moderation struct{ DB *DB }

var _ moderation.Store = Moderation{}

// Identity implements moderation.Store.
func (s Moderation) Identity(ctx context.Context, userID int64) (moderation.Identity, string, error) {
	id := moderation.Identity{UserID: userID}
	var name string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT u.email, coalesce(u.google_id, ''), coalesce(u.discord_id, ''),
		`+playerName+` FROM users u LEFT JOIN stats s ON s.user_id = u.id WHERE u.id = $1`, userID).
		Scan(&id.Email, &id.GoogleID, &id.DiscordID, &name)
	return id, name, unavailable(notFound(err, "Player "+strconv.FormatInt(userID, 10)+" not found"))
}

// playerName is how a report or an audit entry names a player (u: users,
// s: their stats).
const playerName = `coalesce(nullif(s.player_name, ''), nullif(u.discord_username, ''), nullif(u.name, ''), 'Player')`

const sanctionColumns = `x.id, x.user_id, x.kind, coalesce(x.tournament_id, 0), coalesce(t.name, ''), x.reason,
	x.created_at, x.ends_at, x.lifted_at, x.lift_reason`

func scanSanction(row pgx.Row) (moderation.Sanction, error) {
	var sn moderation.Sanction
	var tid int64
	err := row.Scan(&sn.ID, &sn.UserID, &sn.Kind, &tid, &sn.Tournament, &sn.Reason, &sn.CreatedAt, &sn.EndsAt, &sn.LiftedAt, &sn.LiftReason)
	return sn.WithTournamentID(tid), err
}

// AddSanction implements moderation.Store.
func (s Moderation) AddSanction(ctx context.Context, sn moderation.Sanction, by int64, keys [][]byte) (moderation.Sanction, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO sanctions (user_id, kind, tournament_id, reason, ends_at, created_by)
		VALUES ($1, $2, nullif($3, 0::bigint), $4, $5, $6) RETURNING id`,
		sn.UserID, sn.Kind, sn.TournamentID(), sn.Reason, sn.EndsAt, by).Scan(&id)
	if err != nil {
		return sn, unavailable(err)
	}
	if _, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO sanction_identities (sanction_id, key)
		SELECT $1, k FROM unnest($2::bytea[]) k ON CONFLICT DO NOTHING`, id, keys); err != nil {
		return sn, unavailable(err)
	}
	return s.sanction(ctx, id, "")
}

func (s Moderation) sanction(ctx context.Context, id int64, lock string) (moderation.Sanction, error) {
	sn, err := scanSanction(s.DB.q(ctx).QueryRow(ctx, `SELECT `+sanctionColumns+`
		FROM sanctions x LEFT JOIN tournaments t ON t.id = x.tournament_id WHERE x.id = $1 `+lock, id))
	return sn, unavailable(notFound(err, "Sanction "+strconv.FormatInt(id, 10)+" not found"))
}

// LockSanction implements moderation.Store.
func (s Moderation) LockSanction(ctx context.Context, id int64) (moderation.Sanction, error) {
	return s.sanction(ctx, id, "FOR UPDATE OF x")
}

// LiftSanction implements moderation.Store.
func (s Moderation) LiftSanction(ctx context.Context, id, by int64, reason string) (moderation.Sanction, error) {
	if _, err := s.DB.q(ctx).Exec(ctx, `UPDATE sanctions SET lifted_at = now(), lifted_by = $2, lift_reason = $3 WHERE id = $1`,
		id, by, reason); err != nil {
		return moderation.Sanction{}, unavailable(err)
	}
	return s.sanction(ctx, id, "")
}

// Sanctions implements moderation.Store.
func (s Moderation) Sanctions(ctx context.Context, userID int64, keys [][]byte, kinds []string) ([]moderation.Sanction, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+sanctionColumns+`
		FROM sanctions x LEFT JOIN tournaments t ON t.id = x.tournament_id
		WHERE (coalesce(cardinality($3::text[]), 0) = 0 OR x.kind = ANY($3))
		  AND (x.user_id = $1 OR EXISTS (SELECT 1 FROM sanction_identities i WHERE i.sanction_id = x.id AND i.key = ANY($2::bytea[])))
		ORDER BY x.id DESC LIMIT 200`, userID, keys, kinds)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (moderation.Sanction, error) { return scanSanction(row) })
	if list == nil {
		list = []moderation.Sanction{}
	}
	return list, unavailable(err)
}

// Subject implements moderation.Store.
func (s Moderation) Subject(ctx context.Context, kind string, id int64) (moderation.Subject, error) {
	var sub moderation.Subject
	var ctxJSON []byte
	var err error
	q := s.DB.q(ctx)
	switch kind {
	case moderation.ReportProfile:
		// A player's report goes to the staff of the last season they
		// registered for, and to the site's organisers.
		err = q.QueryRow(ctx, `SELECT u.id, coalesce(r.tournament_id, 0), coalesce(r.name, ''),
			json_build_object('name', `+playerName+`, 'discord', coalesce(u.discord_username, ''),
				'kart_image', CASE WHEN s.cart_image_id IS NULL THEN '' ELSE '/api/images/' || s.cart_image_id END)
			FROM users u LEFT JOIN stats s ON s.user_id = u.id
			LEFT JOIN LATERAL (SELECT g.tournament_id, t.name FROM registrations g JOIN tournaments t ON t.id = g.tournament_id
				WHERE g.user_id = u.id ORDER BY g.created_at DESC LIMIT 1) r ON true
			WHERE u.id = $1`, id).Scan(&sub.UserID, &sub.TournamentID, &sub.Tournament, &ctxJSON)
	case moderation.ReportMessage:
		// A deleted message keeps no text: there is nothing left to judge.
		err = q.QueryRow(ctx, `SELECT coalesce(x.user_id, 0), r.tournament_id, t.name,
			json_build_object('text', x.text, 'author', x.author, 'at', x.at, 'room', r.id)
			FROM chat_messages x JOIN chat_rooms r ON r.id = x.room_id JOIN tournaments t ON t.id = r.tournament_id
			WHERE x.id = $1 AND x.deleted_at IS NULL`, id).Scan(&sub.UserID, &sub.TournamentID, &sub.Tournament, &ctxJSON)
	case moderation.ReportTeam:
		err = q.QueryRow(ctx, `SELECT coalesce(m.captain_user_id, 0), m.tournament_id, t.name,
			json_build_object('team', m.letter, 'name', m.name, 'tournament', t.name)
			FROM teams m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = $1`, id).
			Scan(&sub.UserID, &sub.TournamentID, &sub.Tournament, &ctxJSON)
	default:
		return sub, errs.E(errs.Invalid, "%s cannot be reported", errs.Echo(kind))
	}
	if err == nil {
		err = json.Unmarshal(ctxJSON, &sub.Context)
	}
	return sub, unavailable(notFound(err, "Nothing to report: "+kind+" "+strconv.FormatInt(id, 10)+" not found"))
}

const reportColumns = `r.id, r.kind, r.subject_id, r.subject_user_id, coalesce(t.name, ''), r.reason, r.context, r.status, r.created_at, r.reporter_id`

func scanReport(row pgx.Row) (moderation.Report, error) {
	var r moderation.Report
	var raw []byte
	err := row.Scan(&r.ID, &r.Kind, &r.SubjectID, &r.UserID, &r.Tournament, &r.Reason, &raw, &r.Status, &r.CreatedAt, &r.Reporter)
	if err == nil {
		err = json.Unmarshal(raw, &r.Context)
	}
	return r, err
}

// AddReport implements moderation.Store.
func (s Moderation) AddReport(ctx context.Context, r moderation.Report, sub moderation.Subject, reporter int64) (moderation.Report, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO reports (reporter_id, kind, subject_id, subject_user_id, tournament_id, reason, context)
		VALUES ($1, $2, $3, nullif($4, 0::bigint), nullif($5, 0::bigint), $6, $7) RETURNING id`,
		reporter, r.Kind, r.SubjectID, sub.UserID, sub.TournamentID, r.Reason, sub.Context).Scan(&id)
	if isUniqueViolation(err) {
		return r, errs.E(errs.Conflict, "You already reported this; the staff have it.")
	}
	if err != nil {
		return r, unavailable(err)
	}
	return scanReport(s.DB.q(ctx).QueryRow(ctx, `SELECT `+reportColumns+` FROM reports r
		LEFT JOIN tournaments t ON t.id = r.tournament_id WHERE r.id = $1`, id))
}

// Reports implements moderation.Store.
func (s Moderation) Reports(ctx context.Context, tournamentID int64, status string, before int64, limit int) ([]moderation.Report, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+reportColumns+` FROM reports r
		LEFT JOIN tournaments t ON t.id = r.tournament_id
		WHERE ($1 = 0 OR r.tournament_id = $1) AND r.status = $2 AND ($3 = 0 OR r.id < $3)
		ORDER BY r.id DESC LIMIT $4`, tournamentID, status, before, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (moderation.Report, error) { return scanReport(row) })
	if list == nil {
		list = []moderation.Report{}
	}
	return list, unavailable(err)
}

// LockReport implements moderation.Store.
func (s Moderation) LockReport(ctx context.Context, id int64) (moderation.Report, int64, error) {
	var tid int64
	var status string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT coalesce(tournament_id, 0), status FROM reports WHERE id = $1 FOR UPDATE`, id).Scan(&tid, &status)
	return moderation.Report{ID: id, Status: status}, tid, unavailable(notFound(err, "report "+strconv.FormatInt(id, 10)+" not found"))
}

// CloseReport implements moderation.Store.
func (s Moderation) CloseReport(ctx context.Context, id int64, status string, by int64) (moderation.Report, error) {
	return scanReport(s.DB.q(ctx).QueryRow(ctx, `WITH u AS (
		UPDATE reports SET status = $2, closed_at = now(), closed_by = $3 WHERE id = $1 RETURNING *)
		SELECT `+reportColumns+` FROM u r LEFT JOIN tournaments t ON t.id = r.tournament_id`, id, status, by))
}
