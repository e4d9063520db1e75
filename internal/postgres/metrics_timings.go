package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/metrics"
)

// Timings are kept twice: per minute for two days (a window that starts
// within them is read from there) and per hour for 400 days.
const (
	minutesKept = "2 days"
	hoursKept   = "400 days"
)

// recent tells whether since is read from the per-minute rows.
func recent(since time.Time) bool { return time.Since(since) <= metrics.RecentKept }

const addRUMSQL = `
WITH v AS (SELECT route, metric, bucket, sum(n) AS n
             FROM unnest($3::text[], $4::text[], $5::int[], $6::bigint[]) AS v(route, metric, bucket, n)
            GROUP BY 1, 2, 3),
     m AS (INSERT INTO rum_minutes AS r (at, route, metric, bucket, n) SELECT $1, route, metric, bucket, n FROM v
           ON CONFLICT (at, route, metric, bucket) DO UPDATE SET n = r.n + EXCLUDED.n)
INSERT INTO rum_hours AS r (at, route, metric, bucket, n) SELECT $2, route, metric, bucket, n FROM v
    ON CONFLICT (at, route, metric, bucket) DO UPDATE SET n = r.n + EXCLUDED.n`

// AddRUM implements metrics.Store: the counts go to the minute's and the
// hour's rows in one statement.
func (s Metrics) AddRUM(ctx context.Context, at time.Time, counts []metrics.RUMCount) error {
	var (
		routes, names []string
		buckets       []int32
		ns            []int64
	)
	for _, c := range counts {
		routes, names = append(routes, c.Route), append(names, c.Metric)
		buckets, ns = append(buckets, int32(c.Bucket)), append(ns, c.N)
	}
	_, err := s.DB.q(ctx).Exec(ctx, addRUMSQL, at.UTC().Truncate(time.Minute), at.UTC().Truncate(time.Hour),
		routes, names, buckets, ns)
	return unavailable(err)
}

// RUM implements metrics.Store.
func (s Metrics) RUM(ctx context.Context, since time.Time) ([]metrics.RUMCount, error) {
	table, from := "rum_hours", since.UTC().Truncate(time.Hour)
	if recent(since) {
		table, from = "rum_minutes", since.UTC().Truncate(time.Minute)
	}
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT route, metric, bucket, sum(n)::bigint FROM `+table+`
		WHERE at >= $1 GROUP BY 1, 2, 3`, from)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.RUMCount, error) {
		var c metrics.RUMCount
		return c, row.Scan(&c.Route, &c.Metric, &c.Bucket, &c.N)
	})
	return out, unavailable(err)
}

// stretch is the SQL of a chart's stretch of res over the column at, and the
// table it is read from.
func stretch(since time.Time, res metrics.Resolution, minutes, hours string) (expr, table string) {
	table = hours
	if recent(since) {
		table = minutes
	}
	switch res {
	case metrics.ByMinute:
		return "at", table
	case metrics.ByHour:
		return "date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'", table
	}
	return "date_trunc('day', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'", table
}

// RUMSeries implements metrics.Store.
func (s Metrics) RUMSeries(ctx context.Context, since time.Time, res metrics.Resolution) ([]metrics.TimedCount, error) {
	expr, table := stretch(since, res, "rum_minutes", "rum_hours")
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+expr+` AS t, bucket, sum(n)::bigint FROM `+table+`
		WHERE at >= $1 AND metric = 'LCP' GROUP BY 1, 2 ORDER BY 1, 2`, since.UTC().Truncate(time.Minute))
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.TimedCount, error) {
		var c metrics.TimedCount
		return c, row.Scan(&c.At, &c.Bucket, &c.N)
	})
	return out, unavailable(err)
}

const addAPISQL = `
WITH v AS (SELECT * FROM unnest($4::text[], $5::bigint[], $6::bigint[], $7::text[]) AS v(route, requests, errors, buckets)),
     m AS (INSERT INTO api_minutes AS a (at, instance, route, requests, errors, buckets)
           SELECT $1, $3, route, requests, errors, buckets::bigint[] FROM v
           ON CONFLICT (at, instance, route) DO UPDATE SET requests = a.requests + EXCLUDED.requests,
              errors = a.errors + EXCLUDED.errors,
              buckets = (SELECT array_agg(x + y ORDER BY i) FROM unnest(a.buckets, EXCLUDED.buckets) WITH ORDINALITY AS u(x, y, i)))
INSERT INTO api_hours AS a (at, instance, route, requests, errors, buckets)
SELECT $2, $3, route, requests, errors, buckets::bigint[] FROM v
    ON CONFLICT (at, instance, route) DO UPDATE SET requests = a.requests + EXCLUDED.requests,
       errors = a.errors + EXCLUDED.errors,
       buckets = (SELECT array_agg(x + y ORDER BY i) FROM unnest(a.buckets, EXCLUDED.buckets) WITH ORDINALITY AS u(x, y, i))`

// AddAPI implements metrics.RecorderStore.
func (s Metrics) AddAPI(ctx context.Context, instance string, at time.Time, rows []metrics.APIRow) error {
	var (
		routes          []string
		requests, fails []int64
		buckets         []string
	)
	for _, r := range rows {
		b, _ := json.Marshal(r.Buckets)
		routes, requests, fails = append(routes, r.Route), append(requests, r.Requests), append(fails, r.Errors)
		buckets = append(buckets, "{"+string(b[1:len(b)-1])+"}")
	}
	_, err := s.DB.q(ctx).Exec(ctx, addAPISQL, at.UTC().Truncate(time.Minute), at.UTC().Truncate(time.Hour), instance,
		routes, requests, fails, buckets)
	return unavailable(err)
}

// sumBucketsSQL adds the rows of table since $1 up by key (a column, or a
// stretch of time): the requests, the errors and the histogram's counts,
// bucket by bucket. Ordered by key.
func sumBucketsSQL(key, table string) string {
	return `
WITH t AS (SELECT ` + key + ` AS k, requests, errors, buckets FROM ` + table + ` WHERE at >= $1),
     b AS (SELECT k, i, sum(x)::bigint AS n FROM t, unnest(t.buckets) WITH ORDINALITY AS u(x, i) GROUP BY k, i),
     s AS (SELECT k, sum(requests)::bigint AS requests, sum(errors)::bigint AS errors FROM t GROUP BY k)
SELECT s.k, s.requests, s.errors, (SELECT array_agg(b.n ORDER BY b.i) FROM b WHERE b.k = s.k)
  FROM s ORDER BY s.k`
}

// API implements metrics.Store: each route's sums over every instance.
func (s Metrics) API(ctx context.Context, since time.Time) ([]metrics.APIRow, error) {
	table, from := "api_hours", since.UTC().Truncate(time.Hour)
	if recent(since) {
		table, from = "api_minutes", since.UTC().Truncate(time.Minute)
	}
	rows, err := s.DB.q(ctx).Query(ctx, sumBucketsSQL("route", table), from)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.APIRow, error) {
		var r metrics.APIRow
		return r, row.Scan(&r.Route, &r.Requests, &r.Errors, &r.Buckets)
	})
	return out, unavailable(err)
}

// APISeries implements metrics.Store.
func (s Metrics) APISeries(ctx context.Context, since time.Time, res metrics.Resolution) ([]metrics.APIPoint, error) {
	expr, table := stretch(since, res, "api_minutes", "api_hours")
	rows, err := s.DB.q(ctx).Query(ctx, sumBucketsSQL(expr, table), since.UTC().Truncate(time.Minute))
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.APIPoint, error) {
		var p metrics.APIPoint
		return p, row.Scan(&p.At, &p.Requests, &p.Errors, &p.Buckets)
	})
	if out == nil {
		out = []metrics.APIPoint{}
	}
	return out, unavailable(err)
}

// Beat implements metrics.RecorderStore.
func (s Metrics) Beat(ctx context.Context, in metrics.Instance) error {
	subs, _ := json.Marshal(in.Subscriptions)
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO instances (id, host, started_at, seen_at, connections, subscriptions, events_in_per_sec,
			frames_out_per_sec, slow_closes) VALUES ($1, $2, $3, now(), $4, $5, $6, $7, $8)
		ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at, connections = EXCLUDED.connections,
			subscriptions = EXCLUDED.subscriptions, events_in_per_sec = EXCLUDED.events_in_per_sec,
			frames_out_per_sec = EXCLUDED.frames_out_per_sec, slow_closes = EXCLUDED.slow_closes`,
		in.ID, in.Host, in.StartedAt, in.Connections, subs, in.EventsInPerSec, in.FramesOutPerSec, in.SlowCloses)
	b.Queue(`INSERT INTO heartbeats (at) VALUES (date_trunc('minute', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') ON CONFLICT DO NOTHING`)
	return unavailable(s.DB.Pool.SendBatch(ctx, b).Close())
}

// Leave implements metrics.RecorderStore.
func (s Metrics) Leave(ctx context.Context, id string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM instances WHERE id = $1`, id)
	return unavailable(err)
}

// Instances implements metrics.Store: those seen in the last day.
func (s Metrics) Instances(ctx context.Context) ([]metrics.Instance, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT id, host, started_at, seen_at, seen_at > now() - make_interval(secs => $1), connections,
			subscriptions::text, events_in_per_sec, frames_out_per_sec, slow_closes
		FROM instances WHERE seen_at > now() - interval '1 day' ORDER BY started_at, id`, metrics.InstanceStale.Seconds())
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.Instance, error) {
		var (
			in   metrics.Instance
			subs string
		)
		err := row.Scan(&in.ID, &in.Host, &in.StartedAt, &in.SeenAt, &in.Up, &in.Connections, &subs,
			&in.EventsInPerSec, &in.FramesOutPerSec, &in.SlowCloses)
		if err == nil {
			err = json.Unmarshal([]byte(subs), &in.Subscriptions)
		}
		return in, err
	})
	if out == nil {
		out = []metrics.Instance{}
	}
	return out, unavailable(err)
}

// MinutesUp implements metrics.Store.
func (s Metrics) MinutesUp(ctx context.Context, since time.Time) (int, time.Time, error) {
	var (
		n     int
		first *time.Time
	)
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT (SELECT count(*) FROM heartbeats WHERE at >= $1), (SELECT min(at) FROM heartbeats)`,
		since.UTC().Truncate(time.Minute)).Scan(&n, &first)
	if err != nil || first == nil {
		return n, time.Time{}, unavailable(err)
	}
	return n, *first, nil
}

// liveSQL is the outbox's last minutes: events published a second over the
// last minute, the relay's lag (commit to the live layer) over the last five,
// and the events not yet published.
const liveSQL = `
SELECT (SELECT count(*) FROM outbox WHERE published_at > now() - interval '1 minute') / 60.0,
       (SELECT percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - created_at) * 1000)
          FROM outbox WHERE published_at > now() - interval '5 minutes'),
       (SELECT count(*) FROM outbox WHERE published_at IS NULL)`

const lotsSQL = `
SELECT l.id, CASE WHEN coalesce(u.discord_username, '') <> '' THEN u.discord_username WHEN u.name <> '' THEN u.name ELSE 'Player' END,
       l.status, (SELECT count(*) FROM auction_bids b WHERE b.lot_id = l.id), l.high_amount, l.opened_at, l.closed_at
  FROM auction_lots l JOIN users u ON u.id = l.user_id
 WHERE l.tournament_id = $1 ORDER BY l.id DESC LIMIT $2`

// Live implements metrics.Store.
func (s Metrics) Live(ctx context.Context, tournamentID int64) (metrics.Live, error) {
	out := metrics.Live{Subscriptions: map[string]int{}, Lots: []metrics.LotBids{}}
	var err error
	if out.Instances, err = s.Instances(ctx); err != nil {
		return out, err
	}
	for _, in := range out.Instances {
		if !in.Up {
			continue
		}
		out.Spectators += in.Connections
		out.FramesPerSec += in.FramesOutPerSec
		out.SlowCloses += in.SlowCloses
		for topic, n := range in.Subscriptions {
			out.Subscriptions[topic] += n
		}
	}
	db := s.DB.q(ctx)
	var lag []float64
	if err := db.QueryRow(ctx, liveSQL).Scan(&out.EventsPerSec, &lag, &out.PendingEvents); err != nil {
		return out, unavailable(err)
	}
	if len(lag) == 2 {
		p50, p95 := float64(int64(lag[0]+.5)), float64(int64(lag[1]+.5))
		out.RelayLagP50Ms, out.RelayLagP95Ms = &p50, &p95
	}
	rows, err := db.Query(ctx, lotsSQL, tournamentID, metrics.MaxLotsListed)
	if err != nil {
		return out, unavailable(err)
	}
	lots, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (metrics.LotBids, error) {
		var l metrics.LotBids
		return l, row.Scan(&l.ID, &l.Player, &l.Status, &l.Bids, &l.HighAmount, &l.OpenedAt, &l.ClosedAt)
	})
	if err != nil {
		return out, unavailable(err)
	}
	out.Lots = append(out.Lots, lots...)
	var perLot *float64
	if err := db.QueryRow(ctx, `SELECT avg(n)::float8 FROM (SELECT count(b.id) AS n FROM auction_lots l
			LEFT JOIN auction_bids b ON b.lot_id = l.id WHERE l.tournament_id = $1 AND l.status IN ('sold', 'unsold')
			GROUP BY l.id) per_lot`, tournamentID).Scan(&perLot); err != nil {
		return out, unavailable(err)
	}
	if perLot != nil {
		v := float64(int64(*perLot*10+.5)) / 10
		out.BidsPerLot = &v
	}
	return out, nil
}

// PruneMetrics deletes what the dashboard no longer reads: per-minute
// timings after two days, hourly ones and heartbeats after 400 days, held
// readings after a day, instances gone a day, reminders after 400 days.
type PruneMetrics struct{}

// Kind implements core.Job.
func (PruneMetrics) Kind() string { return "metrics.prune" }

// Prune is PruneMetrics's work.
func (s Metrics) Prune(ctx context.Context, _ PruneMetrics) error {
	b := &pgx.Batch{}
	for _, t := range []string{"rum_minutes", "api_minutes"} {
		b.Queue(`DELETE FROM ` + t + ` WHERE at < now() - interval '` + minutesKept + `'`)
	}
	for _, t := range []string{"rum_hours", "api_hours", "heartbeats"} {
		b.Queue(`DELETE FROM ` + t + ` WHERE at < now() - interval '` + hoursKept + `'`)
	}
	b.Queue(`DELETE FROM stats_held WHERE at < now() - interval '1 day'`)
	b.Queue(`DELETE FROM instances WHERE seen_at < now() - interval '1 day'`)
	b.Queue(`DELETE FROM reminders WHERE sent_at < now() - interval '` + hoursKept + `'`)
	return unavailable(s.DB.Pool.SendBatch(ctx, b).Close())
}
