package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Demo writes what the demo league needs and no call of the league makes:
// its accounts (made otherwise only by a sign-up and its mailed code, or by
// Google), their sign-in, and the teams' logos. Everything else the demo
// loads goes through the league's stores and services.
type Demo struct{ DB *DB }

// DemoAccount is a demo person: a verified e-mail and a proven, made-up
// Discord account.
type DemoAccount struct {
	Email, PasswordHash, Name, Avatar, Discord, DiscordID string
}

// NewAccount makes a demo person and returns their id.
func (s Demo) NewAccount(ctx context.Context, a DemoAccount) (int64, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO users (email, password_hash, name, avatar_image_id, discord_username,
		discord_id, discord_verified, email_verified) VALUES ($1, nullif($2, ''), $3, nullif($4, ''), $5, $6, true, true)
		RETURNING id`, a.Email, a.PasswordHash, a.Name, a.Avatar, a.Discord, a.DiscordID).Scan(&id)
	return id, unavailable(err)
}

// SetLogin gives a demo person the address and password they sign in with.
func (s Demo) SetLogin(ctx context.Context, id int64, email, passwordHash string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE users SET email = $2, password_hash = nullif($3, '') WHERE id = $1`,
		id, email, passwordHash)
	return unavailable(err)
}

// SetPasswords lets every demo person without one sign in with the
// password of passwordHash, but the one at except.
func (s Demo) SetPasswords(ctx context.Context, passwordHash, except string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE users SET password_hash = $1 WHERE password_hash IS NULL AND email <> $2`,
		passwordHash, except)
	return unavailable(err)
}

// SetLogo sets a team's logo.
func (s Demo) SetLogo(ctx context.Context, tournament, letter, logo string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE teams SET logo = $3 WHERE letter = $2
		AND tournament_id = (SELECT id FROM tournaments WHERE name = $1)`, tournament, letter, logo)
	return unavailable(err)
}

// Registered lists a tournament's registered players, oldest first.
func (s Demo) Registered(ctx context.Context, tournament string) ([]int64, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT r.user_id FROM registrations r JOIN tournaments t ON t.id = r.tournament_id
		WHERE t.name = $1 ORDER BY r.created_at, r.user_id`, tournament)
	if err != nil {
		return nil, unavailable(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, unavailable(err)
}
