package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"strings"
	"sync"

	"github.com/pitlane/pitlane/internal/tournament"
)

// pageOfPath names the page of the app a path opens, as the web build names
// its route files (web/src/app/routes): "" for a path that opens none (the
// not-found page, the overlays).
func pageOfPath(p string) string {
	p = strings.TrimSuffix(p, "/")
	switch {
	case p == "":
		return "home"
	case p == "/admin/matches":
		return "admin-matches"
	case p == "/admin/metrics":
		return "admin-metrics"
	case strings.HasPrefix(p, "/matches/") && isAppRoute(p):
		return "match"
	}
	switch name := strings.TrimPrefix(p, "/"); name {
	case "tournament", "contact", "auction", "captain", "admin", "ppt":
		return name
	}
	return ""
}

//go:embed firstpaint.html
var firstPaintHTML string

var firstPaintTemplates = template.Must(template.New("first-paint").Parse(firstPaintHTML))

// navLinks are the header's links as the app shows them to any visitor;
// Page is the page on which the link is the current one.
var navLinks = []struct{ To, Label, Page string }{
	{"/#home", "Home", "home"}, {"/tournament", "Tournament", "tournament"}, {"/auction", "Auction", "auction"}, {"/league", "League", "league"},
	{"/#news", "News", ""}, {"/contact", "Contact", "contact"},
}

type navLink struct {
	To, Label string
	Active    bool
}

// paintSeason is what a page's first paint says of the site's current
// season: the app's first render says the same (web/src/app/home), from
// the season's data the document carries (seasonData).
type paintSeason struct {
	Tournament  string // its name
	DisplayName string
	Hero        string
	Sub         string // the home page's line under the hero
	Banner      string // the banner's URL, "" for none
	Status      string // its phase, "" when unknown: /auction says "Live" only during the auction
	Data        string // seasonData's JSON, "" when the season could not be read
}

// heroLines are the home page's line under the hero of a season without a
// description, by phase (web/src/app/home/hero.tsx says the same).
var heroLines = map[string]string{
	tournament.StatusRegistration: "Race for one of eight teams. Register with your in-game stats, get drafted by a captain, and chase the cup and the Red Cap.",
	tournament.StatusAuction:      "Registration is closed: the captains are building their teams in a live auction.",
	tournament.StatusMatches:      "The teams are drafted and the matches are on: follow the bracket, the Points Table and the Red Cap.",
	tournament.StatusCompleted:    "The season is over: the cup and the Red Cap have their winners.",
}

// seasonData is the season as the app needs it for its first render, read
// by web/src/lib/first-paint-season.ts: the current season's name and its
// summary as GET /api/tournament/info gives it (its places aside).
type seasonData struct {
	Tournament string     `json:"tournament"`
	Info       seasonInfo `json:"info"`
}

type seasonInfo struct {
	Name             string `json:"name"`
	Status           string `json:"status"`
	RegistrationOpen bool   `json:"registration_open"`
	tournament.Identity
}

// seasonOf is t's first paint.
func seasonOf(t tournament.Tournament) paintSeason {
	id := t.Identity()
	p := paintSeason{Tournament: t.Name, DisplayName: id.DisplayName, Hero: id.Hero, Sub: id.Description, Status: t.Status}
	if p.Sub == "" {
		p.Sub = heroLines[t.Status]
	}
	if id.BannerURL != nil {
		p.Banner = *id.BannerURL
	}
	data, _ := json.Marshal(seasonData{Tournament: t.Name,
		Info: seasonInfo{Name: t.Name, Status: t.Status, RegistrationOpen: t.RegistrationOpen(), Identity: id}})
	p.Data = string(data)
	return p
}

// unknownSeason is the first paint when the season cannot be read (the
// database is down): its name, and nothing the app would not say either
// before its data has come.
func unknownSeason(name string) paintSeason {
	return paintSeason{Tournament: name, DisplayName: name}
}

// firstPaint is what the server writes inside #root for a page of the site
// (firstpaint.html): the header, and the page's head where it says no more
// than the season's name and identity. The deck (/ppt) has no site header:
// nothing.
func firstPaint(page string, season paintSeason) (string, error) {
	if page == "ppt" || page == "" {
		return "", nil
	}
	var body bytes.Buffer
	if t := firstPaintTemplates.Lookup(page); t != nil {
		if err := t.Execute(&body, season); err != nil {
			return "", err
		}
	}
	links := make([]navLink, len(navLinks))
	for i, l := range navLinks {
		links[i] = navLink{To: l.To, Label: l.Label, Active: l.Page == page}
	}
	var out bytes.Buffer
	err := firstPaintTemplates.ExecuteTemplate(&out, "site", struct {
		Links []navLink
		Body  template.HTML
	}{links, template.HTML(body.String())})
	return out.String(), err
}

// pageDoc is index.html as sent for one page, and its gzip.
type pageDoc struct{ raw, gz []byte }

// pageDocs makes, for each page the build lists in page-preloads.json,
// index.html with the page's first paint inside #root, the season's data
// beside it and its title, and naming the page's own JavaScript in
// modulepreload links: the browser paints the page's head from the HTML
// alone, and fetches the page's chunk beside the entry instead of after the
// entry has run and asked for it, at low priority like the entry (the web
// build's vite.config.ts says why: nothing should hold the paint back).
// A page's document follows the season, so each is made when first asked
// for with a season and kept for the next requests with that season.
type pageDocs struct {
	index    []byte
	preloads map[string][]string // nil: an older build, or none: index.html as it is

	mu    sync.Mutex
	built map[string]pageDoc // by page and season
}

// maxBuiltDocs bounds the documents kept: a few pages for a season or two.
const maxBuiltDocs = 64

func newPageDocs(web fs.FS, index []byte) (*pageDocs, error) {
	d := &pageDocs{index: index, built: map[string]pageDoc{}}
	if web == nil {
		return d, nil
	}
	raw, err := fs.ReadFile(web, "page-preloads.json")
	if err != nil {
		return d, nil
	}
	if err := json.Unmarshal(raw, &d.preloads); err != nil {
		return nil, err
	}
	return d, nil
}

// has tells a page the build made a document for.
func (d *pageDocs) has(page string) bool {
	_, ok := d.preloads[page]
	return ok
}

// linkPreview is a document's link preview: its preview for the page at
// path on the site at base (the zero value: none, the season's title).
type linkPreview struct {
	pv         preview
	base, path string
}

// doc is page's document with season's first paint and its link preview.
func (d *pageDocs) doc(page string, season paintSeason, link linkPreview) (pageDoc, error) {
	key := page + "\x00" + season.Tournament + "\x00" + season.DisplayName + "\x00" + season.Hero + "\x00" + season.Sub +
		"\x00" + season.Banner + "\x00" + season.Data + "\x00" + fmt.Sprintf("%#v", link)
	d.mu.Lock()
	doc, ok := d.built[key]
	d.mu.Unlock()
	if ok {
		return doc, nil
	}
	paint, err := firstPaint(page, season)
	if err != nil {
		return pageDoc{}, err
	}
	var head strings.Builder
	for _, f := range d.preloads[page] {
		head.WriteString(`<link rel="modulepreload" fetchpriority="low" crossorigin href="` + html.EscapeString(f) + `">`)
	}
	root := `<div id="root">` + paint + `</div>`
	if season.Data != "" {
		// JSON escapes <, > and &, so nothing in it can end the script.
		root += `<script type="application/json" id="season-data">` + season.Data + `</script>`
	}
	raw := bytes.Replace(d.index, []byte("</head>"), []byte(head.String()+"</head>"), 1)
	raw = bytes.Replace(raw, []byte(`<div id="root"></div>`), []byte(root), 1)
	if link.pv.Title != "" {
		raw = withPreview(raw, link.pv, link.base, link.path)
	} else {
		raw = titled(raw, "Pitlane · "+season.DisplayName+" Smash Karts league")
	}
	doc = pageDoc{raw: raw, gz: gzipBytes(raw)}
	d.mu.Lock()
	if len(d.built) >= maxBuiltDocs {
		clear(d.built)
	}
	d.built[key] = doc
	d.mu.Unlock()
	return doc, nil
}

// previewed is doc (the site's index.html or an overlay's, named by variant)
// with link's preview, kept for the next requests with the same preview.
func (d *pageDocs) previewed(variant string, doc []byte, link linkPreview) pageDoc {
	key := "\x01" + variant + "\x00" + fmt.Sprintf("%#v", link)
	d.mu.Lock()
	out, ok := d.built[key]
	d.mu.Unlock()
	if ok {
		return out
	}
	raw := withPreview(doc, link.pv, link.base, link.path)
	out = pageDoc{raw: raw, gz: gzipBytes(raw)}
	d.mu.Lock()
	if len(d.built) >= maxBuiltDocs {
		clear(d.built)
	}
	d.built[key] = out
	d.mu.Unlock()
	return out
}

// titled gives the document the title (escaped); the app's pages then set
// their own.
func titled(doc []byte, title string) []byte {
	start := bytes.Index(doc, []byte("<title>"))
	end := bytes.Index(doc, []byte("</title>"))
	if start < 0 || end < start {
		return doc
	}
	out := append([]byte{}, doc[:start+len("<title>")]...)
	out = append(out, html.EscapeString(title)...)
	return append(out, doc[end:]...)
}
