package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pitlane/pitlane/internal/tournament"
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

var update = flag.Bool("update", false, "rewrite the golden files of internal/api/testdata")

// heroCase is one season the home page's hero is painted for: the data the
// document carries for the app (none when the season could not be read) and
// the hero the server paints. web/src/app/first-paint.test.tsx renders the
// app's hero from the same data and expects the same markup.
type heroCase struct {
	Case       string          `json:"case"`
	Tournament string          `json:"tournament"`
	Data       json.RawMessage `json:"data"`
	HTML       string          `json:"html"`
}

func TestTheHomeHeroIsPaintedAsTheAppRendersIt(t *testing.T) {
	day := func(s string) *time.Time {
		d, _ := time.Parse("2006-01-02", s)
		return &d
	}
	seasons := []struct {
		name string
		t    *tournament.Tournament
	}{
		{"a new season: the default hero, the registration's line", &tournament.Tournament{Name: "PPL8", Status: tournament.StatusRegistration}},
		{"the demo season in its auction", &tournament.Tournament{Name: "PPL7", Status: tournament.StatusAuction,
			Look: tournament.Look{DisplayName: "PPLS-6.0", Hero: "PPLS-6.0 is back"}}},
		{"a season with a description, dates and a banner, in its matches", &tournament.Tournament{Name: "PPL9", Status: tournament.StatusMatches,
			Look: tournament.Look{DisplayName: `Season <9> & "friends"`, Hero: "Go & win 'em all", Description: "Eight teams.\nOne night.",
				StartsOn: day("2026-12-01"), EndsOn: day("2026-12-20"), BannerID: strings.Repeat("ab", 32)}}},
		{"a finished season", &tournament.Tournament{Name: "PPL6", Status: tournament.StatusCompleted, Look: tournament.Look{DisplayName: "Six"}}},
		{"the season could not be read", nil},
	}
	var cases []heroCase
	for _, s := range seasons {
		season, c := unknownSeason("PPL7"), heroCase{Case: s.name, Tournament: "PPL7", Data: json.RawMessage("null")}
		if s.t != nil {
			season = seasonOf(*s.t)
			c.Tournament, c.Data = s.t.Name, json.RawMessage(season.Data)
		}
		paint, err := firstPaint("home", season)
		if err != nil {
			t.Fatal(err)
		}
		start, end := strings.Index(paint, `<section id="home"`), strings.Index(paint, "</section>")
		if start < 0 || end < start {
			t.Fatalf("%s: no hero in %s", s.name, paint)
		}
		c.HTML = paint[start : end+len("</section>")]
		cases = append(cases, c)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the golden file reads as the markup it holds
	enc.SetIndent("", "  ")
	if err := enc.Encode(cases); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	const golden = "testdata/home-hero.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("the home hero's first paint changed: run go test ./internal/api -run TestTheHomeHero -update, and check that web/src/app/first-paint.test.tsx still passes\n%s", got)
	}
	// The season's own words, escaped, and the phase's line where it has no description.
	var all strings.Builder
	for _, c := range cases {
		all.WriteString(c.HTML)
	}
	for _, want := range []string{`Smash Karts community league · Season &lt;9&gt; &amp; &#34;friends&#34;</p>`,
		`<h1 id="hero-title" class="hero-title">PPL8 is on</h1>`, "<p class=\"hero-sub\">Eight teams.\nOne night.</p>",
		`<section id="home" class="hero has-banner" aria-labelledby="hero-title"><img class="hero-banner" alt="" aria-hidden="true" src="/api/images/abab`,
		`<p class="hero-sub">` + heroLines[tournament.StatusAuction] + `</p>`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the painted heroes lack %s", want)
		}
	}
}

func TestAPageCarriesTheSeasonItWasPaintedWith(t *testing.T) {
	docs, err := newPageDocs(pagesFixture(), []byte(`<html><head><title>Pitlane</title></head><body><div id="root"></div></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	t8 := tournament.Tournament{Name: "PPL8", Status: tournament.StatusMatches, Look: tournament.Look{DisplayName: "Season </script> 8"}}
	doc, err := docs.doc("home", seasonOf(t8), linkPreview{})
	if err != nil {
		t.Fatal(err)
	}
	body := string(doc.raw)
	start := strings.Index(body, `<script type="application/json" id="season-data">`)
	if start < 0 {
		t.Fatalf("no season data: %s", body)
	}
	data := body[start+len(`<script type="application/json" id="season-data">`):]
	data = data[:strings.Index(data, "</script>")]
	var got seasonData
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if got.Tournament != "PPL8" || got.Info.Status != "matches" || got.Info.DisplayName != "Season </script> 8" || got.Info.Hero != "Season </script> 8 is on" {
		t.Fatalf("season data: %+v", got)
	}
	if !strings.Contains(body, "<title>Pitlane · Season &lt;/script&gt; 8 Smash Karts league</title>") {
		t.Errorf("title: %s", body)
	}
	// Another season is another document; the same season, the same one.
	again, _ := docs.doc("home", seasonOf(t8), linkPreview{})
	t8.Look.Hero = "Eight"
	other, _ := docs.doc("home", seasonOf(t8), linkPreview{})
	if &again.raw[0] != &doc.raw[0] || strings.Contains(string(doc.raw), ">Eight<") || !strings.Contains(string(other.raw), ">Eight</h1>") {
		t.Errorf("documents do not follow the season")
	}
}

// The league's pages name the season as the app does: by its display name, in the title (issue 52).
func TestTheLeaguesPagesAreHeadedWithTheSeasonsDisplayName(t *testing.T) {
	season := seasonOf(tournament.Tournament{Name: "PPL7", Status: tournament.StatusMatches, Look: tournament.Look{DisplayName: "PPLS-6.0"}})
	for page, want := range map[string]string{
		"tournament": `<p class="hero-kicker">Tournament</p><h1>PPLS-6.0</h1>`,
		"auction":    `<h1>Auction · PPLS-6.0</h1>`,
		"captain":    `<h1>Captain · PPLS-6.0</h1>`,
		"admin":      `<h1>Admin · PPLS-6.0</h1>`,
	} {
		paint, err := firstPaint(page, season)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(paint, want) {
			t.Errorf("%s: want %s in its first paint:\n%s", page, want, paint)
		}
	}
}
