package streams

import (
	"context"
	"time"
)

// Poll is the reconciling read of who is live: it catches notifications
// that were lost (or never sent, on a server that cannot take webhooks),
// reads titles and viewers, and keeps the subscriptions asked for.
type Poll struct{}

// Kind implements core.Job.
func (Poll) Kind() string { return "streams.poll" }

// PollDue is Poll's work. The platform out of reach leaves every state as
// it was, unconfirmed (so shown as the last known one), and is no error:
// the next minute tries again.
func (s *Service) PollDue(ctx context.Context, _ Poll) error {
	if !s.On() {
		return nil
	}
	now := s.now()
	if err := s.Store.PruneMessages(ctx, now.Add(-time.Hour)); err != nil {
		return err
	}
	chans, err := s.Store.Channels(ctx, PlatformTwitch)
	if err != nil || len(chans) == 0 {
		return err
	}
	ids := make([]string, len(chans))
	for i, c := range chans {
		ids[i] = c.ChannelID
	}
	lives, err := s.Platform.Streams(ctx, ids)
	if err != nil {
		s.Log.Warn("streams: the platform is out of reach; the last known states stay", "err", err)
		return nil
	}
	live := make(map[string]Live, len(lives))
	for _, l := range lives {
		live[l.ChannelID] = l
	}
	confirmed := make([]int64, 0, len(chans))
	for _, c := range chans {
		next, changed := reconcile(c, live, now)
		if !changed {
			confirmed = append(confirmed, c.ID)
			continue
		}
		if err := s.Tx.Transact(ctx, func(ctx context.Context) error {
			if err := s.Store.SetState(ctx, c.ID, next); err != nil {
				return err
			}
			return s.emit(ctx, c.ID)
		}); err != nil {
			return err
		}
	}
	if err := s.Store.Confirm(ctx, confirmed); err != nil {
		return err
	}
	return s.subscribe(ctx, now)
}

// reconcile is a channel's state after a poll, and whether it changed. A
// channel the platform does not list yet within OnlineGrace of its online
// notification stays live: the list lags behind the pushes.
func reconcile(c Channel, live map[string]Live, now time.Time) (State, bool) {
	l, ok := live[c.ChannelID]
	if !ok {
		if !c.State.Live || now.Sub(c.ChangedAt) < OnlineGrace {
			return c.State, false
		}
		return State{Title: c.State.Title}, true
	}
	started := l.StartedAt
	next := State{Live: true, Title: l.Title, Viewers: l.Viewers, Thumbnail: l.Thumbnail, StartedAt: &started}
	cur := c.State
	same := cur.Live && cur.Title == next.Title && cur.Viewers == next.Viewers && cur.Thumbnail == next.Thumbnail &&
		cur.StartedAt != nil && cur.StartedAt.Equal(started)
	return next, !same
}

// subscribe asks for the pushes of channels that lack them; a refusal puts
// that channel off for SubscribeBackoff.
func (s *Service) subscribe(ctx context.Context, now time.Time) error {
	if !s.Platform.CanSubscribe() {
		return nil
	}
	chans, err := s.Store.Unsubscribed(ctx, PlatformTwitch, []string{TypeOnline, TypeOffline}, now)
	if err != nil {
		return err
	}
	for _, c := range chans {
		subs, err := s.Platform.Subscribe(ctx, c.ChannelID)
		if err != nil {
			s.Log.Warn("streams: subscribing", "channel", c.Login, "err", err)
			if err := s.Store.RefuseSubscriptions(ctx, c.ID, now.Add(SubscribeBackoff)); err != nil {
				return err
			}
			continue
		}
		if err := s.Store.SaveSubscriptions(ctx, c.ID, subs); err != nil {
			return err
		}
	}
	return nil
}
