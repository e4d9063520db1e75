package api

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/tournament"
)

// rosterCache keeps each tournament's list for one roster version, with
// its first page (the default size, no search) encoded plain and gzipped:
// the version is raised in the transaction of every change, so an entry is
// never served after its data changed. Other pages are cut from the kept
// list.
type rosterCache struct {
	mu      sync.Mutex
	entries map[string]*cachedPage
}

type cachedPage struct {
	version int64
	etag    string
	roster  tournament.Roster
	plain   []byte
	gz      []byte

	mu     sync.Mutex
	pages  map[string]*cachedPage             // other pages asked of this version, encoded
	sorted map[string]tournament.SortedRoster // the list in each order asked of this version
}

// pagesKept bounds the other pages kept per version.
const pagesKept = 256

func (c *rosterCache) page(t tournament.Tournament, build func() (tournament.Roster, error)) (*cachedPage, error) {
	c.mu.Lock()
	p := c.entries[t.Name]
	c.mu.Unlock()
	if p != nil && p.version == t.RosterVersion {
		return p, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal(v.Page(paging.Request{Limit: paging.Default}))
	if err != nil {
		return nil, err
	}
	p = &cachedPage{
		version: t.RosterVersion,
		etag:    `"` + strconv.FormatInt(t.ID, 36) + "-" + strconv.FormatInt(t.RosterVersion, 36) + `"`,
		roster:  v,
		plain:   plain,
		gz:      gzipFast(plain),
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cachedPage{}
	}
	if old := c.entries[t.Name]; old == nil || old.version <= p.version {
		c.entries[t.Name] = p
	}
	c.mu.Unlock()
	return p, nil
}

// last is the newest page built for the tournament, if any.
func (c *rosterCache) last(name string) *cachedPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[name]
}

// serveFirst serves the kept first page when the request asks for it, and
// cuts any other from the kept list (in the order `by`, when one is asked).
func (p *cachedPage) serveFirst(w http.ResponseWriter, r *http.Request, req paging.Request, by string) {
	if req.After == nil && req.Q == "" && req.Limit == paging.Default && by == "" {
		p.serve(w, r)
		return
	}
	p.other(req, by).serve(w, r)
}

// other is a page of this version other than the first, encoded once.
func (p *cachedPage) other(req paging.Request, by string) *cachedPage {
	key := strconv.Itoa(req.Limit) + "|" + req.Q + "|" + by + "|"
	if req.After != nil {
		key += req.After.Encode()
	}
	p.mu.Lock()
	page := p.pages[key]
	p.mu.Unlock()
	if page != nil {
		return page
	}
	var plain []byte
	if by == "" {
		plain, _ = json.Marshal(p.roster.Page(req)) // players and counts: no error
	} else {
		plain, _ = json.Marshal(p.sortedBy(by).Page(req))
	}
	sum := sha256.Sum256([]byte(key))
	page = &cachedPage{version: p.version, etag: strings.TrimSuffix(p.etag, `"`) + "-" + base64.RawURLEncoding.EncodeToString(sum[:9]) + `"`,
		plain: plain, gz: gzipFast(plain)}
	p.mu.Lock()
	if p.pages == nil || len(p.pages) >= pagesKept {
		p.pages = map[string]*cachedPage{}
	}
	p.pages[key] = page
	p.mu.Unlock()
	return page
}

// serve writes the page, answering 304 to a matching If-None-Match and the
// gzipped bytes to clients that accept them.
func (p *cachedPage) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", p.etag)
	h.Add("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == p.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := p.plain
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = p.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// sortedBy is the list in the order by, sorted once per version.
func (p *cachedPage) sortedBy(by string) tournament.SortedRoster {
	p.mu.Lock()
	s, ok := p.sorted[by]
	p.mu.Unlock()
	if ok {
		return s
	}
	s = p.roster.SortBy(by)
	p.mu.Lock()
	if p.sorted == nil {
		p.sorted = map[string]tournament.SortedRoster{}
	}
	p.sorted[by] = s
	p.mu.Unlock()
	return s
}
