package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func pagesFixture() fstest.MapFS {
	return fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html><head><title>app</title>` +
			`<script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>`)},
		"index.html.br":      {Data: []byte("br-index")},
		"page-preloads.json": {Data: []byte(`{"home":["/assets/home-1.js"],"auction":["/assets/auction-1.js","/assets/bits-1.js"],"ppt":["/assets/ppt-1.js"]}`)},
	}
}

func getPage(t *testing.T, target string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	rec := httptest.NewRecorder()
	s := &Server{Web: pagesFixture()}
	s.Config.DefaultTournament = `PPL<7>`
	s.webApp().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("%s: status %d, cache-control %q", target, rec.Code, rec.Header().Get("Cache-Control"))
	}
	return rec.Body.String()
}

func TestAPageNamesItsOwnChunksInModulepreloadLinks(t *testing.T) {
	body := getPage(t, "/auction")
	for _, f := range []string{"/assets/auction-1.js", "/assets/bits-1.js"} {
		if !strings.Contains(body, `<link rel="modulepreload" fetchpriority="low" crossorigin href="`+f+`">`) {
			t.Errorf("/auction does not preload %s:\n%s", f, body)
		}
	}
	if strings.Contains(body, "home-1.js") {
		t.Errorf("/auction preloads the home page's chunk")
	}
	if !strings.Contains(getPage(t, "/"), "/assets/home-1.js") {
		t.Errorf("/ does not preload its chunk")
	}
}

func TestAPageIsPaintedFromTheHTMLWithItsHeadAndTheHeaderEscaped(t *testing.T) {
	body := getPage(t, "/auction")
	for _, want := range []string{
		`<header class="site-header "`,
		`<a aria-current="page" href="/auction" class="nav-link active">Auction</a>`,
		`<a href="/tournament" class="nav-link ">Tournament</a>`,
		`<h1>Auction · PPL&lt;7&gt;</h1>`, // the tournament's name, escaped
		`<main id="main" tabindex="-1">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/auction lacks %s", want)
		}
	}
	if strings.Contains(body, "PPL<7>") {
		t.Errorf("the tournament's name is written unescaped")
	}
	// No sign-in buttons: the header does not know yet whether the visitor is signed in.
	if !strings.Contains(body, `<div class="auth-area"></div>`) {
		t.Errorf("the first paint's header has sign-in buttons")
	}
}

func TestPagesWithoutASiteHeaderOrAChunkGetTheAppAsBuilt(t *testing.T) {
	if body := getPage(t, "/ppt"); !strings.Contains(body, `<div id="root"></div>`) || !strings.Contains(body, "ppt-1.js") {
		t.Errorf("/ppt: want an empty root and its chunk preloaded:\n%s", body)
	}
	// A page the build lists no chunk for (here /tournament) is sent index.html as it is.
	if body := getPage(t, "/tournament"); !strings.Contains(body, `<div id="root"></div>`) {
		t.Errorf("/tournament without a chunk listed: got %s", body)
	}
}

func TestPageOfPathFollowsTheAppsRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/": "home", "/tournament": "tournament", "/auction/": "auction", "/matches/12": "match",
		"/matches/x": "", "/admin/matches": "admin-matches", "/admin/metrics": "admin-metrics", "/admin": "admin", "/ppt": "ppt",
		"/overlay/auction": "", "/nope": "", "/notifications/off": "",
	} {
		if got := pageOfPath(path); got != want {
			t.Errorf("pageOfPath(%q) = %q, want %q", path, got, want)
		}
	}
}
