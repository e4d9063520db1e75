package metrics

import (
	"context"
	"time"
)

// Instance is one serving instance as it last wrote itself down (every ten
// seconds): what its hub held.
type Instance struct {
	ID              string         `json:"id"`
	Host            string         `json:"host"`
	StartedAt       time.Time      `json:"started_at"`
	SeenAt          time.Time      `json:"seen_at"`
	Up              bool           `json:"up"` // seen within InstanceStale
	Connections     int            `json:"connections"`
	Subscriptions   map[string]int `json:"subscriptions"`
	EventsInPerSec  float64        `json:"events_in_per_second"`
	FramesOutPerSec float64        `json:"frames_out_per_second"`
	SlowCloses      int64          `json:"slow_closes"`
}

// InstanceStale is how long after its last beat an instance counts as gone.
const InstanceStale = 30 * time.Second

// Live is the night's live view: the spectators every instance holds, the
// events committed and the frames sent a second, the outbox relay's lag
// (commit to the live layer), and the tournament's lots with their bids.
type Live struct {
	Spectators    int            `json:"spectators"`
	Subscriptions map[string]int `json:"subscriptions"`
	Instances     []Instance     `json:"instances"`
	EventsPerSec  float64        `json:"events_per_second"`
	FramesPerSec  float64        `json:"frames_per_second"`
	RelayLagP50Ms *float64       `json:"relay_lag_p50_ms"`
	RelayLagP95Ms *float64       `json:"relay_lag_p95_ms"`
	PendingEvents int            `json:"pending_events"`
	SlowCloses    int64          `json:"slow_closes"`
	Lots          []LotBids      `json:"lots"`
	BidsPerLot    *float64       `json:"bids_per_lot"`
}

// LotBids is one auction lot and the bids it drew.
type LotBids struct {
	ID         int64      `json:"id"`
	Player     string     `json:"player"`
	Status     string     `json:"status"`
	Bids       int        `json:"bids"`
	HighAmount *int       `json:"high_amount"`
	OpenedAt   time.Time  `json:"opened_at"`
	ClosedAt   *time.Time `json:"closed_at"`
}

// MaxLotsListed bounds the lots the live view lists (the latest).
const MaxLotsListed = 20

// Uptime is the share of the window's minutes in which an instance beat,
// counted from the first beat (a site is not down before it first ran).
type Uptime struct {
	Ratio     *float64   `json:"ratio"`
	MinutesUp int        `json:"minutes_up"`
	Minutes   int        `json:"minutes"`
	Source    string     `json:"source"` // "heartbeat"
	Instances []Instance `json:"instances"`
}

func (s *Service) uptime(ctx context.Context, since, now time.Time) (Uptime, error) {
	out := Uptime{Source: "heartbeat"}
	up, first, err := s.Store.MinutesUp(ctx, since)
	if err != nil {
		return out, err
	}
	if out.Instances, err = s.Store.Instances(ctx); err != nil {
		return out, err
	}
	if first.IsZero() {
		return out, nil
	}
	from := since
	if first.After(from) {
		from = first
	}
	// Whole minutes from the first counted to this one, both included.
	minutes := int(now.Truncate(time.Minute).Sub(from.Truncate(time.Minute))/time.Minute) + 1
	out.MinutesUp, out.Minutes = min(up, minutes), minutes
	r := float64(out.MinutesUp) / float64(minutes)
	out.Ratio = &r
	return out, nil
}
