package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// appRoutes are the React app's routes; any other path gets the app with a
// 404 status, and the app shows its not-found page.
var appRoutes = map[string]bool{"/": true, "/tournament": true, "/contact": true, "/ppt": true, "/admin": true,
	"/admin/matches": true, "/admin/metrics": true, "/auction": true, "/captain": true, "/notifications/off": true,
	"/league": true, "/search": true, "/streams": true, "/rooms": true}

// isAppRoute tells the app's routes, /matches/{id} and the stream
// overlays among them.
func isAppRoute(p string) bool {
	p = strings.TrimSuffix(p, "/")
	if parts := strings.Split(strings.TrimPrefix(p, "/"), "/"); len(parts) == 4 && parts[0] == "tournaments" && parts[2] == "teams" {
		return parts[1] != "" && parts[3] != ""
	}
	for _, prefix := range []string{"/matches/", "/overlay/match/", "/players/", "/rooms/"} {
		if id, ok := strings.CutPrefix(p, prefix); ok {
			_, err := strconv.ParseInt(id, 10, 64)
			return err == nil
		}
	}
	return p == "" || appRoutes[p] || p == "/overlay/auction" || p == "/overlay/standings"
}

// isOverlay tells a stream overlay's page, whose document is marked so
// that its very first paint is transparent (web/src/app/overlay).
func isOverlay(p string) bool { return strings.HasPrefix(p, "/overlay/") }

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pitlane</title></head>
<body style="background:#1A1A1A;color:#eee;font-family:sans-serif;padding:2rem"><h1>Pitlane</h1>
<p>The web app is not built. Run <code>make run</code> (or <code>make web</code>) and reload.</p></body></html>`

// webApp serves the built app: hashed assets cached for ever, index.html
// for the app's routes. The web build writes a brotli copy (name.br) of each
// text file; a browser that accepts br gets it, any other gzip made here.
func (s *Server) webApp() http.Handler {
	var index []byte
	if s.Web != nil {
		index, _ = fs.ReadFile(s.Web, "index.html")
	}
	if index == nil {
		index = []byte(notBuilt)
	}
	indexGz := gzipBytes(index)
	overlay := bytes.Replace(index, []byte("<html "), []byte(`<html class="overlay" `), 1)
	var indexBr []byte
	if s.Web != nil {
		indexBr, _ = fs.ReadFile(s.Web, "index.html.br")
	}
	pages, err := newPageDocs(s.Web, index)
	if err != nil {
		if s.Log != nil {
			s.Log.Error("web app: the pages' first paint", "err", err)
		}
		pages, _ = newPageDocs(nil, index)
	}
	files := http.FileServerFS(emptyIfNil(s.Web))
	gz := &gzipAssets{m: map[string][]byte{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if name := strings.TrimPrefix(p, "/"); name != "" && name != "index.html" && s.Web != nil {
			if st, err := fs.Stat(s.Web, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				if serveBrotli(w, r, s.Web, name) || gz.serve(w, r, s.Web, name) {
					return
				}
				// Set here, the file server neither looks the type up nor sniffs it.
				w.Header().Set("Content-Type", typeOf(name))
				if compressible(name) {
					w.Header().Add("Vary", "Accept-Encoding")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		status := http.StatusOK
		if !isAppRoute(p) {
			status = http.StatusNotFound
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Add("Vary", "Accept-Encoding")
		base := s.siteBase(r)
		if pv, ok, found := s.previewOf(r.Context(), p); ok {
			if !found {
				status = http.StatusNotFound
			}
			doc := withPreview(index, pv, base, p)
			if acceptsGzip(r) {
				doc = gzipFast(doc)
				w.Header().Set("Content-Encoding", "gzip")
			}
			w.WriteHeader(status)
			if r.Method == http.MethodGet {
				w.Write(doc)
			}
			return
		}
		body := index
		if status == http.StatusNotFound {
			// No page: the app's not-found page, without a preview.
			switch {
			case indexBr != nil && accepts(r, "br"):
				body = indexBr
				w.Header().Set("Content-Encoding", "br")
			case acceptsGzip(r):
				body = indexGz
				w.Header().Set("Content-Encoding", "gzip")
			}
			w.WriteHeader(status)
			if r.Method == http.MethodGet {
				w.Write(body)
			}
			return
		}
		// Every page carries its link preview (Discord's unfurler runs no
		// script): the pages painted from the HTML keep theirs in their
		// documents, the others get it here.
		season := s.seasonForPaint(r.Context())
		link := linkPreview{pv: pagePreview(p, season), base: base, path: p}
		if name := pageOfPath(p); pages.has(name) {
			page, err := pages.doc(name, season, link)
			if err == nil {
				body = page.raw
				if acceptsGzip(r) {
					body = page.gz
					w.Header().Set("Content-Encoding", "gzip")
				}
				w.WriteHeader(status)
				if r.Method == http.MethodGet {
					w.Write(body)
				}
				return
			}
			if s.Log != nil {
				s.Log.Error("web app: the page's first paint", "page", name, "err", err)
			}
		}
		variant, doc := "index", index
		if isOverlay(p) {
			variant, doc = "overlay", overlay
		}
		page := pages.previewed(variant, doc, link)
		body = page.raw
		if acceptsGzip(r) {
			body = page.gz
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			w.Write(body)
		}
	})
}

// seasonForPaint reads the site's current season for a page's first paint;
// without the database, or when it is slow, the page is painted with the
// configured tournament's name alone, as the app shows it before its data.
func (s *Server) seasonForPaint(ctx context.Context) paintSeason {
	if s.Tournaments == nil {
		return unknownSeason(s.Config.DefaultTournament)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	t, err := s.Tournaments.Current(ctx)
	if err != nil {
		return unknownSeason(s.Config.DefaultTournament)
	}
	return seasonOf(t)
}

type emptyFS struct{}

func (emptyFS) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }

func emptyIfNil(f fs.FS) fs.FS {
	if f == nil {
		return emptyFS{}
	}
	return f
}

// gzipAssets compresses each text asset once, on first request, and keeps
// it: the embedded files never change while the process runs.
type gzipAssets struct {
	mu sync.Mutex
	m  map[string][]byte
}

// staticType is a static file's Content-Type, and whether it is text worth
// compressing.
type staticType struct {
	contentType  string
	compressible bool
}

// staticTypes name the type of every kind of file the web build makes, so
// that no answer depends on the host's mime.types (Debian's slim image has
// none: the manifest went out as text/plain) or on sniffing. A file of any
// other kind is sent as application/octet-stream.
var staticTypes = map[string]staticType{
	".js": {"text/javascript; charset=utf-8", true}, ".mjs": {"text/javascript; charset=utf-8", true},
	".css": {"text/css; charset=utf-8", true}, ".html": {"text/html; charset=utf-8", true},
	".svg": {"image/svg+xml", true}, ".json": {"application/json", true}, ".map": {"application/json", true},
	".webmanifest": {"application/manifest+json", true}, ".txt": {"text/plain; charset=utf-8", true},
	".xml": {"text/xml; charset=utf-8", true}, ".wasm": {"application/wasm", true},
	".png": {"image/png", false}, ".jpg": {"image/jpeg", false}, ".jpeg": {"image/jpeg", false},
	".gif": {"image/gif", false}, ".webp": {"image/webp", false}, ".avif": {"image/avif", false},
	".ico": {"image/x-icon", false}, ".woff2": {"font/woff2", false}, ".woff": {"font/woff", false},
}

// typeOf is a static file's Content-Type.
func typeOf(name string) string {
	if t, ok := staticTypes[strings.ToLower(path.Ext(name))]; ok {
		return t.contentType
	}
	return "application/octet-stream"
}

// compressible tells a text file, sent compressed to a client that takes it.
func compressible(name string) bool { return staticTypes[strings.ToLower(path.Ext(name))].compressible }

func (g *gzipAssets) serve(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	if !compressible(name) || !acceptsGzip(r) {
		return false
	}
	g.mu.Lock()
	body, ok := g.m[name]
	g.mu.Unlock()
	if !ok {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return false
		}
		body = gzipBytes(raw)
		g.mu.Lock()
		g.m[name] = body
		g.mu.Unlock()
	}
	writeEncoded(w, r, typeOf(name), "gzip", body)
	return true
}

// serveBrotli answers with the build's brotli copy of a text file, when there
// is one and the browser takes br.
func serveBrotli(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	if !compressible(name) || !accepts(r, "br") {
		return false
	}
	body, err := fs.ReadFile(fsys, name+".br")
	if err != nil {
		return false
	}
	writeEncoded(w, r, typeOf(name), "br", body)
	return true
}

// writeEncoded answers with a compressed file (HEAD: its headers alone).
func writeEncoded(w http.ResponseWriter, r *http.Request, contentType, encoding string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Encoding", encoding)
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

func acceptsGzip(r *http.Request) bool { return accepts(r, "gzip") }

// accepts tells whether Accept-Encoding lists the coding (without q=0).
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), coding) {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// gzipBytes compresses what is kept and sent many times, at the best ratio.
func gzipBytes(b []byte) []byte { return gzipAt(b, gzip.BestCompression) }

// gzipFast compresses what is made for one answer, or a few, at the best speed.
func gzipFast(b []byte) []byte { return gzipAt(b, gzip.BestSpeed) }

func gzipAt(b []byte, level int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
