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

// countdowns closes every auction lot at its deadline on every instance,
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
	timers map[int64]*time.Timer // by lot
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

// heard arms the countdown an event tells of: a lot opened, or a bid
// (which may have moved the deadline).
func (c *countdowns) heard(ctx context.Context, d core.Delivery) {
	var v struct {
		Tournament string       `json:"tournament"`
		Lot        *auction.Lot `json:"lot"`    // auction.lot
		LotID      int64        `json:"lot_id"` // auction.bid
		EndsAt     time.Time    `json:"ends_at"`
	}
	if d.Event != auction.EventLot && d.Event != auction.EventBid || json.Unmarshal(d.Data, &v) != nil {
		return
	}
	if v.Lot != nil {
		v.LotID, v.EndsAt = v.Lot.ID, v.Lot.EndsAt
	}
	if v.LotID == 0 || v.EndsAt.IsZero() {
		return
	}
	tid, err := c.tournamentID(ctx, v.Tournament)
	if err != nil {
		return // the lot's river job closes it
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.timers[v.LotID]; t != nil {
		t.Stop()
	}
	lot := v.LotID
	c.timers[lot] = time.AfterFunc(time.Until(v.EndsAt)+20*time.Millisecond, func() {
		c.mu.Lock()
		delete(c.timers, lot)
		c.mu.Unlock()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := c.auction.CloseDue(cctx, tid, lot); err != nil && ctx.Err() == nil {
			c.log.Warn("closing a lot on time failed", slog.Int64("lot", lot), slog.Any("err", err))
		}
	})
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
