// Package hub holds Pitlane's live layer: the websocket endpoint of
// spec/product.md section 6, per-topic sequence numbers and history, and the
// fan-out of events across instances through Redis (or in-process without it).
package hub

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// ErrRejected wraps an Authenticator's answer that a token is not (or no
// longer) good; any other error means it could not be checked, and an open
// session is kept.
var ErrRejected = errors.New("hub: token rejected")

// Publisher is what domain code calls after a commit to tell every open client.
type Publisher interface {
	// Publish sends event with data (marshalled to JSON once) to topic's
	// subscribers on every instance. It never blocks on slow clients.
	Publish(ctx context.Context, topic, event string, data any) error
	// Seq is the topic's latest seq. A REST list reads it before reading its
	// rows, so a client subscribing with since=Seq misses nothing.
	Seq(ctx context.Context, topic string) (int64, error)
}

// Identity is who a websocket connection authenticated as.
type Identity struct {
	UserID int64
	Role   string // "user", "captain" or "admin"
}

// Authenticator checks the token of a connection's first "auth" frame.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (Identity, error)
}

// Public topics of spec/product.md section 6.
const (
	TopicRegistrations = "registrations"
	TopicTeams         = "teams"
	TopicBracket       = "bracket"
	TopicDeck          = "deck"
	TopicCaptains      = "captains"
	TopicUser          = "user" // what a client subscribes to; mapped to UserTopic(id)
)

// UserTopic is the internal topic of one user's own events ("user" to the client).
func UserTopic(userID int64) string { return "user:" + strconv.FormatInt(userID, 10) }

// isUserTopic tells a user's own topic, which expires when idle, from the
// shared ones, which never do.
func isUserTopic(topic string) bool { return strings.HasPrefix(topic, "user:") }
