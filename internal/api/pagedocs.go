package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html"
	"html/template"
	"io/fs"
	"strings"
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
	{"/#home", "Home", "home"}, {"/tournament", "Tournament", "tournament"}, {"/auction", "Auction", "auction"},
	{"/#news", "News", ""}, {"/contact", "Contact", "contact"},
}

type navLink struct {
	To, Label string
	Active    bool
}

// firstPaint is what the server writes inside #root for a page of the site
// (firstpaint.html): the header, and the page's head where it says no more
// than the tournament's name. The deck (/ppt) has no site header: nothing.
func firstPaint(page, tournament string) (string, error) {
	if page == "ppt" || page == "" {
		return "", nil
	}
	var body bytes.Buffer
	if t := firstPaintTemplates.Lookup(page); t != nil {
		if err := t.Execute(&body, struct{ Tournament string }{tournament}); err != nil {
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
// index.html with the page's first paint inside #root, and naming the page's
// own JavaScript in modulepreload links: the browser paints the page's head
// from the HTML alone, and fetches the page's chunk beside the entry instead
// of after the entry has run and asked for it, at low priority like the entry
// (the web build's vite.config.ts says why: nothing should hold the paint back).
func pageDocs(web fs.FS, index []byte, tournament string) (map[string]pageDoc, error) {
	docs := map[string]pageDoc{}
	if web == nil {
		return docs, nil
	}
	raw, err := fs.ReadFile(web, "page-preloads.json")
	if err != nil {
		return docs, nil // an older build, or none: index.html as it is
	}
	var preloads map[string][]string
	if err := json.Unmarshal(raw, &preloads); err != nil {
		return nil, err
	}
	for page, files := range preloads {
		paint, err := firstPaint(page, tournament)
		if err != nil {
			return nil, err
		}
		var links strings.Builder
		for _, f := range files {
			links.WriteString(`<link rel="modulepreload" fetchpriority="low" crossorigin href="` + html.EscapeString(f) + `">`)
		}
		doc := bytes.Replace(index, []byte("</head>"), []byte(links.String()+"</head>"), 1)
		doc = bytes.Replace(doc, []byte(`<div id="root"></div>`), []byte(`<div id="root">`+paint+`</div>`), 1)
		docs[page] = pageDoc{raw: doc, gz: gzipBytes(doc)}
	}
	return docs, nil
}
