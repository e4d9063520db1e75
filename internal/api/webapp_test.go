package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func webFixture() fstest.MapFS {
	return fstest.MapFS{
		"index.html":            {Data: []byte("<!doctype html><html><head><title>app</title></head><body><div id=\"root\"></div></body></html>")},
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

// The app's pages get index.html uncached, with their link preview (so in
// gzip, made here); a path that is no page gets the build's brotli copy.
func TestWebAppRoutesGetIndexUncached(t *testing.T) {
	rec := getWeb(t, "/auction", "br, gzip")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("status %d encoding %q cache-control %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Cache-Control"))
	}
	if rec := getWeb(t, "/auction", ""); !strings.Contains(rec.Body.String(), `<meta property="og:url" content="http://example.com/auction">`) {
		t.Fatalf("no link preview: %s", rec.Body.String())
	}
	if rec := getWeb(t, "/no-such-page", "br"); rec.Code != http.StatusNotFound || rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "br-index" {
		t.Fatalf("not found: %d %q %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	if rec := getWeb(t, "/robots.txt", ""); rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("robots.txt: %d %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
}

// Every static file answers its own type whatever encoding the client
// takes: the type comes from the server's table, never from the host's
// mime.types (Debian's slim image has none, and the manifest went out as
// text/plain to a client without Accept-Encoding).
func TestWebAppStaticFilesHaveTheirTypeInEveryEncoding(t *testing.T) {
	web := fstest.MapFS{
		"index.html":                 {Data: []byte("<!doctype html><title>app</title>")},
		"manifest.webmanifest":       {Data: []byte(`{"name":"Pitlane"}`)},
		"manifest.webmanifest.br":    {Data: []byte("br-manifest")},
		"page-preloads.json":         {Data: []byte(`{}`)},
		"assets/app-1a2b.js":         {Data: []byte("console.log(1)")},
		"assets/app-1a2b.js.map":     {Data: []byte(`{"version":3}`)},
		"assets/app-1a2b.css":        {Data: []byte("body{}")},
		"favicon.svg":                {Data: []byte("<svg/>")},
		"robots.txt":                 {Data: []byte("User-agent: *\n")},
		"icon-192.png":               {Data: []byte("\x89PNG\r\n\x1a\n")},
		"favicon.ico":                {Data: []byte("\x00\x00\x01\x00")},
		"assets/font-1a2b.woff2":     {Data: []byte("wOF2")},
		"assets/kart-1a2b.webp":      {Data: []byte("RIFF")},
		"offline.html":               {Data: []byte("<p>offline</p>")},
		"assets/worker-1a2b.mjs":     {Data: []byte("export {}")},
		"assets/picture-1a2b.avif":   {Data: []byte("avif")},
		"assets/picture-1a2b.jpg":    {Data: []byte("\xff\xd8\xff")},
		"assets/picture-1a2b.gif":    {Data: []byte("GIF89a")},
		"assets/data-1a2b.wasm":      {Data: []byte("\x00asm")},
		"assets/sitemap-1a2b.xml":    {Data: []byte("<urlset/>")},
		"assets/font-1a2b.woff":      {Data: []byte("wOFF")},
		"assets/notice-1a2b.LICENSE": {Data: []byte("MIT")},
	}
	want := map[string]string{
		"/manifest.webmanifest":       "application/manifest+json",
		"/page-preloads.json":         "application/json",
		"/assets/app-1a2b.js":         "text/javascript; charset=utf-8",
		"/assets/app-1a2b.js.map":     "application/json",
		"/assets/app-1a2b.css":        "text/css; charset=utf-8",
		"/favicon.svg":                "image/svg+xml",
		"/robots.txt":                 "text/plain; charset=utf-8",
		"/icon-192.png":               "image/png",
		"/favicon.ico":                "image/x-icon",
		"/assets/font-1a2b.woff2":     "font/woff2",
		"/assets/font-1a2b.woff":      "font/woff",
		"/assets/kart-1a2b.webp":      "image/webp",
		"/offline.html":               "text/html; charset=utf-8",
		"/assets/worker-1a2b.mjs":     "text/javascript; charset=utf-8",
		"/assets/picture-1a2b.avif":   "image/avif",
		"/assets/picture-1a2b.jpg":    "image/jpeg",
		"/assets/picture-1a2b.gif":    "image/gif",
		"/assets/data-1a2b.wasm":      "application/wasm",
		"/assets/sitemap-1a2b.xml":    "text/xml; charset=utf-8",
		"/assets/notice-1a2b.LICENSE": "application/octet-stream",
	}
	srv := (&Server{Web: web}).webApp()
	for target, ct := range want {
		for _, enc := range []string{"", "gzip", "br", "gzip, br", "identity"} {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				req := httptest.NewRequest(method, target, nil)
				if enc != "" {
					req.Header.Set("Accept-Encoding", enc)
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ct {
					t.Errorf("%s %s, Accept-Encoding %q: %d %q, want %q", method, target, enc, rec.Code, rec.Header().Get("Content-Type"), ct)
				}
			}
		}
	}
}

// Every page of the web app's router (web/src/lib/page-patterns.json) is a
// page the server sends the app for with 200, not its not-found answer.
func TestEveryPageOfTheRouterIsAnAppRoute(t *testing.T) {
	raw, err := os.ReadFile("../../web/src/lib/page-patterns.json")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	if err := json.Unmarshal(raw, &patterns); err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer(":id", "12", ":name", "PPL7", ":team", "A")
	for _, p := range patterns {
		if path := fill.Replace(p); !isAppRoute(path) {
			t.Errorf("%s (%s) is not an app route", p, path)
		}
	}
}
