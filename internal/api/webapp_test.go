package api

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func webFixture() fstest.MapFS {
	return fstest.MapFS{
		"index.html":            {Data: []byte("<!doctype html><title>app</title>")},
		"index.html.br":         {Data: []byte("br-index")},
		"assets/app-1a2b.js":    {Data: []byte("console.log(1)")},
		"assets/app-1a2b.js.br": {Data: []byte("br-js")},
		"assets/kart-9f.svg":    {Data: []byte("<svg/>")},
		"robots.txt":            {Data: []byte("User-agent: *\nAllow: /\n")},
	}
}

func getWeb(t *testing.T, target, encoding string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	rec := httptest.NewRecorder()
	(&Server{Web: webFixture()}).webApp().ServeHTTP(rec, req)
	return rec
}

func TestWebAppHashedAssetsAreCachedForEverAndSentAsBrotliWhenAccepted(t *testing.T) {
	rec := getWeb(t, "/assets/app-1a2b.js", "gzip, deflate, br")
	if rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "br-js" {
		t.Fatalf("encoding %q body %q, want the build's brotli copy", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	if rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("cache-control %q", rec.Header().Get("Cache-Control"))
	}
	if rec.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Fatalf("content-type %q", rec.Header().Get("Content-Type"))
	}
}

func TestWebAppFallsBackToGzipWithoutBrotli(t *testing.T) {
	for _, enc := range []string{"gzip", "gzip, br;q=0"} {
		rec := getWeb(t, "/assets/app-1a2b.js", enc)
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("Accept-Encoding %q: encoding %q, want gzip", enc, rec.Header().Get("Content-Encoding"))
		}
	}
	// A text file with no brotli copy is gzipped here.
	if rec := getWeb(t, "/assets/kart-9f.svg", "br, gzip"); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("svg encoding %q, want gzip", rec.Header().Get("Content-Encoding"))
	}
	if rec := getWeb(t, "/assets/app-1a2b.js", ""); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "console.log(1)" {
		t.Fatalf("no Accept-Encoding: got %q %q", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
}

func TestWebAppRoutesGetIndexUncachedInBrotli(t *testing.T) {
	rec := getWeb(t, "/auction", "br")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "br-index" {
		t.Fatalf("status %d encoding %q body %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	if rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("index cache-control %q, want no-cache", rec.Header().Get("Cache-Control"))
	}
	if rec := getWeb(t, "/robots.txt", ""); rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("robots.txt: %d %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
}
