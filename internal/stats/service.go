package stats

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// Images stores image bytes once and answers their URL.
type Images interface {
	SaveImage(ctx context.Context, contentType string, data []byte) (id string, err error)
	ImageExists(ctx context.Context, id string) (bool, error)
}

// MaxCartImage bounds a kart image sent inline as a data URL.
const MaxCartImage = 2 << 20

// Service saves, reads and deletes a player's stats.
type Service struct {
	Store  Store
	Images Images
	Tx     core.Transactor
	// Changed runs in the transaction of a save that changed a player's
	// card (the tournament service tells the lists the player is on).
	Changed func(ctx context.Context, userID int64) error
}

// Save validates and stores the signed-in player's typed stats.
func (s *Service) Save(ctx context.Context, a core.Actor, in SaveInput) (core.Stats, error) {
	if a.UserID == 0 {
		return core.Stats{}, errs.E(errs.Unauthorized, MsgLoginToSave)
	}
	rec, err := in.Record(false)
	if err != nil {
		return core.Stats{}, err
	}
	if rec.CartImage, err = s.resolveCartImage(ctx, in.CartImage); err != nil {
		return core.Stats{}, err
	}
	rec.Source = core.SourceTyped
	return s.save(ctx, a.UserID, rec)
}

// ConfirmWithin is how long after a held reading a save counts as the
// player's confirmation of it.
const ConfirmWithin = time.Hour

// SaveRecord stores a record read from a screenshot for userID.
func (s *Service) SaveRecord(ctx context.Context, userID int64, rec core.Stats) (core.Stats, error) {
	if err := rec.Validate(); err != nil {
		return core.Stats{}, err
	}
	return s.save(ctx, userID, rec)
}

func (s *Service) save(ctx context.Context, userID int64, rec core.Stats) (core.Stats, error) {
	var out core.Stats
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		if rec.Source == core.SourceTyped {
			// A save soon after a reading held for the player is that
			// reading, confirmed.
			held, err := s.Store.TakeHeld(ctx, userID, time.Now().Add(-ConfirmWithin))
			if err != nil {
				return err
			}
			if held != "" {
				rec.Source = core.SourceConfirmed
			}
		}
		var err error
		if out, err = s.Store.SaveStats(ctx, userID, rec); err != nil {
			return err
		}
		if s.Changed != nil {
			return s.Changed(ctx, userID)
		}
		return nil
	})
	return out, err
}

// Get returns the signed-in player's stats, or nil.
func (s *Service) Get(ctx context.Context, a core.Actor) (*core.Stats, error) {
	if err := a.MustBeUser(); err != nil {
		return nil, err
	}
	return s.Store.FindStats(ctx, a.UserID)
}

// Delete removes the signed-in player's stats (refused while registered).
func (s *Service) Delete(ctx context.Context, a core.Actor) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.Store.DeleteStats(ctx, a.UserID)
}

var imageURL = regexp.MustCompile(`^/api/images/([0-9a-f]{64})$`)

// resolveCartImage turns the payload's cart_image into a stored image URL:
// a data URL is decoded and stored, a URL of ours is kept, nothing is nil.
func (s *Service) resolveCartImage(ctx context.Context, v *string) (*string, error) {
	if v == nil || strings.TrimSpace(*v) == "" {
		return nil, nil
	}
	if m := imageURL.FindStringSubmatch(*v); m != nil {
		ok, err := s.Images.ImageExists(ctx, m[1])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errs.E(errs.Invalid, "cart_image refers to an unknown image")
		}
		return v, nil
	}
	rest, ok := strings.CutPrefix(*v, "data:")
	if !ok {
		return nil, errs.E(errs.Invalid, "cart_image must be an uploaded image or a data URL")
	}
	meta, payload, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return nil, errs.E(errs.Invalid, "cart_image must be a base64 data URL")
	}
	if base64.StdEncoding.DecodedLen(len(payload)) > MaxCartImage {
		return nil, errs.E(errs.TooLarge, "cart_image must be at most 2 MB")
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, errs.E(errs.Invalid, "cart_image is not valid base64")
	}
	// The same checks as a screenshot (type by bytes, 4096 px, decode
	// budget, decodable to the end): this image is shown to every visitor.
	img, err := upload.Check(data)
	if err != nil {
		return nil, errs.E(errs.KindOf(err), "cart_image: %s", errs.MessageOf(err))
	}
	id, err := s.Images.SaveImage(ctx, img.MIME, data)
	if err != nil {
		return nil, err
	}
	url := "/api/images/" + id
	return &url, nil
}
