package app

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/moderation"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// moderationService wires reports and sanctions: identities are kept
// under a key of their own from JWT_SECRET, and a site ban ends the
// player's sessions at once (their open websockets too, by the event).
func moderationService(db *postgres.DB, tour *tournament.Service, log core.AuditLog, events core.Outbox,
	admins map[string]bool, secret string) *moderation.Service {
	return &moderation.Service{
		Store: postgres.Moderation{DB: db}, Tournaments: tour, Tx: db, Audit: log,
		Key:       []byte("moderation|" + secret),
		Organiser: func(email string) bool { return admins[email] },
		EndSessions: func(ctx context.Context, userID int64) error {
			ended, err := postgres.Accounts{DB: db}.EndSessions(ctx, userID, 0, 0)
			if err != nil || len(ended) == 0 {
				return err
			}
			_, err = events.Emit(ctx, core.UserTopic(userID), core.EventSessionEnded, map[string]any{"sessions": ended})
			return err
		},
	}
}
