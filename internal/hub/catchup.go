package hub

// resync tells the client to reload the topic and forgets the position,
// since seqs may restart.
func (c *client) resync(s *sub) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed {
		return
	}
	c.resyncLocked(s)
	s.last = -1
	if s.replaying {
		s.stale = true
	}
}

// lastSeq is the subscription's position, -1 if unknown or still replaying.
func (c *client) lastSeq(s *sub) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.replaying {
		return -1
	}
	return s.last
}

// catchUp brings a subscription up to cur after a Redis reconnect, with
// evs (contiguous, ending at cur) when they cover what it missed.
func (c *client) catchUp(s *sub, cur int64, all []event, failed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed {
		return
	}
	switch {
	case s.replaying:
		s.stale = true
		c.resyncLocked(s)
		return
	case failed:
		c.resyncLocked(s)
		s.last = -1
		return
	case s.last >= cur:
		// Up to date, or ahead of the store (its state was read after a
		// commit whose event is still on its way).
		return
	}
	evs, complete := cover(cur, all, s.last)
	switch {
	case s.last < 0 || !complete || !c.fitsLocked(len(evs), frameBytes(evs)):
		c.resyncLocked(s)
		s.last = cur
	default:
		n := 0
		for _, ev := range evs {
			if c.deliverLocked(s, ev) {
				n++
			}
		}
		c.h.metrics.eventsOut.WithLabelValues(s.public).Add(float64(n))
	}
}
