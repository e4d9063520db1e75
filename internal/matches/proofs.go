// End-of-match screenshots: uploaded for one match, cited by its report, pruned when uncited.

package matches

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// UploadProof keeps a side's end-of-match screenshot for match id (the
// checks of every upload apply; at most MaxProofs a side) and returns its
// id, which only this match's report may cite. Proofs no report cites are
// pruned (PruneProofs).
func (s *Service) UploadProof(ctx context.Context, a core.Actor, id int64, data []byte) (string, error) {
	var imageID string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		side, err := s.may(ctx, ActUploadProof, a, m)
		if err != nil {
			return err
		}
		img, err := upload.Check(data)
		if err != nil {
			return err
		}
		n, err := s.Store.CountProofs(ctx, m.ID, *side)
		if err != nil {
			return err
		}
		if n >= MaxProofs {
			return errs.E(errs.Unprocessable, "Team %s has uploaded %d screenshots for match %d already: report with one of them.", side.ID, n, m.ID)
		}
		if imageID, err = s.Images.SaveImage(ctx, img.MIME, data); err != nil {
			return err
		}
		return s.Store.AddProof(ctx, m.ID, *side, a.UserID, imageID)
	})
	return imageID, err
}

// PruneProofs is the periodic job that forgets screenshots uploaded for a
// match more than ProofKeep ago that its report does not cite.
type PruneProofs struct{}

// Kind implements core.Job.
func (PruneProofs) Kind() string { return "match.prune_proofs" }

// PruneProofsDue runs the job.
func (s *Service) PruneProofsDue(ctx context.Context, _ PruneProofs) error {
	_, err := s.Store.PruneProofs(ctx, s.now().Add(-ProofKeep))
	return err
}
