package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

var _ tournament.StaffStore = Tournaments{}

// GrantStaff implements tournament.StaffStore.
func (s Tournaments) GrantStaff(ctx context.Context, tournamentID, userID, by int64) error {
	tag, err := s.DB.q(ctx).Exec(ctx, `
		INSERT INTO tournament_staff (tournament_id, user_id, granted_by)
		SELECT $1, u.id, $3 FROM users u WHERE u.id = $2 AND u.email_verified AND u.deleted_at IS NULL
		ON CONFLICT (tournament_id, user_id) DO NOTHING`, tournamentID, userID, by)
	if err != nil {
		return unavailable(err)
	}
	if tag.RowsAffected() == 0 {
		var exists bool
		if err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tournament_staff WHERE tournament_id = $1 AND user_id = $2)`,
			tournamentID, userID).Scan(&exists); err != nil {
			return unavailable(err)
		}
		if !exists {
			return errs.E(errs.NotFound, "No such player")
		}
	}
	return nil
}

// RevokeStaff implements tournament.StaffStore.
func (s Tournaments) RevokeStaff(ctx context.Context, tournamentID, userID int64) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM tournament_staff WHERE tournament_id = $1 AND user_id = $2`, tournamentID, userID)
	return tag.RowsAffected() > 0, unavailable(err)
}

// ListStaff implements tournament.StaffStore, in the order granted.
func (s Tournaments) ListStaff(ctx context.Context, tournamentID int64) ([]tournament.StaffMember, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT st.user_id, coalesce(nullif(u.discord_username, ''), nullif(u.name, ''), 'Player'),
		       coalesce(nullif(g.discord_username, ''), nullif(g.name, ''), ''), st.granted_at
		  FROM tournament_staff st JOIN users u ON u.id = st.user_id LEFT JOIN users g ON g.id = st.granted_by
		 WHERE st.tournament_id = $1 ORDER BY st.granted_at, st.user_id`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.StaffMember, error) {
		var m tournament.StaffMember
		return m, row.Scan(&m.UserID, &m.Name, &m.GrantedBy, &m.GrantedAt)
	})
	if list == nil {
		list = []tournament.StaffMember{}
	}
	return list, unavailable(err)
}
