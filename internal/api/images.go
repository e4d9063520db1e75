// Stored images (avatars, karts, proofs), served once and cached long.

package api

import (
	"net/http"
	"regexp"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
)

var imageID = regexp.MustCompile(`^[0-9a-f]{64}$`)

// image serves a stored image. Its id is its content hash, so it can be
// cached for ever.
func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !imageID.MatchString(id) {
		writeError(w, r, errs.E(errs.NotFound, "Image not found"))
		return
	}
	etag := `"` + id + `"`
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	img, err := s.Images.FindImage(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", img.ContentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", etag)
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	w.Write(img.Data)
}
