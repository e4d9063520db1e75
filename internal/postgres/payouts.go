package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/prizes"
)

var _ prizes.PayoutStore = Prizes{}

const payoutCols = `p.id, p.label, p.place, p.team, coalesce(p.user_id, 0), coalesce(` + `nullif(u.discord_username, ''), nullif(u.name, ''), ''),
	p.amount, p.currency, p.state, p.method, p.reference, p.paid_at, p.received_at`

func scanPayout(row pgx.Row, more ...any) (prizes.Payout, error) {
	var o prizes.Payout
	err := row.Scan(append([]any{&o.ID, &o.Label, &o.Place, &o.Team, &o.UserID, &o.Name, &o.Amount, &o.Currency, &o.State,
		&o.Method, &o.Reference, &o.PaidAt, &o.Received}, more...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, errs.E(errs.NotFound, "No such payout")
	}
	return o, unavailable(err)
}

// CreatePayouts implements prizes.PayoutStore.
func (s Prizes) CreatePayouts(ctx context.Context, tournamentID int64, list []prizes.Payout) (bool, error) {
	var exists bool
	if err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM payouts WHERE tournament_id = $1)`, tournamentID).Scan(&exists); err != nil || exists {
		return false, unavailable(err)
	}
	for _, o := range list {
		if _, err := s.DB.q(ctx).Exec(ctx, `
			INSERT INTO payouts (tournament_id, label, place, team, user_id, amount, currency) VALUES ($1, $2, $3, $4, nullif($5, 0), $6, $7)`,
			tournamentID, o.Label, o.Place, o.Team, o.UserID, o.Amount, string(o.Currency)); err != nil {
			return false, unavailable(err)
		}
	}
	return true, nil
}

// Payouts implements prizes.PayoutStore.
func (s Prizes) Payouts(ctx context.Context, tournamentID, after int64, limit int) ([]prizes.Payout, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+payoutCols+` FROM payouts p LEFT JOIN users u ON u.id = p.user_id
		WHERE p.tournament_id = $1 AND p.id > $2 ORDER BY p.id LIMIT $3`, tournamentID, after, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (prizes.Payout, error) { return scanPayout(row) })
	return list, unavailable(err)
}

// LockPayout implements prizes.PayoutStore.
func (s Prizes) LockPayout(ctx context.Context, id int64) (prizes.Payout, int64, error) {
	var tid int64
	o, err := scanPayout(s.DB.q(ctx).QueryRow(ctx, `SELECT `+payoutCols+`, p.tournament_id FROM payouts p LEFT JOIN users u ON u.id = p.user_id
		WHERE p.id = $1 FOR UPDATE OF p`, id), &tid)
	return o, tid, err
}

// SetPayoutPaid implements prizes.PayoutStore.
func (s Prizes) SetPayoutPaid(ctx context.Context, id int64, method, reference string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE payouts SET state = 'paid', method = $2, reference = $3, paid_at = now() WHERE id = $1`, id, method, reference)
	return unavailable(err)
}

// SetPayoutReceived implements prizes.PayoutStore.
func (s Prizes) SetPayoutReceived(ctx context.Context, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE payouts SET state = 'received', received_at = now() WHERE id = $1`, id)
	return unavailable(err)
}
