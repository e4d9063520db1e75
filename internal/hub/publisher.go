// Package hub holds Pitlane's live layer: the websocket endpoint GET /api/ws
// (its protocol is described in docs/hub.md), per-topic sequence numbers and
// history, and the fan-out of events across instances through Redis (or in-process without it).
// It delivers the events the outbox relay hands it (core.Broadcaster) and
// lets code in the process follow topics (core.Feed).
package hub

import (
	"context"
	"errors"

	"github.com/pitlane/pitlane/internal/core"
)

// ErrRejected wraps an Authenticator's answer that a token is not (or no
// longer) good; any other error means it could not be checked, and an open
// session is kept.
var ErrRejected = errors.New("hub: token rejected")

// Authenticator checks the token of a connection's "auth" frame and says
// who it belongs to; what the actor may follow is core's rule
// (core.Actor.MayFollow).
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (core.Actor, error)
}

// isUserTopic tells a user's own topic, which expires when idle, from the
// shared ones, which never do.
func isUserTopic(topic string) bool { return core.UserOfTopic(topic) != 0 }
