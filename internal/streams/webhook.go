package streams

import (
	"context"
	"net/http"

	"github.com/pitlane/pitlane/internal/errs"
)

// Answer is what a webhook request gets: Challenge, when set, is the body
// of a verification's answer (text/plain); otherwise an empty 204.
type Answer struct {
	Challenge string
	Ignored   string // why a message changed nothing, for the log
}

// Webhook takes one pushed message, whose signature and age the platform
// adapter checks before anything in it is read. A message seen before (by
// its id, recorded in the transaction of its effect) changes nothing, nor
// does one about a channel the site no longer follows.
func (s *Service) Webhook(ctx context.Context, header http.Header, body []byte) (Answer, error) {
	if err := s.on(); err != nil {
		return Answer{}, err
	}
	m, err := s.Platform.Verify(header, body, s.now())
	if err != nil {
		s.Log.Warn("streams: webhook refused", "err", err, "message_id", header.Get("Twitch-Eventsub-Message-Id"))
		return Answer{}, err
	}
	switch m.Kind {
	case MessageVerification:
		if err := s.Store.EnableSubscription(ctx, m.Subscription.ID); err != nil {
			return Answer{}, err
		}
		return Answer{Challenge: m.Challenge}, nil
	case MessageRevocation:
		s.Log.Warn("streams: subscription revoked", "subscription", m.Subscription.ID, "type", m.Subscription.Type,
			"reason", m.Subscription.Status)
		// The poll keeps the channel's state; it asks again for a
		// subscription later (SubscribeBackoff), should the channel still
		// be followed.
		return Answer{}, s.Store.DropSubscription(ctx, m.Subscription.ID, s.now().Add(SubscribeBackoff))
	case MessageNotification:
	default:
		return Answer{Ignored: "unknown message type"}, nil
	}
	var a Answer
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		first, err := s.Store.FirstSeen(ctx, m.ID)
		if err != nil {
			return err
		}
		if !first {
			a.Ignored = "seen before"
			return nil
		}
		ch, err := s.Store.FindChannel(ctx, PlatformTwitch, m.BroadcasterID)
		if errs.KindOf(err) == errs.NotFound {
			a.Ignored = "channel not followed"
			return nil
		} else if err != nil {
			return err
		}
		st := ch.State
		switch m.Subscription.Type {
		case TypeOnline:
			if st.Live {
				a.Ignored = "already live"
				return nil
			}
			started := m.StartedAt
			st = State{Live: true, Title: st.Title, StartedAt: &started}
		case TypeOffline:
			if !st.Live {
				a.Ignored = "already offline"
				return nil
			}
			st = State{Title: st.Title}
		default:
			a.Ignored = "unknown subscription type"
			return nil
		}
		if err := s.Store.SetState(ctx, ch.ID, st); err != nil {
			return err
		}
		if err := s.emit(ctx, ch.ID); err != nil {
			return err
		}
		if st.Live {
			// Title and viewers are not in the notification: a poll reads
			// them now rather than within the minute.
			return s.Jobs.Schedule(ctx, Poll{}, s.now())
		}
		return nil
	})
	if a.Ignored != "" {
		s.Log.Info("streams: webhook message ignored", "message_id", m.ID, "reason", a.Ignored)
	}
	return a, err
}
