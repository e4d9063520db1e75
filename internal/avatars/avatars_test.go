package avatars

import (
	"net/url"
	"testing"
)

func TestGooglePicturesAllowsOnlyGoogleOverHTTPS(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://lh3.googleusercontent.com/a/ACg8oc=s96-c": true,
		"http://lh3.googleusercontent.com/a/x":             false,
		"https://googleusercontent.com.evil.example/x":     false,
		"https://169.254.169.254/latest/meta-data":         false,
		"https://evilgoogleusercontent.com/x":              false,
	} {
		u, _ := url.Parse(raw)
		if got := GooglePictures(u); got != want {
			t.Errorf("%s: %v, want %v", raw, got, want)
		}
	}
}
