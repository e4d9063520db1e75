// Package audit holds the rules for reading the audit log: organisers only,
// newest first, narrowed to one tournament on request. Writing to it is
// core.AuditLog's Record, inside each service's own transaction.
package audit

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Page sizes of a read.
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

// Tournaments finds a tournament by name.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Service reads the audit log.
type Service struct {
	Log         core.AuditLog
	Tournaments Tournaments
}

// List returns up to limit entries (0: DefaultLimit), newest first, of the
// named tournament or ("") of everything.
func (s *Service) List(ctx context.Context, a core.Actor, tournamentName string, limit int) ([]core.AuditEntry, error) {
	if err := a.MustBeAdmin(); err != nil {
		return nil, err
	}
	if limit < 0 || limit > MaxLimit {
		return nil, errs.E(errs.Invalid, "limit must be between 1 and %d", MaxLimit)
	}
	if limit == 0 {
		limit = DefaultLimit
	}
	f := core.AuditFilter{Limit: limit}
	if tournamentName != "" {
		t, err := s.Tournaments.Find(ctx, tournamentName)
		if err != nil {
			return nil, err
		}
		f.TournamentID = t.ID
	}
	return s.Log.List(ctx, f)
}
