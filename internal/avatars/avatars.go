// Package avatars keeps a copy of a Google account's profile picture as the
// player's avatar, so cards and lists serve it from /api/images like any
// other image (no third-party requests from players' browsers).
package avatars

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/upload"
)

// MaxBytes bounds a downloaded picture (Google's are tens of KB).
const MaxBytes = 2 << 20

// Images stores image bytes once and returns their id.
type Images interface {
	SaveImage(ctx context.Context, contentType string, data []byte) (string, error)
}

// Users records a user's avatar unless they already have one.
type Users interface {
	SetAvatarIfNone(ctx context.Context, userID int64, imageID string) error
}

// Fetcher downloads pictures over HTTP(S) and stores them.
type Fetcher struct {
	Client *http.Client // default: 5 s time-out
	Images Images
	Users  Users
	// Allow, if set, must accept the URL (and every redirect's): the server
	// fetches nothing else.
	Allow func(*url.URL) bool
}

// GooglePictures allows only Google's picture hosts over https.
func GooglePictures(u *url.URL) bool {
	h := u.Hostname()
	return u.Scheme == "https" && (h == "googleusercontent.com" || strings.HasSuffix(h, ".googleusercontent.com"))
}

// SetFromURL downloads the picture at url, checks it is a PNG, JPEG or WebP
// of sane size, stores it and makes it the user's avatar if they had none.
func (f Fetcher) SetFromURL(ctx context.Context, userID int64, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || (f.Allow != nil && !f.Allow(u)) {
		return errors.New("avatars: picture URL not allowed")
	}
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	if f.Allow != nil {
		c := *client
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 || !f.Allow(req.URL) {
				return errors.New("avatars: redirect not allowed")
			}
			return nil
		}
		client = &c
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("avatars: download: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("avatars: download: %s", res.Status)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, MaxBytes+1))
	if err != nil {
		return fmt.Errorf("avatars: download: %w", err)
	}
	if len(data) > MaxBytes {
		return errors.New("avatars: picture too large")
	}
	img, err := upload.Check(data)
	if err != nil {
		return fmt.Errorf("avatars: %w", err)
	}
	id, err := f.Images.SaveImage(ctx, img.MIME, img.Data)
	if err != nil {
		return err
	}
	return f.Users.SetAvatarIfNone(ctx, userID, id)
}
