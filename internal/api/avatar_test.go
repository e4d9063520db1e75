package api_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/testkit"
)

// A Google account's picture becomes the player's avatar, stored once and
// served from /api/images; a picture that cannot be fetched costs only the
// photo, never the sign-in.
func TestGooglePictureBecomesTheAvatar(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 96, 96))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var photo bytes.Buffer
	jpeg.Encode(&photo, img, nil)
	pictures := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/photo.jpg" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(photo.Bytes())
	}))
	t.Cleanup(pictures.Close)
	s := newServer(t, testkit.Options{})

	login := func(email, picture string) map[string]any {
		t.Helper()
		claims := s.Google.Claims("sub-"+email, email)
		claims["picture"] = picture
		r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": s.Google.Sign(t, claims)})
		if r.Status != 200 {
			t.Fatalf("google login: %d %q", r.Status, r.Message())
		}
		return r.JSON["user"].(map[string]any)
	}

	user := login(testkit.UniqueEmail("photo"), pictures.URL+"/photo.jpg")
	avatar, _ := user["avatar"].(string)
	if !strings.HasPrefix(avatar, "/api/images/") {
		t.Fatalf("avatar = %v, want an /api/images URL", user["avatar"])
	}
	r := s.Do(t, "GET", avatar, "", nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/jpeg" || !bytes.Equal(r.Body, photo.Bytes()) {
		t.Fatalf("GET %s: %d %s, %d bytes", avatar, r.Status, r.Header.Get("Content-Type"), len(r.Body))
	}

	if user := login(testkit.UniqueEmail("nophoto"), pictures.URL+"/gone.jpg"); user["avatar"] != nil {
		t.Fatalf("avatar from a missing picture: %v", user["avatar"])
	}
}
