package app

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/tournament"
)

// countdowns closes every auction lot at its deadline on every instance
// (and ends a captain's turn to nominate at its own),
// not only on the one that took its last bid: that instance may die with
// its timer (kill -9), and the lot's river job, the backstop, is made
// workable by river's leader only, up to its lease (15 s) late when the
// leader died too. It follows the lots' deadlines on the hub (a lot opened,
// a bid that moved the deadline); the instances race at the deadline, the
// lot's row lock lets one close it and the others find it closed
// (auction.Service.CloseDue).
type countdowns struct {
	feed        core.Feed
	tournaments *tournament.Service
	auction     *auction.Service
	log         *slog.Logger

	mu     sync.Mutex
	timers map[int64]*time.Timer // by lot, and by -tournament for a turn
	ids    map[string]int64      // tournament name -> id
	stop   context.CancelFunc
	done   chan struct{}
}

// start follows topic teams until close.
func (c *countdowns) start(ctx context.Context) {
	ctx, c.stop = context.WithCancel(context.WithoutCancel(ctx))
	c.timers, c.ids, c.done = map[int64]*time.Timer{}, map[string]int64{}, make(chan struct{})
	feed := c.feed.Follow(ctx, core.TopicTeams)
	go func() {
		defer close(c.done)
		for d := range feed {
			if !d.Resync {
				c.heard(ctx, d)
			}
		}
	}()
}

// heard arms the countdown an event tells of: a lot opened, a bid (which
// may have moved the deadline), a resume (the lot's new deadline) or a
// turn to nominate; a pause stops them.
func (c *countdowns) heard(ctx context.Context, d core.Delivery) {
	var v struct {
		Tournament string        `json:"tournament"`
		Lot        *auction.Lot  `json:"lot"`    // auction.lot, and the flow's events
		LotID      int64         `json:"lot_id"` // auction.bid
		EndsAt     time.Time     `json:"ends_at"`
		Flow       *auction.Flow `json:"flow"` // auction.paused, auction.resumed, auction.turn
	}
	switch d.Event {
	case auction.EventLot, auction.EventBid, auction.EventPaused, auction.EventResumed, auction.EventTurn:
	default:
		return
	}
	if json.Unmarshal(d.Data, &v) != nil {
		return
	}
	tid, err := c.tournamentID(ctx, v.Tournament)
	if err != nil {
		return // the river jobs close the lot and end the turn
	}
	if v.Flow != nil {
		c.turn(ctx, tid, *v.Flow)
	}
	if v.Lot != nil {
		v.LotID, v.EndsAt = v.Lot.ID, v.Lot.EndsAt
	}
	if v.LotID == 0 || v.EndsAt.IsZero() {
		return
	}
	if d.Event == auction.EventPaused || v.Lot != nil && v.Lot.PausedLeftMs != nil {
		c.disarm(v.LotID)
		return
	}
	lot := v.LotID
	c.arm(ctx, lot, v.EndsAt, func(ctx context.Context) error { return c.auction.CloseDue(ctx, tid, lot) })
}

// turn arms the end of a running turn to nominate, or stops it (a pause,
// a lot opened, the turns turned off).
func (c *countdowns) turn(ctx context.Context, tid int64, f auction.Flow) {
	key := -tid // the turns' timers share the map with the lots' (lot ids are positive)
	if f.Paused || f.Turn == "" || f.TurnEndsAt == nil {
		c.disarm(key)
		return
	}
	job := auction.NominateTurn{Tournament: tid, Team: f.Turn}
	c.arm(ctx, key, *f.TurnEndsAt, func(ctx context.Context) error { return c.auction.NominateDue(ctx, job) })
}

// arm runs due at at, in place of what key had armed.
func (c *countdowns) arm(ctx context.Context, key int64, at time.Time, due func(context.Context) error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.timers[key]; t != nil {
		t.Stop()
	}
	c.timers[key] = time.AfterFunc(time.Until(at)+20*time.Millisecond, func() {
		c.mu.Lock()
		delete(c.timers, key)
		c.mu.Unlock()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := due(cctx); err != nil && ctx.Err() == nil {
			c.log.Warn("an auction countdown failed at its deadline", slog.Int64("key", key), slog.Any("err", err))
		}
	})
}

func (c *countdowns) disarm(key int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.timers[key]; t != nil {
		t.Stop()
		delete(c.timers, key)
	}
}

func (c *countdowns) tournamentID(ctx context.Context, name string) (int64, error) {
	c.mu.Lock()
	id, ok := c.ids[name]
	c.mu.Unlock()
	if ok {
		return id, nil
	}
	t, err := c.tournaments.Find(ctx, name)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.ids[name] = t.ID
	c.mu.Unlock()
	return t.ID, nil
}

// close stops following and cancels the timers (the jobs remain).
func (c *countdowns) close() {
	c.stop()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, t := range c.timers {
		t.Stop()
		delete(c.timers, id)
	}
}
