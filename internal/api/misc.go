package api

import (
	"net/http"
	"regexp"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
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

func (s *Server) deckCurrent(w http.ResponseWriter, r *http.Request) {
	st, err := s.Deck.Current(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

type slideInput struct {
	Slide int `json:"slide"`
}

func (s *Server) deckMove(w http.ResponseWriter, r *http.Request) {
	var in slideInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.Deck.Move(r.Context(), actorOf(r), in.Slide)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) subscribe(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.NewsletterIP, limitIP(r)) {
		return
	}
	var in emailOnly
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err == nil && s.limited(w, r, ratelimit.NewsletterEmail, emailKey(email)) {
		return
	}
	if err == nil {
		err = s.Newsletter.Subscribe(r.Context(), email)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"message": "Thanks for subscribing! League news will reach your inbox."})
}
