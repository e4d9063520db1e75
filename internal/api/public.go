// The public read API: the league's GETs that anyone may make, from any
// site (stream overlays, a league's own pages), with ETags so a poller pays
// for a body only when it changed.

package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// publicRead marks a GET as part of the public read API:
//
//   - CORS from any origin, read-only and without credentials
//     (Access-Control-Allow-Origin: *), unless cors already answered for an
//     origin of CORS_ORIGINS, whose credentialed calls keep their headers;
//   - a strong ETag, the hash of the JSON body, and 304 Not Modified to an
//     If-None-Match that names it;
//   - Cache-Control: no-cache (private for a signed-in caller, whose answer
//     may show more), so caches keep the body and ask again every time.
//
// The ETag hashes the body before compression: the gzipped and plain
// answers share it, told apart by the Vary: Accept-Encoding of the
// compression.
func publicRead(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		addVary(h, "Origin")
		if r.Header.Get("Origin") != "" && h.Get("Access-Control-Allow-Origin") == "" {
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", exposedHeaders)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		rec := &recorder{header: h, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if rec.status != http.StatusOK || h.Get("ETag") != "" {
			// Errors as they are; a handler with ETags of its own
			// (the roster cache) has already answered If-None-Match.
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
			return
		}
		sum := sha256.Sum256(rec.body.Bytes())
		etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
		h.Set("ETag", etag)
		if r.Header.Get("Authorization") != "" {
			h.Set("Cache-Control", "private, no-cache")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			h.Del("Content-Type")
			h.Del("Content-Length")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.Set("Content-Length", strconv.Itoa(rec.body.Len()))
		w.WriteHeader(http.StatusOK)
		w.Write(rec.body.Bytes())
	})
}

// etagMatches is If-None-Match's weak comparison: a list of tags, or *.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// addVary names a request header the answer varies by, once.
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// recorder keeps a handler's status and body so the ETag can be computed
// before anything is sent; its headers are the response's own.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
