package postgres

import "context"

// Newsletter keeps the footer form's subscribers.
type Newsletter struct{ DB *DB }

// Subscribe adds email; subscribing twice is not an error, and does not tell
// anyone whether the address was on the list.
func (s Newsletter) Subscribe(ctx context.Context, email string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO newsletter_subscribers (email) VALUES ($1) ON CONFLICT DO NOTHING`, email)
	return unavailable(err)
}
