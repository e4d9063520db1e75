// The jobs: from an event in the outbox to deliveries, and each delivery sent.

package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Fanout is the job that reads one outbox event and writes its deliveries.
type Fanout struct {
	Topic string `json:"topic"`
	Seq   int64  `json:"seq"`
}

// Kind implements core.Job.
func (Fanout) Kind() string { return "notify.fanout" }

// Send is the job that sends one delivery.
type Send struct {
	Delivery int64 `json:"delivery"`
}

// Kind implements core.Job.
func (Send) Kind() string { return "notify.send" }

// Outbox records events as its inner outbox does and, for an event a
// player may hear of, schedules its Fanout in the same transaction: the
// job exists exactly when the event does.
type Outbox struct {
	core.Outbox
	Jobs core.Scheduler
}

// Emit implements core.Outbox.
func (o Outbox) Emit(ctx context.Context, topic, event string, data any) (int64, error) {
	seq, err := o.Outbox.Emit(ctx, topic, event, data)
	if err != nil || !Notifies(event) || o.Jobs == nil {
		return seq, err
	}
	return seq, o.Jobs.Schedule(ctx, Fanout{Topic: topic, Seq: seq}, time.Time{})
}

// FanoutDue writes the deliveries of job's event: one per player, channel
// they chose for its kind, and device; a delivery written before (the job
// run again, or another event telling of the same thing) is not written
// again, and only a new one is sent.
func (s *Service) FanoutDue(ctx context.Context, job Fanout) error {
	ev, ok, err := s.Store.Event(ctx, job.Topic, job.Seq)
	if err != nil || !ok {
		return err
	}
	notices, err := Derive(ctx, ev, s.Directory)
	if err != nil || len(notices) == 0 {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		for _, n := range notices {
			for _, user := range n.Users {
				if _, err := s.deliver(ctx, n, user); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Remind writes an organiser's reminder to user on the channels they chose
// for reminders, in ctx's transaction, and names those channels.
func (s *Service) Remind(ctx context.Context, user int64, key, title, body, path string) ([]string, error) {
	return s.deliver(ctx, Notice{Key: key, Kind: KindReminder, Title: title, Body: body, Path: path}, user)
}

// Mention writes a room's mention of user to the channels they chose for
// mentions, in ctx's transaction; key names the message, so a mention is
// told once.
func (s *Service) Mention(ctx context.Context, user int64, key, title, body, path string) error {
	_, err := s.deliver(ctx, Notice{Key: key, Kind: KindMention, Title: title, Body: body, Path: path}, user)
	return err
}

// deliver writes n's deliveries to user and names their channels.
func (s *Service) deliver(ctx context.Context, n Notice, user int64) ([]string, error) {
	r, err := s.Store.Recipient(ctx, user, n.Kind)
	if err != nil {
		return nil, err
	}
	var targets [][2]string // channel, target
	if r.Push && s.Push != nil {
		for _, id := range r.Devices {
			targets = append(targets, [2]string{ChannelPush, strconv.FormatInt(id, 10)})
		}
	}
	if r.Discord && r.DiscordID != "" && s.DM != nil {
		targets = append(targets, [2]string{ChannelDiscord, r.DiscordID})
	}
	var channels []string
	for _, t := range targets {
		id, created, err := s.Store.AddDelivery(ctx, Delivery{Key: n.Key, UserID: user, Channel: t[0], Target: t[1],
			Kind: n.Kind, Title: n.Title, Body: n.Body, URL: strings.TrimRight(s.PublicURL, "/") + n.Path})
		if err != nil {
			return nil, err
		}
		if created {
			if err := s.Jobs.Schedule(ctx, Send{Delivery: id}, time.Time{}); err != nil {
				return nil, err
			}
		}
		if !slices.Contains(channels, t[0]) {
			channels = append(channels, t[0])
		}
	}
	return channels, nil
}

// SendDue sends a delivery not sent yet; an error has river try again
// later, with backoff. A push service that says the subscription is gone
// has the device forgotten. A delivery is marked sent after its channel
// took it: an instance dying between the two sends it again.
func (s *Service) SendDue(ctx context.Context, job Send) error {
	d, err := s.Store.Delivery(ctx, job.Delivery)
	if errs.KindOf(err) == errs.NotFound || (err == nil && d.SentAt != nil) {
		return nil
	}
	if err != nil {
		return err
	}
	m := Message{Kind: d.Kind, Title: d.Title, Body: d.Body, URL: d.URL, Tag: d.Key,
		Unsubscribe: s.UnsubscribeURL(d.UserID, d.Kind)}
	switch d.Channel {
	case ChannelPush:
		if s.Push == nil {
			return nil
		}
		id, _ := strconv.ParseInt(d.Target, 10, 64)
		dev, err := s.Store.Device(ctx, id)
		if errs.KindOf(err) == errs.NotFound {
			return nil // unsubscribed since
		}
		if err != nil {
			return err
		}
		if !s.allowed(dev.Endpoint) {
			// Kept before the endpoint rules were what they are, or on a
			// host no longer configured: never posted to, and no retry
			// would change that.
			return s.Store.DropDevice(ctx, dev.ID)
		}
		err = s.Push.Push(ctx, dev, m)
		if errors.Is(err, ErrGone) {
			return s.Store.DropDevice(ctx, dev.ID)
		}
		if err != nil {
			return fmt.Errorf("notify: push to device %d: %w", dev.ID, err)
		}
	case ChannelDiscord:
		if s.DM == nil {
			return nil
		}
		if err := s.DM.DM(ctx, d.Target, m); err != nil {
			return fmt.Errorf("notify: discord dm: %w", err)
		}
	}
	return s.Store.MarkSent(ctx, d.ID)
}
