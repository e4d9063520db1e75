package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"image"
	_ "image/jpeg" // karts uploaded as JPEG
	_ "image/png"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/pitlane/pitlane/internal/cards"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/records"
)

// Link previews: the public pages of the league's memory (a player, a
// team, the league's records) carry their title, description and Open
// Graph / Twitter card tags in the HTML the server sends, so a link pasted
// in Discord unfurls without running the app; og:image is a PNG drawn here
// (internal/cards), kept by the hash of what it shows.

// previewOf is the preview of a page path, if it is one of those pages:
// ok false for any other path; found false for a page of nothing (an
// unknown player or team), which answers 404 with the site's own tags.
func (s *Server) previewOf(ctx context.Context, p string) (pv preview, ok, found bool) {
	if s.Records == nil {
		return pv, false, false
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "players":
		id, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil || id <= 0 {
			return pv, false, false
		}
		prof, err := s.Records.Profile(ctx, core.Actor{}, id)
		if err != nil {
			return sitePreview, true, false
		}
		pv = preview{Title: prof.Name + " · Pitlane", Image: "/api/og/players/" + parts[1], Type: "profile",
			Description: "A player of the Smash Karts league on Pitlane."}
		if !prof.Hidden {
			pv.Description = fmt.Sprintf("Level %d · %d kills, %d deaths (K/D %.2f) in %d games", prof.Level, prof.Kills, prof.Deaths, prof.KD, prof.GamesPlayed)
			if prof.Titles > 0 || prof.RedCaps > 0 {
				pv.Description += " · " + core.Count(prof.Titles, "title", "titles") + ", " + core.Count(prof.RedCaps, "Red Cap", "Red Caps")
			}
		}
		return pv, true, true
	case len(parts) == 4 && parts[0] == "tournaments" && parts[2] == "teams":
		t, err := s.Records.Team(ctx, parts[1], parts[3])
		if err != nil {
			return sitePreview, true, false
		}
		pv = preview{Title: t.Name + " · " + t.DisplayName + " · Pitlane", Type: "website",
			Image: "/api/og/tournaments/" + t.Tournament + "/teams/" + t.Letter, Description: teamLine(t)}
		return pv, true, true
	case len(parts) == 1 && parts[0] == "league":
		return preview{Title: "League records · Pitlane", Type: "website", Image: "/api/og/standings",
			Description: "All-time leaderboards of the Smash Karts league: titles, kills, K/D, Red Caps, and every season's champion."}, true, true
	}
	return pv, false, false
}

func teamLine(t records.Team) string {
	parts := []string{}
	if t.Captain != nil {
		parts = append(parts, "Captain "+t.Captain.Name)
	}
	if t.Standing != nil {
		parts = append(parts, fmt.Sprintf("%d won, %d lost, %d points (#%d)", t.Standing.Won, t.Standing.Lost, t.Standing.Points, t.Position))
	}
	if t.Champion {
		parts = append(parts, "Champions")
	}
	return strings.Join(parts, " · ")
}

type preview struct{ Title, Description, Image, Type string }

var sitePreview = preview{Title: "Pitlane · Smash Karts league", Type: "website", Image: "/api/og/standings",
	Description: "The community home of the PPL Smash Karts league."}

// pagePreview is the preview of a page of the site other than the league's
// memory (previewOf): each says what the page holds of the current season,
// with the season's table as its picture; a page not listed has the site's.
func pagePreview(p string, season paintSeason) preview {
	name := season.DisplayName
	if name == "" {
		name = season.Tournament
	}
	if name == "" {
		return sitePreview
	}
	pv := preview{Type: "website", Image: "/api/og/standings"}
	switch page := pageOfPath(p); {
	case page == "home":
		pv.Title = "Pitlane · " + name + " Smash Karts league"
		pv.Description = joinLine(season.Hero, season.Sub)
		if pv.Description == "" {
			pv.Description = sitePreview.Description
		}
	case page == "tournament":
		pv.Title = "Tournament · " + name + " · Pitlane"
		pv.Description = "Registrations, teams, the bracket and the Points Table of " + name + "."
	case page == "auction":
		pv.Title = "Auction · " + name + " · Pitlane"
		pv.Description = "The captains draft their teams in a live auction: every lot, bid and sale of " + name + "."
	case page == "match":
		pv.Title = "Match · " + name + " · Pitlane"
		pv.Description = "A match of " + name + ": its teams, lineups, room and result."
	case page == "contact":
		pv.Title = "Contact · Pitlane"
		pv.Description = "Reach the organisers of the PPL Smash Karts league."
	case page == "ppt":
		pv.Title = name + " · the league in slides · Pitlane"
		pv.Description = "The PPL Smash Karts league in slides: the season, its format and its goals."
	case p == "/search":
		pv.Title = "Search players and teams · Pitlane"
		pv.Description = "Find a player or a team of the Smash Karts league, this season and every past one."
	default:
		pv = sitePreview
		pv.Title = "Pitlane · " + name + " Smash Karts league"
	}
	return pv
}

// joinLine joins a hero and the line under it, either may be empty.
func joinLine(hero, sub string) string {
	switch {
	case hero == "":
		return sub
	case sub == "":
		return hero
	}
	return hero + " — " + sub
}

// tags are the preview's head tags for the page at path, its og:url and
// og:image absolute URLs on base. Everything is escaped: names, a season's
// identity and the path are anyone's text.
func (pv preview) tags(base, path string) string {
	e := html.EscapeString
	img := base + pv.Image
	page := base + (&url.URL{Path: path}).EscapedPath()
	return `<meta property="og:site_name" content="Pitlane">` +
		`<meta property="og:type" content="` + e(pv.Type) + `">` +
		`<meta property="og:url" content="` + e(page) + `">` +
		`<meta property="og:title" content="` + e(pv.Title) + `">` +
		`<meta property="og:description" content="` + e(pv.Description) + `">` +
		`<meta property="og:image" content="` + e(img) + `">` +
		`<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">` +
		`<meta name="twitter:card" content="summary_large_image">` +
		`<meta name="twitter:title" content="` + e(pv.Title) + `">` +
		`<meta name="twitter:description" content="` + e(pv.Description) + `">` +
		`<meta name="twitter:image" content="` + e(img) + `">`
}

// withPreview is the document with the preview's title, description and
// tags, for the page at path.
func withPreview(doc []byte, pv preview, base, path string) []byte {
	out := titled(doc, pv.Title)
	if start := bytes.Index(out, []byte(`name="description"`)); start >= 0 {
		if c := bytes.Index(out[start:], []byte(`content="`)); c >= 0 {
			from := start + c + len(`content="`)
			if end := bytes.IndexByte(out[from:], '"'); end >= 0 {
				out = append(append(append([]byte{}, out[:from]...), html.EscapeString(pv.Description)...), out[from+end:]...)
			}
		}
	}
	return bytes.Replace(out, []byte("</head>"), []byte(pv.tags(base, path)+"</head>"), 1)
}

// siteBase is the site's address for absolute links: PUBLIC_URL, else the
// request's own host.
func (s *Server) siteBase(r *http.Request) string {
	if s.Config.PublicURL != "" {
		return s.Config.PublicURL
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// pngCache keeps drawn cards by the hash of what they show, the least
// recently used dropped first; its zero value is ready for use.
type pngCache struct {
	once  sync.Once
	cards *lru.Cache[string, []byte]
}

// cardsKept is how many drawn cards the cache keeps (about 30 KB each).
const cardsKept = 512

func (c *pngCache) kept() *lru.Cache[string, []byte] {
	c.once.Do(func() { c.cards, _ = lru.New[string, []byte](cardsKept) }) // fails only for a size <= 0
	return c.cards
}

func (c *pngCache) get(key string) ([]byte, bool) { return c.kept().Get(key) }

func (c *pngCache) put(key string, data []byte) { c.kept().Add(key, data) }

// ogRoutes serve the cards.
func (s *Server) ogRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/players/{id}", s.ogPlayer)
	r.Get("/tournaments/{name}/teams/{team}", s.ogTeam)
	r.Get("/standings", s.ogStandings)
	return r
}

// serveCard answers a card: 304 to its ETag, else from the cache, else
// drawn now. what is everything the card shows.
func (s *Server) serveCard(w http.ResponseWriter, r *http.Request, what any, draw func() []byte) {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%#v", what)))
	key := base64.RawURLEncoding.EncodeToString(sum[:18])
	etag := `"` + key + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	data, ok := s.cards.get(key)
	if !ok {
		data = draw()
		s.cards.put(key, data)
	}
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}

func (s *Server) ogPlayer(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Player")
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The public profile, read once for the crawlers that come together;
	// the card is drawn from it only when that profile has none yet.
	body, err := s.reads.do(r.Context(), "og-player\x00"+strconv.FormatInt(id, 10), func(ctx context.Context) (any, error) {
		return s.Records.Profile(ctx, core.Actor{}, id)
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.serveCard(w, r, string(body), func() []byte {
		var p records.Profile
		if err := json.Unmarshal(body, &p); err != nil {
			return cards.DrawPlayer(cards.Player{Name: "Player"})
		}
		card := cards.Player{Name: p.Name, Hidden: p.Hidden}
		if !p.Hidden && p.Details != nil {
			card = cards.Player{Name: p.Name, Level: p.Level, Tier: p.Tier, Kills: p.Kills, Deaths: p.Deaths, KD: p.KD,
				Games: p.GamesPlayed, Titles: p.Titles, RedCaps: p.RedCaps, Verified: p.StatsVerified}
			if p.CartImage != nil {
				if img, err := s.Images.FindImage(r.Context(), strings.TrimPrefix(*p.CartImage, "/api/images/")); err == nil {
					card.Kart, _, _ = image.Decode(bytes.NewReader(img.Data))
				}
			}
		}
		return cards.DrawPlayer(card)
	})
}

func (s *Server) ogTeam(w http.ResponseWriter, r *http.Request) {
	t, err := s.Records.Team(r.Context(), chi.URLParam(r, "name"), chi.URLParam(r, "team"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	table, err := s.Matches.Standings(r.Context(), t.Tournament)
	if err != nil {
		writeError(w, r, err)
		return
	}
	card := cards.Table{Kicker: "TEAM · " + strings.ToUpper(t.DisplayName), Title: t.Name, Sub: teamLine(t)}
	for _, row := range table.Rows {
		card.Rows = append(card.Rows, cards.Row{Name: row.Name, Played: row.Played, Won: row.Won, Points: row.Points, Highlight: row.Team == t.Letter})
	}
	s.serveCard(w, r, card, func() []byte { return cards.DrawTable(card) })
}

func (s *Server) ogStandings(w http.ResponseWriter, r *http.Request) {
	t, err := s.Tournaments.Current(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	table, err := s.Matches.Standings(r.Context(), t.Name)
	if err != nil && errs.KindOf(err) != errs.NotFound {
		writeError(w, r, err)
		return
	}
	card := cards.Table{Kicker: "STANDINGS", Title: t.Identity().DisplayName, Sub: "Points Table"}
	for _, row := range table.Rows {
		card.Rows = append(card.Rows, cards.Row{Name: row.Name, Played: row.Played, Won: row.Won, Points: row.Points})
	}
	s.serveCard(w, r, card, func() []byte { return cards.DrawTable(card) })
}
