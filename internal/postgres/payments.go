package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/payments"
)

// Payments is the PostgreSQL store of payments.Store.
type Payments struct{ DB *DB }

var _ payments.Store = Payments{}

const paymentCols = `id, tournament_id, coalesce(user_id, 0), state, amount, currency, hold_until,
	coalesce(checkout_session, ''), checkout_url, coalesce(payment_intent, '')`

func scanPayment(row pgx.Row) (payments.Payment, error) {
	var p payments.Payment
	err := row.Scan(&p.ID, &p.TournamentID, &p.UserID, &p.State, &p.Amount, &p.Currency, &p.HoldUntil, &p.Session, &p.URL, &p.PaymentIntent)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, errs.E(errs.NotFound, "No such payment")
	}
	return p, unavailable(err)
}

func (s Payments) one(ctx context.Context, sql string, args ...any) (payments.Payment, error) {
	return scanPayment(s.DB.q(ctx).QueryRow(ctx, `SELECT `+paymentCols+` FROM registration_payments `+sql, args...))
}

func (s Payments) list(ctx context.Context, sql string, args ...any) ([]payments.Payment, error) {
	rows, err := s.DB.q(ctx).Query(ctx, sql, args...)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (payments.Payment, error) { return scanPayment(row) })
	return list, unavailable(err)
}

// CreatePayment implements payments.Store.
func (s Payments) CreatePayment(ctx context.Context, p payments.Payment) (int64, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `
		INSERT INTO registration_payments (tournament_id, user_id, state, amount, currency, hold_until)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		p.TournamentID, p.UserID, p.State, p.Amount, string(p.Currency), p.HoldUntil).Scan(&id)
	if isUniqueViolation(err) {
		return 0, errs.E(errs.Conflict, "That registration's fee is already asked.")
	}
	return id, unavailable(err)
}

// LivePayment implements payments.Store.
func (s Payments) LivePayment(ctx context.Context, tournamentID, userID int64) (payments.Payment, error) {
	return s.one(ctx, `WHERE tournament_id = $1 AND user_id = $2 AND state IN ('pending', 'paid', 'refund_due') FOR UPDATE`, tournamentID, userID)
}

// LatestPayment implements payments.Store.
func (s Payments) LatestPayment(ctx context.Context, tournamentID, userID int64) (payments.Payment, error) {
	return s.one(ctx, `WHERE tournament_id = $1 AND user_id = $2 ORDER BY id DESC LIMIT 1`, tournamentID, userID)
}

// PaymentBySession implements payments.Store.
func (s Payments) PaymentBySession(ctx context.Context, session string) (payments.Payment, error) {
	return s.one(ctx, `WHERE checkout_session = $1`, session)
}

// PaymentByIntent implements payments.Store.
func (s Payments) PaymentByIntent(ctx context.Context, intent string) (payments.Payment, error) {
	return s.one(ctx, `WHERE payment_intent = $1 ORDER BY id DESC LIMIT 1`, intent)
}

// LockPayment implements payments.Store.
func (s Payments) LockPayment(ctx context.Context, id int64) (payments.Payment, error) {
	return s.one(ctx, `WHERE id = $1 FOR UPDATE`, id)
}

func (s Payments) exec(ctx context.Context, sql string, args ...any) error {
	_, err := s.DB.q(ctx).Exec(ctx, sql, args...)
	return unavailable(err)
}

// SetState implements payments.Store.
func (s Payments) SetState(ctx context.Context, id int64, state string) error {
	return s.exec(ctx, `UPDATE registration_payments SET state = $2, updated_at = now() WHERE id = $1`, id, state)
}

// SetCheckout implements payments.Store.
func (s Payments) SetCheckout(ctx context.Context, id int64, session, url string) error {
	return s.exec(ctx, `UPDATE registration_payments SET checkout_session = $2, checkout_url = $3, updated_at = now() WHERE id = $1`, id, session, url)
}

// SetPaid implements payments.Store.
func (s Payments) SetPaid(ctx context.Context, id int64, intent string) error {
	return s.exec(ctx, `UPDATE registration_payments SET state = 'paid', payment_intent = nullif($2, ''), updated_at = now() WHERE id = $1`, id, intent)
}

// SetRefunded implements payments.Store.
func (s Payments) SetRefunded(ctx context.Context, id int64, refund string) error {
	return s.exec(ctx, `UPDATE registration_payments SET state = 'refunded', refund_id = nullif($2, ''), updated_at = now() WHERE id = $1`, id, refund)
}

// SeeEvent implements payments.Store.
func (s Payments) SeeEvent(ctx context.Context, id, typ string) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, typ)
	return tag.RowsAffected() == 1, unavailable(err)
}

// HoldsDue implements payments.Store.
func (s Payments) HoldsDue(ctx context.Context, now time.Time, limit int) ([]payments.Payment, error) {
	return s.list(ctx, `SELECT `+paymentCols+` FROM registration_payments WHERE state = 'pending' AND hold_until <= $1 ORDER BY hold_until LIMIT $2`, now, limit)
}

// RefundsDue implements payments.Store.
func (s Payments) RefundsDue(ctx context.Context, limit int) ([]payments.Payment, error) {
	return s.list(ctx, `SELECT `+paymentCols+` FROM registration_payments WHERE state = 'refund_due' ORDER BY id LIMIT $1`, limit)
}

// Unasked implements payments.Store: confirmed registrations made since
// the season's fee is asked, with no live payment, while it registers.
func (s Payments) Unasked(ctx context.Context, limit int) ([]payments.Payment, error) {
	return s.list(ctx, `
		SELECT 0::bigint, r.tournament_id, r.user_id, 'pending', p.entry_fee, p.currency, now(), '', '', ''
		  FROM registrations r
		  JOIN prize_pools p ON p.tournament_id = r.tournament_id AND p.entry_fee > 0 AND r.created_at >= p.fee_since
		  JOIN tournaments t ON t.id = r.tournament_id AND t.status = 'registration'
		 WHERE r.status = 'confirmed'
		   AND NOT EXISTS (SELECT 1 FROM registration_payments x WHERE x.tournament_id = r.tournament_id AND x.user_id = r.user_id
		                      AND x.state IN ('pending', 'paid', 'refund_due'))
		 ORDER BY r.tournament_id, r.created_at LIMIT $1`, limit)
}
