package core

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Topics of the live layer (docs/hub.md, "Protocol as built"). TopicUser is what a client
// subscribes to; its events travel on UserTopic(id). The captains room of a
// tournament is its own topic, CaptainsTopic(name): one room per season, so
// a captain of another season never hears it.
const (
	TopicRegistrations = "registrations"
	TopicTeams         = "teams"
	TopicBracket       = "bracket"
	TopicDeck          = "deck"
	TopicUser          = "user"
	// TopicStreams carries who is live (internal/streams).
	TopicStreams = "streams"
	// captainsPrefix starts the name of every captains room's topic.
	captainsPrefix = "captains:"
)

// CaptainsTopic is the topic of the named tournament's captains room.
func CaptainsTopic(tournament string) string { return captainsPrefix + tournament }

// TournamentOfCaptainsTopic is the tournament whose captains room topic is,
// or "" when topic is not a captains room's.
func TournamentOfCaptainsTopic(topic string) string {
	name, ok := strings.CutPrefix(topic, captainsPrefix)
	if !ok || !validTopicName(name) {
		return ""
	}
	return name
}

// validTopicName accepts a tournament's name as topics carry it: what a
// tournament may be called (letters, digits, dots and dashes, 2 to 24).
func validTopicName(name string) bool {
	if len(name) < 2 || len(name) > 24 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// EventSessionEnded, on a user's own topic, says that some of the user's
// sessions ended (a sign-out everywhere, a password change, a deletion).
// Besides reaching the user's clients, it makes every instance's hub check
// that user's open websockets again at once, closing those whose session is
// gone.
const EventSessionEnded = "session.ended"

// EventRolesChanged, on a user's own topic, says the user's roles changed
// (a co-organiser's grant made or ended): the hub checks their open
// websockets again at once, as for EventSessionEnded.
const EventRolesChanged = "roles.changed"

// UserTopic is the internal topic of one user's own events.
func UserTopic(userID int64) string { return "user:" + strconv.FormatInt(userID, 10) }

// UserOfTopic is the user whose own topic topic is, or 0.
func UserOfTopic(topic string) int64 {
	id, ok := strings.CutPrefix(topic, "user:")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 || UserTopic(n) != topic {
		return 0
	}
	return n
}

// PublicTopic is the name clients know an internal topic by, and whether
// the topic exists at all.
func PublicTopic(topic string) (string, bool) {
	switch topic {
	case TopicRegistrations, TopicTeams, TopicBracket, TopicDeck, TopicStreams:
		return topic, true
	}
	if TournamentOfCaptainsTopic(topic) != "" || RoomOfTopic(topic) != 0 {
		return topic, true
	}
	if UserOfTopic(topic) != 0 {
		return TopicUser, true
	}
	return "", false
}

// Outbox records live events inside the caller's transaction (see
// Transactor): an event exists exactly when the change it tells of was
// committed, and is delivered after the commit, in commit order, however
// long the live layer is down.
type Outbox interface {
	// Emit records event with data (marshalled to JSON) on topic and
	// returns its seq, which rises by one per topic.
	Emit(ctx context.Context, topic, event string, data any) (seq int64, err error)
	// Seq is the topic's last committed seq as the caller's transaction
	// sees it: state read in the same transaction is the state at Seq, so a
	// client that follows the topic from Seq misses nothing.
	Seq(ctx context.Context, topic string) (int64, error)
}

// Event is a committed event on its way to clients.
type Event struct {
	Topic string
	Seq   int64
	Name  string
	Data  json.RawMessage
	At    time.Time
}

// ErrBadEvent marks an event the live layer can never deliver (an unknown
// topic, say): retrying it would hold back every later one.
var ErrBadEvent = errors.New("undeliverable event")

// Broadcaster hands committed events to every open client (the hub).
type Broadcaster interface {
	// Deliver publishes evs, which are in seq order per topic, and returns
	// how many were delivered before an error. Delivering an event twice is
	// harmless: a seq a topic already has is skipped.
	Deliver(ctx context.Context, evs []Event) (int, error)
	// Prime tells the live layer that topic has reached seq, so a client
	// that is behind is told to reload rather than wait for the next event.
	Prime(ctx context.Context, topic string, seq int64) error
}

// Delivery is an event as an in-process subscriber (the Discord bot)
// receives it. Resync, with no event, means events of Topic were lost and
// the subscriber must read the topic's state again.
type Delivery struct {
	Topic  string
	Seq    int64
	Event  string
	Data   json.RawMessage
	At     time.Time
	Resync bool
}

// Feed lets code in the process follow topics without a websocket. The
// channel is closed when ctx ends.
type Feed interface {
	Follow(ctx context.Context, topics ...string) <-chan Delivery
}
