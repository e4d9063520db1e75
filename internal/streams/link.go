package streams

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// TokenLabel binds a channel's sealed tokens to it: a sealed value moved to
// another row does not open.
func TokenLabel(platform, channelID string) string {
	return "stream-tokens|" + platform + "|" + channelID
}

// StartLink begins the platform's OAuth2 flow for the signed-in player: the
// authorize URL and the state, which the browser keeps too (a cookie), so
// the flow ends only in the browser, and for the account, that started it.
func (s *Service) StartLink(ctx context.Context, a core.Actor, p string) (authURL, state string, err error) {
	if err := s.on(); err != nil {
		return "", "", err
	}
	if err := platform(p); err != nil {
		return "", "", err
	}
	if err := a.MustBeUser(); err != nil {
		return "", "", err
	}
	state, verifier := token(), token()+token()
	if err := s.Store.SaveState(ctx, s.stateMAC(state), a.UserID, p, verifier, StateTTL); err != nil {
		return "", "", err
	}
	return s.Platform.AuthCodeURL(state, verifier), state, nil
}

// FinishLink ends the flow: state must be the live one the browser holds,
// code the platform's. The channel the platform names becomes the player's.
func (s *Service) FinishLink(ctx context.Context, state, browserState, code string) (Stream, error) {
	if err := s.on(); err != nil {
		return Stream{}, err
	}
	if state == "" || len(state) > 128 || !hmac.Equal([]byte(state), []byte(browserState)) {
		return Stream{}, errs.E(errs.Invalid, MsgStateBad)
	}
	userID, p, verifier, err := s.Store.TakeState(ctx, s.stateMAC(state))
	if errs.KindOf(err) == errs.NotFound {
		return Stream{}, errs.E(errs.Invalid, MsgStateBad)
	} else if err != nil {
		return Stream{}, err
	}
	if code == "" || len(code) > 512 {
		return Stream{}, errs.E(errs.Unauthorized, MsgFailed)
	}
	id, tokens, err := s.Platform.Identify(ctx, code, verifier)
	if err != nil {
		s.Log.Warn("streams: identify failed", "user_id", userID, "err", err)
		if errs.KindOf(err) == errs.Upstream {
			return Stream{}, err
		}
		return Stream{}, errs.E(errs.Unauthorized, MsgFailed)
	}
	var st Stream
	var dropped []string
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		ch, replaced, err := s.Store.LinkChannel(ctx, userID, p, id, func(label string) []byte { return s.Sealer.Seal(tokens, label) })
		if err != nil {
			return err
		}
		a := core.Actor{UserID: userID, Name: id.DisplayName}
		data := map[string]any{"platform": p, "channel": ch.Login, "channel_id": ch.ChannelID}
		if replaced != nil {
			data["replaced"] = replaced.Login
		}
		if err := s.Audit.Record(ctx, a, ActionLinked, 0, userTarget(userID), data); err != nil {
			return err
		}
		if dropped, err = s.Store.Forget(ctx); err != nil {
			return err
		}
		if err := s.emit(ctx, ch.ID); err != nil {
			return err
		}
		st, err = s.Store.Stream(ctx, ch.ID, s.now())
		return err
	})
	if err != nil {
		return Stream{}, err
	}
	s.unsubscribe(ctx, dropped)
	// The channel's state and subscriptions come with the next poll.
	if err := s.Jobs.Schedule(ctx, Poll{}, s.now()); err != nil {
		s.Log.Warn("streams: scheduling a poll", "err", err)
	}
	return st, nil
}

// Unlink drops the player's channel on the platform, with its tokens.
func (s *Service) Unlink(ctx context.Context, a core.Actor, p string) error {
	if err := s.on(); err != nil {
		return err
	}
	if err := platform(p); err != nil {
		return err
	}
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.letGo(ctx, func(ctx context.Context) (Channel, error) {
		ch, err := s.Store.UnlinkChannel(ctx, a.UserID, p)
		if errs.KindOf(err) == errs.NotFound {
			return ch, errs.E(errs.NotFound, MsgNotLinked)
		}
		return ch, err
	}, func(ctx context.Context, ch Channel) error {
		return s.Audit.Record(ctx, a, ActionUnlinked, 0, userTarget(a.UserID),
			map[string]any{"platform": p, "channel": ch.Login, "channel_id": ch.ChannelID})
	})
}

// AddOfficial makes a channel one of the tournament's official casts.
func (s *Service) AddOfficial(ctx context.Context, a core.Actor, name, p, channel string) (Stream, error) {
	if err := s.on(); err != nil {
		return Stream{}, err
	}
	if err := platform(p); err != nil {
		return Stream{}, err
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Stream{}, err
	}
	if err := a.MustOrganise(t.ID); err != nil {
		return Stream{}, err
	}
	l, err := login(channel)
	if err != nil {
		return Stream{}, err
	}
	id, err := s.Platform.LookUp(ctx, l)
	if err != nil {
		return Stream{}, err
	}
	var st Stream
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		ch, added, err := s.Store.AddOfficial(ctx, t.ID, a.UserID, p, id)
		if err != nil {
			return err
		}
		if added {
			if err := s.Audit.Record(ctx, a, ActionOfficialAdded, t.ID, "channel "+ch.Login,
				map[string]any{"platform": p, "channel": ch.Login, "channel_id": ch.ChannelID}); err != nil {
				return err
			}
			if err := s.emit(ctx, ch.ID); err != nil {
				return err
			}
		}
		st, err = s.Store.Stream(ctx, ch.ID, s.now())
		return err
	})
	if err != nil {
		return Stream{}, err
	}
	if err := s.Jobs.Schedule(ctx, Poll{}, s.now()); err != nil {
		s.Log.Warn("streams: scheduling a poll", "err", err)
	}
	return st, nil
}

// RemoveOfficial drops a channel from the tournament's official casts.
func (s *Service) RemoveOfficial(ctx context.Context, a core.Actor, name, p, channel string) error {
	if err := s.on(); err != nil {
		return err
	}
	if err := platform(p); err != nil {
		return err
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return err
	}
	if err := a.MustOrganise(t.ID); err != nil {
		return err
	}
	l, err := login(channel)
	if err != nil {
		return err
	}
	return s.letGo(ctx, func(ctx context.Context) (Channel, error) {
		return s.Store.RemoveOfficial(ctx, t.ID, p, l)
	}, func(ctx context.Context, ch Channel) error {
		return s.Audit.Record(ctx, a, ActionOfficialRemoved, t.ID, "channel "+ch.Login,
			map[string]any{"platform": p, "channel": ch.Login, "channel_id": ch.ChannelID})
	})
}

// letGo is a player or a tournament letting go of a channel (take), with
// its audit entry (record), in one transaction: the streams topic hears of
// the channel as it stands after, or once more offline (the page drops it)
// when nothing follows it any longer and the store forgot it; then the
// forgotten channels' subscriptions are dropped at the platform.
func (s *Service) letGo(ctx context.Context, take func(context.Context) (Channel, error), record func(context.Context, Channel) error) error {
	var dropped []string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		ch, err := take(ctx)
		if err != nil {
			return err
		}
		if err := record(ctx, ch); err != nil {
			return err
		}
		if dropped, err = s.Store.Forget(ctx); err != nil {
			return err
		}
		st, err := s.Store.Stream(ctx, ch.ID, s.now())
		if errs.KindOf(err) == errs.NotFound {
			st, err = Stream{Channel: ch.Login, Platform: ch.Platform, DisplayName: ch.DisplayName}, nil
		}
		if err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicStreams, EventChanged, st)
		return err
	})
	if err != nil {
		return err
	}
	s.unsubscribe(ctx, dropped)
	return nil
}

// unsubscribe drops the platform's subscriptions of channels no longer
// followed; one that fails only costs notifications that are ignored.
func (s *Service) unsubscribe(ctx context.Context, ids []string) {
	for _, id := range ids {
		if id == "" {
			continue
		}
		if err := s.Platform.Unsubscribe(ctx, id); err != nil {
			s.Log.Warn("streams: dropping a subscription", "subscription", id, "err", err)
		}
	}
}

// userTarget names the player as the audit log's entries about an account
// do, so erasing the account finds them.
func userTarget(userID int64) string { return "user " + strconv.FormatInt(userID, 10) + " (stream)" }

func (s *Service) stateMAC(state string) []byte {
	m := hmac.New(sha256.New, s.StateKey)
	m.Write([]byte("stream-state|" + state))
	return m.Sum(nil)
}

func token() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
