package api_test

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// webBuild is a built web app as the server reads it: index.html as Vite
// writes it, and the pages with a first paint of their own.
func webBuild() fstest.MapFS {
	return fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html lang="en"><head><meta charset="UTF-8" />` +
			`<meta name="description" content="Pitlane: the community home of the PPL Smash Karts league." />` +
			`<title>Pitlane · Smash Karts league</title><script type="module" crossorigin src="/assets/index-1.js"></script></head>` +
			`<body><div id="root"></div></body></html>`)},
		"page-preloads.json": {Data: []byte(`{"home":[],"tournament":[],"contact":[],"auction":[],"captain":[],"admin":[],"ppt":[],"match":[]}`)},
	}
}

var (
	metaTag  = regexp.MustCompile(`<meta\s[^>]*>`)
	metaAttr = regexp.MustCompile(`(property|name|content)="([^"]*)"`)
)

// metaTags are a page's <meta property|name content> tags, unescaped; a
// tag given twice is an error.
func metaTags(t *testing.T, page, body string) map[string]string {
	t.Helper()
	tags := map[string]string{}
	for _, tag := range metaTag.FindAllString(body, -1) {
		var key, content string
		for _, a := range metaAttr.FindAllStringSubmatch(tag, -1) {
			if a[1] == "content" {
				content = html.UnescapeString(a[2])
			} else {
				key = a[2]
			}
		}
		if key == "" {
			continue
		}
		if _, twice := tags[key]; twice {
			t.Errorf("%s: %s given twice", page, key)
		}
		tags[key] = content
	}
	return tags
}

// Every public page carries its Open Graph and Twitter card tags in the
// HTML the server sends, so Discord's unfurler (which runs no script) shows
// a card: the home page the season's name and hero line, a player's and a
// team's page theirs with their card's picture, every other page the site's.
// What a page would not show, its tags do not either: a hidden player is a
// name, a deleted one is no page. Everything is escaped.
func TestPublicPagesUnfurl(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Fresh(t)
	if _, err := demo.Load(ctx, db, demo.Options{Players: 40, Captains: true, Password: testkit.Password}); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, db, "PPL7", "matches"); err != nil {
		t.Fatal(err)
	}
	const base = "https://league.example"
	s := testkit.NewServer(t, db, testkit.Options{Admins: []string{demo.AdminEmail}, Web: webBuild(),
		Configure: func(c *config.Config) { c.PublicURL = base }})
	admin := s.Login(t, demo.AdminEmail, testkit.Password)
	const display, hero, line = `PPL "Seven" <Cup> & Co`, `Race & <win>`, `Eight teams, one "cup" </script>`
	if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", admin,
		map[string]any{"display_name": display, "hero": hero, "description": line}); r.Status != 200 {
		t.Fatalf("identity: %d %s", r.Status, r.Body)
	}

	player := s.SignUp(t, testkit.UniqueEmail("shown"), "shown_racer")
	s.SaveStats(t, player)
	shown := userID(t, s, player)
	shy := s.SignUp(t, testkit.UniqueEmail("shy"), "shy_racer")
	s.SaveStats(t, shy)
	hidden := userID(t, s, shy)
	if r := s.Do(t, "PUT", "/api/players/me/visibility", shy, map[string]any{"hidden": true}); r.Status != 200 {
		t.Fatalf("hide: %d %s", r.Status, r.Body)
	}
	gone := s.SignUp(t, testkit.UniqueEmail("gone"), "gone_racer")
	s.SaveStats(t, gone)
	goneID := userID(t, s, gone)
	if r := s.Do(t, "DELETE", "/api/me", gone, map[string]string{"password": testkit.Password}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	pages := []struct{ path, image string }{
		{"/", "/api/og/standings"},
		{"/tournament", "/api/og/standings"},
		{"/auction", "/api/og/standings"},
		{"/league", "/api/og/standings"},
		{"/search", "/api/og/standings"},
		{"/contact", "/api/og/standings"},
		{"/ppt", "/api/og/standings"},
		{"/matches/1", "/api/og/standings"},
		{"/captain", "/api/og/standings"},
		{fmt.Sprintf("/players/%d", shown), fmt.Sprintf("/api/og/players/%d", shown)},
		{fmt.Sprintf("/players/%d", hidden), fmt.Sprintf("/api/og/players/%d", hidden)},
		{"/tournaments/PPL7/teams/A", "/api/og/tournaments/PPL7/teams/A"},
	}
	for _, p := range pages {
		t.Run(strings.ReplaceAll(p.path, "/", "_"), func(t *testing.T) {
			status, body, _ := crawl(t, s, p.path)
			if status != 200 {
				t.Fatalf("%d", status)
			}
			tags := metaTags(t, p.path, body)
			for _, k := range []string{"og:title", "og:description", "og:image", "og:url", "og:type", "twitter:card"} {
				if tags[k] == "" {
					t.Errorf("no %s: %v", k, tags)
				}
			}
			if tags["og:url"] != base+p.path || tags["og:image"] != base+p.image || tags["twitter:card"] != "summary_large_image" {
				t.Errorf("url %q image %q card %q", tags["og:url"], tags["og:image"], tags["twitter:card"])
			}
			for _, raw := range []string{"<Cup>", "<win>", `"Seven"`, `"cup" </script>`} {
				if strings.Contains(body, raw) {
					t.Errorf("unescaped %q in the page", raw)
				}
			}
			u, _ := url.Parse(tags["og:image"])
			if status, img, h := crawl(t, s, u.Path); status != 200 || h.Get("Content-Type") != "image/png" || !strings.HasPrefix(img, "\x89PNG") {
				t.Errorf("og:image %s: %d %s", u.Path, status, h.Get("Content-Type"))
			}
		})
	}

	t.Run("HomeSaysTheSeasonsNameAndHeroLine", func(t *testing.T) {
		_, body, _ := crawl(t, s, "/")
		tags := metaTags(t, "/", body)
		if !strings.Contains(tags["og:title"], display) || !strings.Contains(tags["og:description"], hero) ||
			!strings.Contains(tags["og:description"], line) || tags["og:type"] != "website" {
			t.Fatalf("%v", tags)
		}
		if tags["twitter:title"] != tags["og:title"] || tags["description"] != tags["og:description"] {
			t.Fatalf("the page's own description and Twitter's differ from Open Graph's: %v", tags)
		}
	})
	t.Run("APlayerSaysTheirFigures", func(t *testing.T) {
		_, body, _ := crawl(t, s, fmt.Sprintf("/players/%d", shown))
		if tags := metaTags(t, "", body); !strings.Contains(tags["og:title"], "shown_racer") || !strings.Contains(tags["og:description"], "900 kills") {
			t.Fatalf("%v", tags)
		}
	})
	t.Run("AHiddenPlayerIsANameAlone", func(t *testing.T) {
		_, body, _ := crawl(t, s, fmt.Sprintf("/players/%d", hidden))
		tags := metaTags(t, "", body)
		if !strings.Contains(tags["og:title"], "shy_racer") {
			t.Fatalf("%v", tags)
		}
		for _, leak := range []string{"900", "450", "Level", "424242", "test racer", "@"} {
			if strings.Contains(body, leak) {
				t.Errorf("a hidden player's page says %q: %v", leak, tags)
			}
		}
	})
	t.Run("ADeletedPlayerIsNoPage", func(t *testing.T) {
		status, body, _ := crawl(t, s, fmt.Sprintf("/players/%d", goneID))
		if status != 404 || strings.Contains(body, "gone_racer") || strings.Contains(body, "900 kills") {
			t.Fatalf("%d %v", status, metaTags(t, "", body))
		}
	})
}
