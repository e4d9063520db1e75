package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/metrics"
)

// Metrics is the PostgreSQL store of package metrics: the funnel read from
// the league's own tables, the reminders, the page and API timings, the
// instances' heartbeat and the live view.
type Metrics struct{ DB *DB }

var (
	_ metrics.Store         = Metrics{}
	_ metrics.ReminderStore = Metrics{}
	_ metrics.RecorderStore = Metrics{}
)

// cohortSQL is every account of a funnel read with where it stands: $1 the
// tournament, $2 made since, $3 the organisers' addresses (not players), $4
// whether the tournament's check-in opened. A step counts once every step
// before it is taken (s_verified ... s_checked_in): the funnel only narrows.
// stuck_at is the first step the account has not taken ("" when it took
// them all); since is when it took the step before. A Discord step is a
// username, typed or proven; a waitlisted player has no check-in to make.
const cohortSQL = `
WITH cohort AS (
  SELECT u.id, u.created_at, u.email_verified, u.verified_at, u.discord_verified,
         coalesce(u.discord_username, '') <> '' AS named,
         least(u.discord_named_at, u.discord_linked_at) AS discord_at,
         s.created_at AS stats_at, s.source,
         r.created_at AS reg_at, r.status AS reg_status, r.checked_in_at,
         CASE WHEN NOT u.email_verified THEN 'verified'
              WHEN coalesce(u.discord_username, '') = '' THEN 'discord'
              WHEN s.user_id IS NULL THEN 'stats'
              WHEN r.user_id IS NULL THEN 'registered'
              WHEN $4 AND r.status = 'confirmed' AND r.checked_in_at IS NULL THEN 'checked_in'
              ELSE '' END AS stuck_at,
         CASE WHEN NOT u.email_verified THEN u.created_at
              WHEN coalesce(u.discord_username, '') = '' THEN coalesce(u.verified_at, u.created_at)
              WHEN s.user_id IS NULL THEN coalesce(greatest(u.verified_at, u.discord_named_at), u.created_at)
              WHEN r.user_id IS NULL THEN s.created_at
              ELSE r.created_at END AS since,
         CASE WHEN coalesce(u.discord_username, '') <> '' THEN u.discord_username
              WHEN u.name <> '' THEN u.name ELSE 'Player' END AS display_name
    FROM users u
    LEFT JOIN stats s ON s.user_id = u.id
    LEFT JOIN registrations r ON r.user_id = u.id AND r.tournament_id = $1
   WHERE u.deleted_at IS NULL AND u.created_at >= $2 AND NOT (coalesce(u.email, '') = ANY($3))
), steps AS (
  SELECT c.*, email_verified AS s_verified,
         email_verified AND named AS s_discord,
         email_verified AND named AND stats_at IS NOT NULL AS s_stats,
         email_verified AND named AND stats_at IS NOT NULL AND reg_at IS NOT NULL AS s_registered,
         email_verified AND named AND stats_at IS NOT NULL AND reg_at IS NOT NULL AND checked_in_at IS NOT NULL AS s_checked_in
    FROM cohort c
)`

// seconds is the time from a to b in seconds, never below zero (a Discord
// name typed at sign-up comes before the e-mail is verified).
func seconds(from, to string) string {
	return `extract(epoch FROM greatest(interval '0', ` + to + ` - ` + from + `))`
}

func median(expr, filter string) string {
	return `percentile_cont(0.5) WITHIN GROUP (ORDER BY ` + expr + `) FILTER (WHERE ` + filter + `)`
}

var funnelSQL = cohortSQL + `
SELECT count(*),
       count(*) FILTER (WHERE s_verified),
       count(*) FILTER (WHERE s_discord),
       count(*) FILTER (WHERE s_discord AND discord_verified),
       count(*) FILTER (WHERE s_stats),
       count(*) FILTER (WHERE s_registered),
       count(*) FILTER (WHERE s_registered AND reg_status = 'waitlisted'),
       count(*) FILTER (WHERE s_checked_in),
       count(*) FILTER (WHERE stuck_at = 'verified'),
       count(*) FILTER (WHERE stuck_at = 'discord'),
       count(*) FILTER (WHERE stuck_at = 'stats'),
       count(*) FILTER (WHERE stuck_at = 'registered'),
       count(*) FILTER (WHERE stuck_at = 'checked_in'),
       ` + median(seconds("created_at", "verified_at"), "s_verified AND verified_at IS NOT NULL") + `,
       ` + median(seconds("coalesce(verified_at, created_at)", "discord_at"), "s_discord AND discord_at IS NOT NULL") + `,
       ` + median(seconds("coalesce(greatest(verified_at, discord_at), created_at)", "stats_at"), "s_stats") + `,
       ` + median(seconds("stats_at", "reg_at"), "s_registered") + `,
       ` + median(seconds("reg_at", "checked_in_at"), "s_checked_in") + `
  FROM steps`

var statsSourcesSQL = cohortSQL + `
SELECT source, count(*) FROM steps WHERE s_stats GROUP BY source`

func funnelArgs(q metrics.FunnelQuery) []any {
	orgs := q.Organisers
	if orgs == nil {
		orgs = []string{}
	}
	return []any{q.TournamentID, q.Since, orgs, q.CheckinOpened}
}

// Funnel implements metrics.Store.
func (s Metrics) Funnel(ctx context.Context, q metrics.FunnelQuery) (metrics.Funnel, error) {
	var (
		c [13]int
		m [5]*float64
	)
	dest := make([]any, 0, len(c)+len(m))
	for i := range c {
		dest = append(dest, &c[i])
	}
	for i := range m {
		dest = append(dest, &m[i])
	}
	db := s.DB.q(ctx)
	if err := db.QueryRow(ctx, funnelSQL, funnelArgs(q)...).Scan(dest...); err != nil {
		return metrics.Funnel{}, unavailable(err)
	}
	sources := map[string]int{}
	rows, err := db.Query(ctx, statsSourcesSQL, funnelArgs(q)...)
	if err != nil {
		return metrics.Funnel{}, unavailable(err)
	}
	for rows.Next() {
		var (
			src string
			n   int
		)
		if err := rows.Scan(&src, &n); err != nil {
			rows.Close()
			return metrics.Funnel{}, unavailable(err)
		}
		sources[src] = n
	}
	if err := rows.Err(); err != nil {
		return metrics.Funnel{}, unavailable(err)
	}
	var deleted int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM users WHERE deleted_at IS NOT NULL AND created_at >= $1`, q.Since).Scan(&deleted); err != nil {
		return metrics.Funnel{}, unavailable(err)
	}
	signedUp, verified, named, proven, stats, registered, waitlisted, checkedIn := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
	steps := []metrics.FunnelStep{
		{Step: metrics.StepSignedUp, Count: signedUp},
		{Step: metrics.StepVerified, Count: verified, Stuck: c[8], MedianSeconds: m[0]},
		{Step: metrics.StepDiscord, Count: named, Stuck: c[9], MedianSeconds: m[1],
			Detail: map[string]int{"typed": named - proven, "proven": proven}},
		{Step: metrics.StepStats, Count: stats, Stuck: c[10], MedianSeconds: m[2], Detail: sources},
		{Step: metrics.StepRegistered, Count: registered, Stuck: c[11], MedianSeconds: m[3],
			Detail: map[string]int{"confirmed": registered - waitlisted, "waitlisted": waitlisted}},
		{Step: metrics.StepCheckedIn, Count: checkedIn, Stuck: c[12], MedianSeconds: m[4]},
	}
	for i := range steps {
		steps[i].Label = metrics.StepLabels[i].Label
		steps[i].Open = steps[i].Step != metrics.StepCheckedIn || q.CheckinOpened
		if steps[i].MedianSeconds != nil {
			v := float64(int64(*steps[i].MedianSeconds + .5))
			steps[i].MedianSeconds = &v
		}
	}
	return metrics.Funnel{Steps: steps, Deleted: deleted}, nil
}

// funnelDaysSQL counts the steps taken each day (UTC) since $5 by every
// player's account, whenever it was made.
var funnelDaysSQL = cohortSQL + `
SELECT to_char(date_trunc('day', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, step, count(*)
  FROM (SELECT 'signed_up' AS step, created_at AS at FROM cohort
        UNION ALL SELECT 'verified', verified_at FROM cohort
        UNION ALL SELECT 'discord', discord_at FROM cohort
        UNION ALL SELECT 'stats', stats_at FROM cohort
        UNION ALL SELECT 'registered', reg_at FROM cohort
        UNION ALL SELECT 'checked_in', checked_in_at FROM cohort) e
 WHERE at >= $5
 GROUP BY 1, 2
 ORDER BY 1`

// MaxFunnelDays bounds the days a read lists (the latest).
const MaxFunnelDays = 400

// FunnelDays implements metrics.Store.
func (s Metrics) FunnelDays(ctx context.Context, q metrics.FunnelQuery) ([]metrics.FunnelDay, error) {
	args := funnelArgs(q)
	args[1] = time.Time{} // every account; the steps are counted from q.Since
	rows, err := s.DB.q(ctx).Query(ctx, funnelDaysSQL, append(args, q.Since)...)
	if err != nil {
		return nil, unavailable(err)
	}
	out := []metrics.FunnelDay{}
	for rows.Next() {
		var (
			day, step string
			n         int
		)
		if err := rows.Scan(&day, &step, &n); err != nil {
			rows.Close()
			return nil, unavailable(err)
		}
		if len(out) == 0 || out[len(out)-1].Day != day {
			out = append(out, metrics.FunnelDay{Day: day, Steps: map[string]int{}})
		}
		out[len(out)-1].Steps[step] = n
	}
	if len(out) > MaxFunnelDays {
		out = out[len(out)-MaxFunnelDays:]
	}
	return out, unavailable(rows.Err())
}

// reachSQL is, for each account of the cohort, the channels a reminder
// would take: e-mail to a verified address whose owner did not turn
// reminders off, push to the browsers and a DM to a proven Discord account
// when they chose reminders there.
const reachSQL = `,
reach AS (
  SELECT c.*, CASE WHEN u.email_verified AND u.email IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM reminder_optouts o WHERE o.user_id = c.id)
                   THEN u.email ELSE '' END AS mail_to,
         array_remove(ARRAY[
           CASE WHEN u.email_verified AND u.email IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM reminder_optouts o WHERE o.user_id = c.id) THEN 'email' END,
           CASE WHEN EXISTS (SELECT 1 FROM notification_choices n WHERE n.user_id = c.id AND n.kind = 'reminder' AND n.channel = 'push')
                 AND EXISTS (SELECT 1 FROM push_devices d WHERE d.user_id = c.id) THEN 'push' END,
           CASE WHEN u.discord_id IS NOT NULL AND EXISTS (SELECT 1 FROM notification_choices n
                 WHERE n.user_id = c.id AND n.kind = 'reminder' AND n.channel = 'discord') THEN 'discord' END], NULL) AS channels,
         (SELECT max(sent_at) FROM reminders m WHERE m.user_id = c.id AND m.step = c.stuck_at) AS reminded_at
    FROM cohort c JOIN users u ON u.id = c.id
)`

var stuckSQL = cohortSQL + reachSQL + `
SELECT id, display_name, discord_verified, since, channels, reminded_at, stuck_at, mail_to
  FROM reach WHERE stuck_at = $5 ORDER BY since, id LIMIT $6`

var reminderTargetsSQL = cohortSQL + reachSQL + `
SELECT id, display_name, discord_verified, since, channels, reminded_at, stuck_at, mail_to
  FROM reach WHERE id = ANY($5) ORDER BY id`

func scanTargets(rows pgx.Rows) ([]metrics.ReminderTarget, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.ReminderTarget, error) {
		var t metrics.ReminderTarget
		err := row.Scan(&t.UserID, &t.Name, &t.DiscordVerified, &t.Since, &t.Reach, &t.RemindedAt, &t.StuckAt, &t.Email)
		if t.Reach == nil {
			t.Reach = []string{}
		}
		return t, err
	})
}

// Stuck implements metrics.Store: the players stopped before step, the
// longest stopped first.
func (s Metrics) Stuck(ctx context.Context, q metrics.FunnelQuery, step string, limit int) ([]metrics.StuckPlayer, error) {
	rows, err := s.DB.q(ctx).Query(ctx, stuckSQL, append(funnelArgs(q), step, limit)...)
	if err != nil {
		return nil, unavailable(err)
	}
	targets, err := scanTargets(rows)
	out := make([]metrics.StuckPlayer, len(targets))
	for i, t := range targets {
		out[i] = t.StuckPlayer
	}
	return out, unavailable(err)
}

// ReminderTargets implements metrics.ReminderStore: the accounts of ids,
// with where they stand; an id that is no player's is left out.
func (s Metrics) ReminderTargets(ctx context.Context, q metrics.FunnelQuery, ids []int64) ([]metrics.ReminderTarget, error) {
	rows, err := s.DB.q(ctx).Query(ctx, reminderTargetsSQL, append(funnelArgs(q), ids)...)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := scanTargets(rows)
	return out, unavailable(err)
}

// AddReminder implements metrics.ReminderStore.
func (s Metrics) AddReminder(ctx context.Context, userID int64, step string, tournamentID, by int64, channels []string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO reminders (user_id, step, tournament_id, sent_by, channels)
		VALUES ($1, $2, nullif($3, 0), nullif($4, 0), $5)`, userID, step, tournamentID, by, channels)
	return unavailable(err)
}

// Participants implements metrics.Store.
func (s Metrics) Participants(ctx context.Context, tournamentID int64) (int, error) {
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FROM registrations WHERE tournament_id = $1 AND status = 'confirmed'`,
		tournamentID).Scan(&n)
	return n, unavailable(err)
}

// Players implements metrics.Store.
func (s Metrics) Players(ctx context.Context, organisers []string) (int, error) {
	if organisers == nil {
		organisers = []string{}
	}
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FROM users
		WHERE email_verified AND deleted_at IS NULL AND NOT (coalesce(email, '') = ANY($1))`, organisers).Scan(&n)
	return n, unavailable(err)
}
