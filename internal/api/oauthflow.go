package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

// oauthFlow is a browser's OAuth2 round trip to a platform (Discord,
// Twitch): the state cookie set as it starts, read back at the callback,
// and the way back to the site with the outcome.
type oauthFlow struct {
	cookie string        // the state cookie's name
	path   string        // the callback's path, the cookie's scope
	param  string        // the query parameter that says how it went
	page   string        // where the browser lands, e.g. "/" or "/profile"
	ttl    time.Duration // the state's life
}

// start keeps state in the browser and answers the authorize URL. The
// cookie is Lax: it comes along when the platform sends the browser back.
func (f oauthFlow) start(w http.ResponseWriter, r *http.Request, authURL, state string) {
	http.SetCookie(w, &http.Cookie{
		Name: f.cookie, Value: state, Path: f.path, MaxAge: int(f.ttl.Seconds()), HttpOnly: true,
		Secure:   r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
		SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"url": authURL})
}

// browserState is the state the browser kept, "" without one.
func (f oauthFlow) browserState(r *http.Request) string {
	if c, err := r.Cookie(f.cookie); err == nil {
		return c.Value
	}
	return ""
}

// back ends the flow: the cookie goes, the browser returns to the site.
func (f oauthFlow) back(w http.ResponseWriter, r *http.Request, publicURL, outcome, msg string) {
	http.SetCookie(w, &http.Cookie{Name: f.cookie, Value: "", Path: f.path, MaxAge: -1, HttpOnly: true})
	v := url.Values{f.param: {outcome}}
	if msg != "" {
		v.Set("message", msg)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, strings.TrimRight(publicURL, "/")+f.page+"?"+v.Encode(), http.StatusFound)
}
