package hub

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the hub's Prometheus series. Topic labels use the public
// names, so per-user topics all count as "user" and cardinality stays fixed.
type metrics struct {
	connections     prometheus.Gauge
	subscriptions   *prometheus.GaugeVec
	eventsIn        *prometheus.CounterVec
	eventsOut       *prometheus.CounterVec
	drops           prometheus.Counter
	slowCloses      prometheus.Counter
	resyncs         prometheus.Counter
	redisReconnects prometheus.Counter
	duplicates      prometheus.Counter
	perIPRefusals   prometheus.Counter
	historyReads    prometheus.Counter
	pageReads       prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "pitlane_hub_connections",
			Help: "Open websocket connections.",
		}),
		subscriptions: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "pitlane_hub_subscriptions",
			Help: "Current subscriptions per topic.",
		}, []string{"topic"}),
		eventsIn: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pitlane_hub_events_in_total",
			Help: "Events this instance received for fan-out.",
		}, []string{"topic"}),
		eventsOut: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pitlane_hub_events_out_total",
			Help: "Event frames queued to clients, replays included.",
		}, []string{"topic"}),
		drops: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_dropped_frames_total",
			Help: "Frames discarded because their connection was too slow or closing.",
		}),
		slowCloses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_slow_consumer_closes_total",
			Help: "Connections closed with 1013 because their send queue overflowed.",
		}),
		resyncs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_resyncs_total",
			Help: "Resync frames sent.",
		}),
		redisReconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_redis_reconnects_total",
			Help: "Times the Redis subscription was re-established after a loss.",
		}),
		duplicates: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_duplicate_deliveries_total",
			Help: "Outbox events delivered again (a relay retry) and skipped.",
		}),
		perIPRefusals: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_per_ip_refusals_total",
			Help: "Websocket upgrades refused (429) because their client address held MaxConnsPerIP connections.",
		}),
		historyReads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_history_reads_total",
			Help: "Reads of a topic's history for subscriptions; clients waiting on a topic share one.",
		}),
		pageReads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pitlane_hub_page_reads_total",
			Help: "Reads of a page sent in the resync frames of a mass resync; the clients that named a page share one.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.connections, m.subscriptions, m.eventsIn,
		m.eventsOut, m.drops, m.slowCloses, m.resyncs, m.redisReconnects, m.duplicates, m.perIPRefusals, m.historyReads, m.pageReads} {
		if err := reg.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if errors.As(err, &are) {
				return nil, errors.New("hub: metrics already registered; give each hub its own Registerer")
			}
			return nil, err
		}
	}
	return m, nil
}
