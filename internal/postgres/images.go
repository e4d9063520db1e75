package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Images stores image bytes once, keyed by their SHA-256.
type Images struct{ DB *DB }

// SaveImage stores data (once) and returns its id.
func (s Images) SaveImage(ctx context.Context, contentType string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	id := hex.EncodeToString(sum[:])
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO images (id, content_type, data) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO NOTHING`, id, contentType, data)
	return id, unavailable(err)
}

// ImageExists reports whether id is stored.
func (s Images) ImageExists(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM images WHERE id = $1)`, id).Scan(&ok)
	return ok, unavailable(err)
}

// FindImage returns the image with id.
func (s Images) FindImage(ctx context.Context, id string) (core.Image, error) {
	img := core.Image{ID: id}
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT content_type, data FROM images WHERE id = $1`, id).Scan(&img.ContentType, &img.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return img, errs.E(errs.NotFound, "Image not found")
	}
	return img, unavailable(err)
}
