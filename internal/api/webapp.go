package api

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// appRoutes are the React app's routes; any other path gets the app with a
// 404 status, and the app shows its not-found page.
var appRoutes = map[string]bool{"/": true, "/tournament": true, "/contact": true, "/ppt": true, "/admin": true}

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pitlane</title></head>
<body style="background:#1A1A1A;color:#eee;font-family:sans-serif;padding:2rem"><h1>Pitlane</h1>
<p>The web app is not built. Run <code>make run</code> (or <code>make web</code>) and reload.</p></body></html>`

// webApp serves the built app: hashed assets cached for ever, index.html
// for the app's routes.
func (s *Server) webApp() http.Handler {
	var index []byte
	if s.Web != nil {
		index, _ = fs.ReadFile(s.Web, "index.html")
	}
	if index == nil {
		index = []byte(notBuilt)
	}
	files := http.FileServerFS(emptyIfNil(s.Web))
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
				files.ServeHTTP(w, r)
				return
			}
		}
		status := http.StatusOK
		if !appRoutes[strings.TrimSuffix(p, "/")] && p != "/" {
			status = http.StatusNotFound
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			w.Write(index)
		}
	})
}

type emptyFS struct{}

func (emptyFS) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }

func emptyIfNil(f fs.FS) fs.FS {
	if f == nil {
		return emptyFS{}
	}
	return f
}
