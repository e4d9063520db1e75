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
