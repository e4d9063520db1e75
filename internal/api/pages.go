package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/pitlane/pitlane/internal/hub"
)

// Pages reads the site's own API pages for the hub: when Redis comes back
// without its data, the hub sends each page its clients named in their
// resync frames, read here once (hub.Options.Pages). A page is read as an
// anonymous visitor reads it, through the same router, so it is exactly
// what a REST read would answer, and it is the visitor's rights that apply:
// a page that needs a signed-in user answers 401 and its clients read it
// themselves.
type Pages struct {
	handler atomic.Pointer[http.Handler]
}

// Serve sets the router pages are read through (built after the hub).
func (p *Pages) Serve(h http.Handler) { p.handler.Store(&h) }

var errNoRouter = errors.New("api: pages read before the router was built")

// Read answers GET path with its JSON body and the seq in it.
func (p *Pages) Read(ctx context.Context, path string) (hub.Page, error) {
	h := p.handler.Load()
	if h == nil {
		return hub.Page{}, errNoRouter
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	if err != nil {
		return hub.Page{}, err
	}
	req.RemoteAddr = "127.0.0.1:0" // the instance itself
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	(*h).ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		return hub.Page{}, fmt.Errorf("api: page %s answered %d", path, rec.status)
	}
	var at struct {
		Seq *int64 `json:"seq"`
	}
	if err := json.Unmarshal(rec.body.Bytes(), &at); err != nil || at.Seq == nil {
		return hub.Page{}, fmt.Errorf("api: page %s carries no seq", path)
	}
	return hub.Page{Seq: *at.Seq, Body: rec.body.Bytes()}, nil
}
