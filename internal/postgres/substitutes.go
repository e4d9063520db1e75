package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// requestSQL reads requests to sign substitutes with their team and player.
const requestSQL = `
SELECT q.id, t.letter, t.id, q.price, q.status, q.asked_at, q.decided_at, q.reason,
       u.id, ` + shownName + `, ` + shownTier + `, ` + shownImage + `,
       coalesce(s.kd, 0)::float8, coalesce(s.games_played, 0), coalesce(s.level, 0), u.profile_hidden
  FROM substitute_requests q
  JOIN teams t ON t.id = q.team_id
  JOIN users u ON u.id = q.user_id
  LEFT JOIN stats s ON s.user_id = u.id
  LEFT JOIN registrations r ON r.tournament_id = q.tournament_id AND r.user_id = u.id`

func scanRequest(row pgx.Row) (auction.SubstituteRequest, error) {
	var q auction.SubstituteRequest
	err := row.Scan(&q.ID, &q.Team, &q.TeamDBID, &q.Price, &q.Status, &q.AskedAt, &q.DecidedAt, &q.Reason,
		&q.Player.UserID, &q.Player.Name, &q.Player.Tier, &q.Player.Image, &q.Player.KD, &q.Player.GamesPlayed, &q.Player.Level,
		&q.Player.Hidden)
	core.ShowCard(core.Public, &q.Player)
	return q, err
}

func (s Auction) requests(ctx context.Context, where string, args ...any) ([]auction.SubstituteRequest, error) {
	rows, err := s.DB.q(ctx).Query(ctx, requestSQL+` WHERE `+where+` ORDER BY q.id DESC`, args...)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (auction.SubstituteRequest, error) { return scanRequest(row) })
	if out == nil {
		out = []auction.SubstituteRequest{}
	}
	return out, unavailable(err)
}

// SubstituteRequests implements auction.Store.
func (s Auction) SubstituteRequests(ctx context.Context, tournamentID int64) ([]auction.SubstituteRequest, error) {
	return s.requests(ctx, `q.tournament_id = $1`, tournamentID)
}

// PendingFor implements auction.Store.
func (s Auction) PendingFor(ctx context.Context, tournamentID, userID int64) ([]auction.SubstituteRequest, error) {
	return s.requests(ctx, `q.tournament_id = $1 AND q.user_id = $2 AND q.status = 'pending'`, tournamentID, userID)
}

// AddSubstituteRequest implements auction.Store.
func (s Auction) AddSubstituteRequest(ctx context.Context, tournamentID int64, team auction.Team, userID, askedBy int64, price int) (auction.SubstituteRequest, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO substitute_requests (tournament_id, team_id, user_id, price, asked_by)
		VALUES ($1, $2, $3, $4, nullif($5, 0)) RETURNING id`, tournamentID, team.DBID, userID, price, askedBy).Scan(&id)
	if isUniqueViolation(err) {
		return auction.SubstituteRequest{}, errs.E(errs.Conflict, "Team %s has asked to sign this player already.", team.ID)
	}
	if err != nil {
		return auction.SubstituteRequest{}, unavailable(err)
	}
	q, err := scanRequest(s.DB.q(ctx).QueryRow(ctx, requestSQL+` WHERE q.id = $1`, id))
	return q, unavailable(err)
}

// LockSubstituteRequest implements auction.Store: the lock alone, then a
// fresh read.
func (s Auction) LockSubstituteRequest(ctx context.Context, tournamentID, id int64) (auction.SubstituteRequest, error) {
	q := s.DB.q(ctx)
	if err := q.QueryRow(ctx, `SELECT id FROM substitute_requests WHERE tournament_id = $1 AND id = $2 FOR UPDATE`,
		tournamentID, id).Scan(&id); err != nil {
		return auction.SubstituteRequest{}, unavailable(notFound(err, "Request not found"))
	}
	r, err := scanRequest(q.QueryRow(ctx, requestSQL+` WHERE q.id = $1`, id))
	return r, unavailable(err)
}

// DecideSubstituteRequest implements auction.Store.
func (s Auction) DecideSubstituteRequest(ctx context.Context, r auction.SubstituteRequest, status string, by int64, reason string) (auction.SubstituteRequest, error) {
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if status == auction.RequestApproved {
			_, err := q.Exec(ctx, `INSERT INTO team_players (team_id, tournament_id, user_id, credits, substitute)
				SELECT team_id, tournament_id, user_id, price, true FROM substitute_requests WHERE id = $1`, r.ID)
			if isUniqueViolation(err) {
				return errs.E(errs.Conflict, "%s is already on a team.", r.Player.Name)
			}
			if err != nil {
				return err
			}
		}
		_, err := q.Exec(ctx, `UPDATE substitute_requests SET status = $2, decided_by = nullif($3, 0), decided_at = now(), reason = $4
			WHERE id = $1`, r.ID, status, by, reason)
		return err
	})
	if err != nil {
		return r, unavailable(err)
	}
	out, err := scanRequest(s.DB.q(ctx).QueryRow(ctx, requestSQL+` WHERE q.id = $1`, r.ID))
	return out, unavailable(err)
}
