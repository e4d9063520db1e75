package hub

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Pages answer a mass resync over the socket. When Redis comes back without
// its data every local subscription must resync, and a page that reads its
// state again over REST is one request per subscription: 10,000 at once on
// a league night. A client may name, per topic, the page it shows
// (subscribe's "pages": {"bracket": "/api/tournaments/PPL7/bracket"}); a
// mass resync then reads each named page once per instance (Options.Pages,
// shared by every client that named it) and sends it in the resync frame,
// with the topic's seq it was read at: the page is current at once and no
// one reads it again. Live events that come meanwhile wait, as during a
// replay, and follow the page without a gap or a duplicate.

// Page is a page of the site as an anonymous visitor reads it: its JSON body
// and the seq of the topic it was read at (its "seq" field).
type Page struct {
	Seq  int64
	Body []byte
}

const (
	// maxPagePath bounds a page's path, which the client sends.
	maxPagePath = 200
	// maxPageBytes bounds a page sent in a frame: a bigger one is read over
	// REST as before (the frame is queued to every subscriber that named it).
	maxPageBytes = 256 << 10
	// pageTimeout bounds one read of a page (a database read, shared).
	pageTimeout = 5 * time.Second
	// maxPagesPerTopic bounds the distinct pages a mass resync reads for one
	// topic on an instance: the pages most clients named are read, the rest
	// get a plain resync. A league's pages are a handful; the bound keeps
	// clients that name a page each from turning the resync into a read each.
	maxPagesPerTopic = 16
)

var (
	errPageTooBig = errors.New("hub: page too big for a frame")
	errPageRare   = errors.New("hub: page named by too few clients to be read for them")
)

// validPagePath tells a path the hub may read for a client: a page of the
// site's API, not the socket itself, printable and short.
func validPagePath(p string) bool {
	if len(p) > maxPagePath || !strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/api/ws") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] <= ' ' || p[i] >= 0x7f {
			return false
		}
	}
	return true
}

// page is one read of a page for one topic: its seq and the resync frame
// that carries it, built once for every client that waits on it.
type page struct {
	seq  int64
	wire []byte
}

// pageKey joins a topic's public name and a path into the key of its reads.
func pageKey(public, path string) string { return public + "\n" + path }

// readPage reads the page of key through Options.Pages and builds its frame.
func (h *Hub) readPage(ctx context.Context, key string, _ struct{}) (page, error) {
	public, path, _ := strings.Cut(key, "\n")
	p, err := h.opts.Pages(ctx, path)
	if err != nil {
		return page{}, err
	}
	if len(p.Body) > maxPageBytes {
		return page{}, errPageTooBig
	}
	return page{seq: p.Seq, wire: wireText(resyncPageFrame(public, path, p))}, nil
}

// resyncPageFrame is a resync that brings the page along.
func resyncPageFrame(public, path string, p Page) []byte {
	b := make([]byte, 0, len(p.Body)+len(public)+len(path)+64)
	b = append(b, `{"type":"resync","topic":`...)
	b = append(b, quote(public)...)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, p.Seq, 10)
	b = append(b, `,"path":`...)
	b = append(b, quote(path)...)
	b = append(b, `,"page":`...)
	b = append(b, p.Body...)
	return append(b, '}')
}

// awaitingPage is a subscription waiting for its page after a mass resync.
type awaitingPage struct {
	c *client
	s *sub
}

// resyncWithPages tells every local subscriber of topic to reload: those
// that named a page get it in the resync frame (one read per page), the
// others a plain resync.
func (h *Hub) resyncWithPages(topic string) {
	waiting := make(map[string][]awaitingPage)
	h.reg.each(topic, func(c *client, s *sub) {
		if page := c.awaitPage(s); page != "" {
			k := pageKey(s.public, page)
			waiting[k] = append(waiting[k], awaitingPage{c, s})
		} else {
			c.resync(s)
		}
	})
	keys := make([]string, 0, len(waiting))
	for key := range waiting {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(len(waiting[b]), len(waiting[a])) })
	for i, key := range keys {
		subs := waiting[key]
		if i >= maxPagesPerTopic {
			for _, w := range subs {
				w.c.pageArrived(w.s, page{}, errPageRare)
			}
			continue
		}
		go func() {
			p, err := h.pages.get(context.Background(), key, struct{}{})
			if err != nil {
				h.log.Warn("hub: reading a page for a resync failed; clients read it themselves", "page", key, "err", err)
			}
			for _, w := range subs {
				w.c.pageArrived(w.s, p, err)
			}
		}()
	}
}

// awaitPage readies s to be answered with its page, holding live events
// back meanwhile, and returns the page, or "" when it cannot be (no page
// named, or a replay under way: it gets a plain resync).
func (c *client) awaitPage(s *sub) string {
	if c.h.opts.Pages == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed || s.replaying || s.page == "" {
		return ""
	}
	c.h.metrics.resyncs.Inc()
	s.replaying, s.last, s.pending = true, -1, nil
	return s.page
}

// pageArrived sends s its page (or, when it could not be read, a plain
// resync) and then the events held back, those the page does not hold.
func (c *client) pageArrived(s *sub, p page, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || s.removed {
		return
	}
	switch {
	case s.stale: // lost again while waiting: a plain resync was sent then
		s.last = -1
	case err != nil:
		c.resyncLocked(s)
		s.last = -1
	default:
		c.enqueueLocked(p.wire)
		s.last = p.seq
	}
	c.endHoldLocked(s)
}

// namePage sets the page a live subscription shows.
func (c *client) namePage(s *sub, page string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s.page = page
}

// countPlainResyncs is how many of topic's local subscribers a mass resync
// sends to REST: those that named no page.
func (h *Hub) countPlainResyncs(topic string) int {
	n := 0
	h.reg.each(topic, func(c *client, s *sub) {
		c.mu.Lock()
		plain := h.opts.Pages == nil || s.page == ""
		c.mu.Unlock()
		if plain {
			n++
		}
	})
	return n
}
