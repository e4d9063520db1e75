// End-of-match screenshots and the images they keep.

package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/matches"
)

// AddProof implements matches.Store; the same image twice is one proof.
func (s Matches) AddProof(ctx context.Context, matchID int64, side matches.TeamRef, userID int64, imageID string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO match_proofs (match_id, image_id, team_id, uploaded_by)
		VALUES ($1, $2, $3, $4) ON CONFLICT (match_id, image_id) DO NOTHING`, matchID, imageID, side.DBID, userID)
	return unavailable(err)
}

// CountProofs implements matches.Store.
func (s Matches) CountProofs(ctx context.Context, matchID int64, side matches.TeamRef) (int, error) {
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FROM match_proofs WHERE match_id = $1 AND team_id = $2`,
		matchID, side.DBID).Scan(&n)
	return n, unavailable(err)
}

// HasProof implements matches.Store.
func (s Matches) HasProof(ctx context.Context, matchID int64, imageID string) (bool, error) {
	var ok bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM match_proofs WHERE match_id = $1 AND image_id = $2)`,
		matchID, imageID).Scan(&ok)
	return ok, unavailable(err)
}

// ImageUses are the columns that hold an image id: an image none of them
// holds may be deleted. TestImageUsesCoverEveryReference keeps the list
// equal to the database's foreign keys to images.
var ImageUses = []struct{ Table, Column string }{
	{"users", "avatar_image_id"},
	{"stats", "cart_image_id"},
	{"matches", "proof_image_id"},
	{"match_proofs", "image_id"},
	{"tournaments", "banner_image_id"},
	{"fixture_reset_matches", "proof"}, // a reset's archive keeps the proofs of its results
}

// PruneProofs implements matches.Store.
func (s Matches) PruneProofs(ctx context.Context, before time.Time) (int, error) {
	var n int
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		rows, err := q.Query(ctx, `DELETE FROM match_proofs p WHERE p.uploaded_at < $1
			AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = p.match_id AND m.proof_image_id = p.image_id)
			RETURNING p.image_id`, before)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		n = len(ids)
		unused := `DELETE FROM images i WHERE i.id = ANY($1)`
		for _, u := range ImageUses {
			unused += ` AND NOT EXISTS (SELECT 1 FROM ` + u.Table + ` x WHERE x.` + u.Column + ` = i.id)`
		}
		_, err = q.Exec(ctx, unused, ids)
		return err
	})
	return n, unavailable(err)
}

// SaveImage stores an end-of-match screenshot.
func (s Matches) SaveImage(ctx context.Context, contentType string, data []byte) (string, error) {
	return Images(s).SaveImage(ctx, contentType, data)
}
