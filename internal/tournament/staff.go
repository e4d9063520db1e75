package tournament

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// StaffMember is a co-organiser of a tournament, as organisers see them.
type StaffMember struct {
	UserID    int64     `json:"user_id"`
	Name      string    `json:"name"`
	GrantedBy string    `json:"granted_by"`
	GrantedAt time.Time `json:"granted_at"`
}

// StaffStore keeps the co-organisers of tournaments.
type StaffStore interface {
	// GrantStaff makes userID staff of the tournament, granted by by; a
	// user who is not a verified, living account is NotFound. A second
	// grant keeps the first.
	GrantStaff(ctx context.Context, tournamentID, userID, by int64) error
	// RevokeStaff says whether userID was staff of the tournament.
	RevokeStaff(ctx context.Context, tournamentID, userID int64) (bool, error)
	ListStaff(ctx context.Context, tournamentID int64) ([]StaffMember, error)
}

// Audited staff actions.
const (
	ActionStaffGranted = "tournament.staff_granted"
	ActionStaffRevoked = "tournament.staff_revoked"
)

// MsgStaffByOwners refuses a co-organiser who tries to grant the role:
// only the site's organisers (ADMIN_EMAILS) grant it.
const MsgStaffByOwners = "Only the site's organisers choose who helps run a tournament."

// GrantStaff makes a player a co-organiser of the named tournament: they
// may then do there what an organiser may, and nothing elsewhere. Only an
// organiser of the whole site grants it; the grant is audited with who
// made it, and the player's open sessions take it at once.
func (s *Service) GrantStaff(ctx context.Context, a core.Actor, name string, userID int64) ([]StaffMember, error) {
	return s.changeStaff(ctx, a, name, userID, true)
}

// RevokeStaff ends a co-organiser's role in the named tournament.
func (s *Service) RevokeStaff(ctx context.Context, a core.Actor, name string, userID int64) ([]StaffMember, error) {
	return s.changeStaff(ctx, a, name, userID, false)
}

func (s *Service) changeStaff(ctx context.Context, a core.Actor, name string, userID int64, grant bool) ([]StaffMember, error) {
	if err := a.MustBeAdmin(); err != nil {
		if a.OrganisesAny() {
			return nil, errs.E(errs.Forbidden, MsgStaffByOwners)
		}
		return nil, err
	}
	var list []StaffMember
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		action := ActionStaffGranted
		if grant {
			if err := s.Staff.GrantStaff(ctx, t.ID, userID, a.UserID); err != nil {
				return err
			}
		} else {
			action = ActionStaffRevoked
			was, err := s.Staff.RevokeStaff(ctx, t.ID, userID)
			if err != nil {
				return err
			}
			if !was {
				return errs.E(errs.NotFound, "That player does not help run %s.", t.Name)
			}
		}
		if list, err = s.Staff.ListStaff(ctx, t.ID); err != nil {
			return err
		}
		target := "user"
		for _, m := range list {
			if m.UserID == userID {
				target = m.Name
			}
		}
		if err := s.Audit.RecordAbout(ctx, a, action, t.ID, core.AuditSubject{UserID: userID, Name: target}, map[string]any{"user_id": userID, "by": a.UserID}); err != nil {
			return err
		}
		// The player's open sessions are checked again at once: their
		// rights changed.
		_, err = s.Events.Emit(ctx, core.UserTopic(userID), core.EventRolesChanged, map[string]any{"tournament": t.Name})
		return err
	})
	return list, err
}

// ListStaff is the tournament's co-organisers, for its organisers and staff.
func (s *Service) ListStaff(ctx context.Context, a core.Actor, name string) ([]StaffMember, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := a.MustOrganise(t.ID); err != nil {
		return nil, err
	}
	return s.Staff.ListStaff(ctx, t.ID)
}
