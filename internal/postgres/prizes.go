package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/prizes"
)

// Prizes is the PostgreSQL store of prizes.Store.
type Prizes struct{ DB *DB }

var _ prizes.Store = Prizes{}

const selectPool = `SELECT tournament_id, currency, split, awards, entry_fee, team_share, updated_at FROM prize_pools WHERE tournament_id = $1`

func (s Prizes) pool(ctx context.Context, sql string, id int64) (prizes.Pool, error) {
	var p prizes.Pool
	var awards []byte
	err := s.DB.q(ctx).QueryRow(ctx, sql, id).Scan(&p.TournamentID, &p.Currency, &p.Split, &awards, &p.EntryFee, &p.TeamShare, &p.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, errs.E(errs.NotFound, "No prize pool")
	}
	if err != nil {
		return p, unavailable(err)
	}
	return p, json.Unmarshal(awards, &p.Awards)
}

// FindPool implements prizes.Store.
func (s Prizes) FindPool(ctx context.Context, id int64) (prizes.Pool, error) {
	return s.pool(ctx, selectPool, id)
}

// LockPool implements prizes.Store.
func (s Prizes) LockPool(ctx context.Context, id int64) (prizes.Pool, error) {
	return s.pool(ctx, selectPool+` FOR UPDATE`, id)
}

// SavePool implements prizes.Store.
func (s Prizes) SavePool(ctx context.Context, p prizes.Pool) error {
	awards, err := json.Marshal(p.Awards)
	if err != nil {
		return err
	}
	_, err = s.DB.q(ctx).Exec(ctx, `
		INSERT INTO prize_pools (tournament_id, currency, split, awards, entry_fee, team_share, fee_since)
		VALUES ($1, $2, $3, $4, $5::bigint, $6, CASE WHEN $5::bigint > 0 THEN now() END)
		ON CONFLICT (tournament_id) DO UPDATE SET currency = $2, split = $3, awards = $4, entry_fee = $5, team_share = $6, updated_at = now(),
		       fee_since = CASE WHEN $5::bigint = 0 THEN NULL ELSE coalesce(prize_pools.fee_since, now()) END`,
		p.TournamentID, string(p.Currency), p.Split, awards, p.EntryFee, p.TeamShare)
	return unavailable(err)
}

// Entries implements prizes.Store.
func (s Prizes) Entries(ctx context.Context, id int64) ([]prizes.Entry, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT id, kind, source, amount, balance, currency, coalesce(user_id, 0), ref, note, created_at
		  FROM prize_ledger WHERE tournament_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, unavailable(err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (prizes.Entry, error) {
		var e prizes.Entry
		return e, row.Scan(&e.ID, &e.Kind, &e.Source, &e.Amount, &e.Balance, &e.Currency, &e.UserID, &e.Ref, &e.Note, &e.At)
	})
	return list, unavailable(err)
}

// AddEntry implements prizes.Store.
func (s Prizes) AddEntry(ctx context.Context, tournamentID, by int64, e prizes.Entry) (int64, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `
		INSERT INTO prize_ledger (tournament_id, kind, source, amount, currency, balance, user_id, ref, note, created_by)
		VALUES ($1, $2, $3, $4, $5, $6, nullif($7, 0), $8, $9, nullif($10, 0)) RETURNING id`,
		tournamentID, e.Kind, e.Source, e.Amount, string(e.Currency), e.Balance, e.UserID, e.Ref, e.Note, by).Scan(&id)
	return id, unavailable(err)
}
