package postgres

import "context"

// Deck is the PostgreSQL store of deck.Store.
type Deck struct{ DB *DB }

// Slide returns the current slide.
func (s Deck) Slide(ctx context.Context) (int, error) {
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT slide FROM deck_state WHERE id = 1`).Scan(&n)
	return n, unavailable(err)
}

// SetSlide stores the current slide.
func (s Deck) SetSlide(ctx context.Context, slide int) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE deck_state SET slide = $1, updated_at = now() WHERE id = 1`, slide)
	return unavailable(err)
}
