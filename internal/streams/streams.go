// Package streams holds who is live: the channels the site follows on a
// streaming platform (a player's own, proven through the platform's OAuth2,
// and a tournament's official casts, added by its organisers), their live
// state as the platform pushes it (Twitch EventSub) and as a poll checks it
// every minute, and the stream.changed events on the public streams topic.
// The platform itself is an adapter (internal/twitch) behind Platform.
package streams

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// PlatformTwitch is the one platform so far.
const PlatformTwitch = "twitch"

// EventChanged is emitted on core.TopicStreams when a channel goes live,
// goes offline, or its title or viewers change; its data is the Stream.
const EventChanged = "stream.changed"

// Timing of the live state.
const (
	// PollEvery is how often the platform is asked who is live.
	PollEvery = time.Minute
	// StaleAfter is how old the last confirmation may be before a state
	// is shown as the last known one rather than the current one.
	StaleAfter = 3 * time.Minute
	// OnlineGrace is how long after a stream.online notification the poll
	// leaves the channel live even when the platform's list does not show
	// it yet (Helix lags behind EventSub).
	OnlineGrace = 2 * time.Minute
	// MaxMessageAge is the oldest webhook message taken.
	MaxMessageAge = 10 * time.Minute
	// StateTTL is how long a link flow may take.
	StateTTL = 10 * time.Minute
	// SubscribeBackoff is how long a refused subscription waits.
	SubscribeBackoff = time.Hour
)

// Audit actions of the feature.
const (
	ActionLinked          = "stream.channel_linked"
	ActionUnlinked        = "stream.channel_unlinked"
	ActionOfficialAdded   = "stream.official_added"
	ActionOfficialRemoved = "stream.official_removed"
)

// Messages.
const (
	MsgOff        = "Streams are not configured on this site."
	MsgStateBad   = "This channel link request is unknown or has expired. Please start again from your profile."
	MsgFailed     = "Twitch did not confirm the channel. Please try again."
	MsgTaken      = "This channel is already linked to another Pitlane account."
	MsgNotLinked  = "No channel of that platform is linked."
	MsgNoChannel  = "No such channel on Twitch."
	MsgBadChannel = "A Twitch channel name is 4 to 25 letters, digits or underscores."
	MsgUnknown    = "Unknown platform: only twitch is supported."
)

// Stream is a channel as the public list and the live event show it.
type Stream struct {
	Channel     string `json:"channel"` // the login, as in the channel's address
	Platform    string `json:"platform"`
	DisplayName string `json:"display_name"`
	Live        bool   `json:"live"`
	Title       string `json:"title"`
	Viewers     int    `json:"viewers"`
	// Thumbnail is the platform's preview picture, the facade of the player.
	Thumbnail string     `json:"thumbnail,omitempty"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	MatchID   *int64     `json:"match_id,omitempty"`
	PlayerID  *int64     `json:"player_id,omitempty"`
	// Official: a channel of a running tournament (the league's cast).
	Official bool `json:"official"`
	// Stale: the platform has not confirmed this state for StaleAfter;
	// it is the last known one. CheckedAt is the last confirmation.
	Stale     bool       `json:"stale"`
	CheckedAt *time.Time `json:"checked_at,omitempty"`
}

// Group is the stream's place on the streams page: the league's casts,
// then players in today's matches, then the rest.
func (s Stream) Group() int {
	switch {
	case s.Official:
		return 0
	case s.MatchID != nil:
		return 1
	}
	return 2
}

// Channel is a followed channel as the store keeps it.
type Channel struct {
	ID          int64
	Platform    string
	ChannelID   string // the platform's id
	Login       string
	DisplayName string
	UserID      int64 // 0: a league channel
	State       State
	ChangedAt   time.Time
}

// State is a channel's live state.
type State struct {
	Live      bool
	Title     string
	Viewers   int
	Thumbnail string
	StartedAt *time.Time
}

// Identity is an account on the platform, as the platform told it.
type Identity struct {
	ID          string
	Login       string
	DisplayName string
}

// Live is a live stream as the platform lists it.
type Live struct {
	ChannelID string
	Login     string
	Title     string
	Viewers   int
	Thumbnail string
	StartedAt time.Time
}

// Subscription is a push subscription the platform holds for a channel.
type Subscription struct {
	ID     string
	Type   string
	Status string
}

// Message kinds of a webhook.
const (
	MessageNotification = "notification"
	MessageVerification = "webhook_callback_verification"
	MessageRevocation   = "revocation"
)

// Notification types the site subscribes to.
const (
	TypeOnline  = "stream.online"
	TypeOffline = "stream.offline"
)

// Message is one checked webhook message.
type Message struct {
	ID        string
	Kind      string // Message*
	At        time.Time
	Challenge string // a verification's
	// Subscription is the one the message is about; its Status tells a
	// revocation's reason.
	Subscription Subscription
	// BroadcasterID and StartedAt are a notification's event.
	BroadcasterID string
	StartedAt     time.Time
}

// Platform is what the feature needs from the streaming platform.
type Platform interface {
	// AuthCodeURL is where a player proves a channel theirs (with PKCE).
	AuthCodeURL(state, verifier string) string
	// Identify spends code for the player's account and tokens.
	Identify(ctx context.Context, code, verifier string) (Identity, []byte, error)
	// LookUp finds a channel by its login (the app's token).
	LookUp(ctx context.Context, login string) (Identity, error)
	// Streams lists which of channel ids are live now (the app's token).
	Streams(ctx context.Context, ids []string) ([]Live, error)
	// Subscribe asks for pushed online and offline notifications of a
	// channel; Unsubscribe drops one (an unknown id is no error).
	Subscribe(ctx context.Context, channelID string) ([]Subscription, error)
	Unsubscribe(ctx context.Context, id string) error
	// CanSubscribe tells whether pushes can reach this server (a public
	// callback address); without it the poll alone keeps the state.
	CanSubscribe() bool
	// Verify checks a webhook's signature (in constant time) and age
	// before anything in it is read, then reads it.
	Verify(header http.Header, body []byte, now time.Time) (Message, error)
}

// Store keeps channels and their state.
type Store interface {
	SaveState(ctx context.Context, stateMAC []byte, userID int64, platform, verifier string, ttl time.Duration) error
	// TakeState spends a live state: NotFound when unknown, spent or expired.
	TakeState(ctx context.Context, stateMAC []byte) (userID int64, platform, verifier string, err error)
	// LinkChannel makes id the player's channel on platform, with its
	// sealed tokens (sealed under the label Seal names). Another player's
	// channel is a Conflict; a channel of the player's already on the
	// platform is replaced (returned as replaced).
	LinkChannel(ctx context.Context, userID int64, platform string, id Identity, seal func(label string) []byte) (ch Channel, replaced *Channel, err error)
	// UnlinkChannel drops the player's link and tokens: NotFound without one.
	UnlinkChannel(ctx context.Context, userID int64, platform string) (Channel, error)
	// AddOfficial makes the channel (followed from now on) an official one
	// of the tournament; added is false when it was already.
	AddOfficial(ctx context.Context, tournamentID, by int64, platform string, id Identity) (ch Channel, added bool, err error)
	// RemoveOfficial: NotFound when the login is not one of the tournament's.
	RemoveOfficial(ctx context.Context, tournamentID int64, platform, login string) (Channel, error)
	// Forget deletes channels that nobody links and no tournament names,
	// returning their subscriptions' ids.
	Forget(ctx context.Context) ([]string, error)
	// Channels are every followed channel of platform.
	Channels(ctx context.Context, platform string) ([]Channel, error)
	// FindChannel is the followed channel with the platform's id.
	FindChannel(ctx context.Context, platform, channelID string) (Channel, error)
	// SetState records a channel's state (ChangedAt moves when Live flips)
	// and confirms it as of now.
	SetState(ctx context.Context, id int64, st State) error
	// Confirm marks the channels' states as confirmed now.
	Confirm(ctx context.Context, ids []int64) error
	// Stream is one channel as the public list shows it.
	Stream(ctx context.Context, id int64, now time.Time) (Stream, error)
	// PlayerStreams are the channels the player linked.
	PlayerStreams(ctx context.Context, userID int64, now time.Time) ([]Stream, error)
	// Streams are the live channels and the running tournaments' official ones.
	Streams(ctx context.Context, now time.Time) ([]Stream, error)
	// FirstSeen records a webhook message id; false when it was seen before.
	FirstSeen(ctx context.Context, messageID string) (bool, error)
	PruneMessages(ctx context.Context, before time.Time) error
	// Unsubscribed are channels lacking a subscription of one of types
	// that may be asked for now.
	Unsubscribed(ctx context.Context, platform string, types []string, now time.Time) ([]Channel, error)
	SaveSubscriptions(ctx context.Context, channel int64, subs []Subscription) error
	// RefuseSubscriptions puts the channel's next try off until after.
	RefuseSubscriptions(ctx context.Context, channel int64, after time.Time) error
	// DropSubscription forgets one by its id (a revocation) and puts the
	// channel's next try off until after.
	DropSubscription(ctx context.Context, id string, after time.Time) error
	EnableSubscription(ctx context.Context, id string) error
}

// Tournaments finds a tournament by name.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Sealer keeps tokens encrypted at rest (auth.Sealer).
type Sealer interface {
	Seal(plain []byte, label string) []byte
}

// Service runs the feature. A nil Platform is the feature off.
type Service struct {
	Platform    Platform
	Store       Store
	Tournaments Tournaments
	Tx          core.Transactor
	Events      core.Outbox
	Audit       core.AuditLog
	Jobs        core.Scheduler
	Sealer      Sealer
	// StateKey makes the link flow's state MACs.
	StateKey []byte
	Log      Logger
	Now      func() time.Time
}

// Logger is the part of slog.Logger the service writes to.
type Logger interface {
	Info(msg string, args ...any)
	Warn(msg string, args ...any)
}

// On tells whether the feature is configured.
func (s *Service) On() bool { return s != nil && s.Platform != nil }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) on() error {
	if !s.On() {
		return errs.E(errs.NotFound, MsgOff)
	}
	return nil
}

var loginRE = regexp.MustCompile(`^[a-z0-9_]{4,25}$`)

// platform checks a platform's name.
func platform(p string) error {
	if p != PlatformTwitch {
		return errs.E(errs.NotFound, MsgUnknown)
	}
	return nil
}

// login is a channel name as typed, checked: Twitch logins are lower case.
func login(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if !loginRE.MatchString(s) {
		return "", errs.E(errs.Invalid, MsgBadChannel)
	}
	return s, nil
}

// List is who is live now (and the running tournaments' channels): the
// league's casts first, then players in today's matches, then the rest,
// each part by viewers. Off, it is empty.
func (s *Service) List(ctx context.Context) ([]Stream, error) {
	if !s.On() {
		return []Stream{}, nil
	}
	list, err := s.Store.Streams(ctx, s.now())
	if err != nil {
		return nil, err
	}
	Sort(list)
	return list, nil
}

// Mine are the channels the signed-in player linked (none while off).
func (s *Service) Mine(ctx context.Context, a core.Actor) ([]Stream, error) {
	if err := a.MustBeUser(); err != nil {
		return nil, err
	}
	if !s.On() {
		return []Stream{}, nil
	}
	return s.Store.PlayerStreams(ctx, a.UserID, s.now())
}

// emit tells the streams topic of the channel's state, in the caller's
// transaction.
func (s *Service) emit(ctx context.Context, id int64) error {
	st, err := s.Store.Stream(ctx, id, s.now())
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicStreams, EventChanged, st)
	return err
}
