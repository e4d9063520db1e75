package hub

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// revocableAuth accepts one token until it is revoked, with a role that can
// be changed.
type revocableAuth struct {
	revoked atomic.Bool
	down    atomic.Bool
	role    atomic.Value
}

func (a *revocableAuth) Authenticate(context.Context, string) (core.Actor, error) {
	if a.down.Load() {
		return core.Actor{}, errors.New("database unavailable")
	}
	if a.revoked.Load() {
		return core.Actor{}, fmt.Errorf("%w: token no longer valid", ErrRejected)
	}
	a2 := core.Actor{UserID: 5}
	switch a.role.Load().(string) {
	case core.RoleAdmin:
		a2.Admin = true
	case core.RoleCaptain:
		a2.Captains = []core.Captaincy{{TournamentID: 1, Tournament: "PPL7", Team: "A"}}
	case "captain of PPL8":
		a2.Captains = []core.Captaincy{{TournamentID: 2, Tournament: "PPL8", Team: "A"}}
	}
	return a2, nil
}

// A session already open ends once its token stops holding (a password
// change) or its role changes: checked again at a ping, closed with 1008.
func TestOpenSessionsAreCheckedAgain(t *testing.T) {
	// session opens a connection signed in with role, subscribed to topic.
	session := func(t *testing.T, role, topic string) (*revocableAuth, *testClient) {
		auth := &revocableAuth{}
		auth.role.Store(role)
		_, srv := startHub(t, Options{Auth: auth, PingInterval: 40 * time.Millisecond, ReauthInterval: 80 * time.Millisecond})
		c := dial(t, srv)
		c.auth("token")
		c.subscribe([]string{topic}, nil)
		return auth, c
	}
	t.Run("TokenRevoked", func(t *testing.T) {
		auth, c := session(t, "user", core.TopicUser)
		time.Sleep(200 * time.Millisecond) // still valid: checked and kept
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("a valid session got %+v", got)
		}
		auth.down.Store(true) // a check that cannot be made keeps the session
		time.Sleep(200 * time.Millisecond)
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("a session during an outage got %+v", got)
		}
		auth.down.Store(false)
		auth.revoked.Store(true)
		c.expectClose(websocket.StatusPolicyViolation, 3*time.Second)
	})
	t.Run("RoleLost", func(t *testing.T) {
		auth, c := session(t, "captain", core.CaptainsTopic("PPL7"))
		auth.role.Store("user")
		c.expectClose(websocket.StatusPolicyViolation, 3*time.Second)
	})
	t.Run("CaptaincyMovedToAnotherSeason", func(t *testing.T) {
		// Still a captain, but no longer of PPL7: its room must not stay open.
		auth, c := session(t, "captain", core.CaptainsTopic("PPL7"))
		auth.role.Store("captain of PPL8")
		c.expectClose(websocket.StatusPolicyViolation, 3*time.Second)
	})
}
