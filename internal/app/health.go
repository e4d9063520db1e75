package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/postgres"
)

// The series an operator's alerts read besides the HTTP and hub ones
// (deploy/alerts.yml): whether the database and Redis answer, the outbox's
// backlog and the relay's lag, the job queue's failures.
var (
	postgresUp = prometheus.NewDesc("pitlane_postgres_up",
		"1 when PostgreSQL answered this scrape's query (within 2 s), else 0.", nil, nil)
	redisUp = prometheus.NewDesc("pitlane_redis_up",
		"1 when Redis answered this scrape's PING (within 2 s), else 0; absent without REDIS_URL.", nil, nil)
	outboxPending = prometheus.NewDesc("pitlane_outbox_pending_events",
		"Committed events the outbox relay has not handed to the live layer yet.", nil, nil)
	outboxOldest = prometheus.NewDesc("pitlane_outbox_oldest_pending_seconds",
		"Age of the oldest event waiting in the outbox (0 when none waits).", nil, nil)
	jobsByState = prometheus.NewDesc("pitlane_jobs",
		"Jobs in the queue by state: available (due now), retryable (failed, to be tried again), discarded (given up on in the last hour).",
		[]string{"state"}, nil)
)

// healthCollector asks PostgreSQL and Redis at each scrape. Every instance
// reports the database's backlog (the same figures): alerts take the max.
type healthCollector struct {
	db    *postgres.DB
	redis *redis.Client
}

func (c healthCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- postgresUp
	ch <- outboxPending
	ch <- outboxOldest
	ch <- jobsByState
	if c.redis != nil {
		ch <- redisUp
	}
}

func (c healthCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	b, err := c.db.Backlog(ctx)
	up := 1.0
	if err != nil {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(postgresUp, prometheus.GaugeValue, up)
	if err == nil {
		ch <- prometheus.MustNewConstMetric(outboxPending, prometheus.GaugeValue, float64(b.PendingEvents))
		ch <- prometheus.MustNewConstMetric(outboxOldest, prometheus.GaugeValue, b.OldestPending.Seconds())
		for state, n := range b.Jobs {
			ch <- prometheus.MustNewConstMetric(jobsByState, prometheus.GaugeValue, float64(n), state)
		}
	}
	if c.redis != nil {
		up := 1.0
		if err := c.redis.Ping(ctx).Err(); err != nil {
			up = 0
		}
		ch <- prometheus.MustNewConstMetric(redisUp, prometheus.GaugeValue, up)
	}
}

// workMetrics are the relay's lag and the jobs' outcomes, counted as they
// happen on this instance.
type workMetrics struct {
	relayLag prometheus.Histogram
	jobs     *prometheus.CounterVec
}

func newWorkMetrics(reg prometheus.Registerer) workMetrics {
	m := workMetrics{
		relayLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "pitlane_outbox_relay_lag_seconds",
			Help:    "Time from an event's commit to the outbox relay handing it to the live layer.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pitlane_jobs_finished_total",
			Help: "Jobs this instance ran, by kind and outcome (completed, or failed: retried with backoff, or given up).",
		}, []string{"kind", "outcome"}),
	}
	reg.MustRegister(m.relayLag, m.jobs)
	return m
}

func (m workMetrics) observeJob(kind string, failed bool) {
	outcome := "completed"
	if failed {
		outcome = "failed"
	}
	m.jobs.WithLabelValues(kind, outcome).Inc()
}
