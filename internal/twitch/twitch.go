// Package twitch is Pitlane's adapter to Twitch (streams.Platform): the
// OAuth2 a player proves a channel with (authorization code with PKCE), the
// app's own token (client credentials) for Helix reads and EventSub
// subscriptions, and the checks of EventSub's webhook messages.
package twitch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/streams"
)

// Twitch's roots; TWITCH_AUTH_URL and TWITCH_API_URL replace them in tests.
const (
	DefaultAuth = "https://id.twitch.tv/oauth2"
	DefaultAPI  = "https://api.twitch.tv/helix"
)

// CallbackPath is where Twitch sends the browser back after a link.
const CallbackPath = "/api/auth/twitch/callback"

// WebhookPath is where EventSub posts its messages.
const WebhookPath = "/api/webhooks/twitch"

// PageSize is the most ids Helix takes in one GET /streams.
const PageSize = 100

// Options configure the client.
type Options struct {
	ClientID, ClientSecret string
	// EventSubSecret signs EventSub's messages (10 to 100 ASCII characters).
	EventSubSecret string
	Auth, API      string // roots, defaults above
	// PublicURL is the site's address: the OAuth2 redirect and, when it is
	// https, EventSub's callback.
	PublicURL string
	// Callback overrides where EventSub posts (tests, a tunnel).
	Callback string
	HTTP     *http.Client
}

// Client speaks to Twitch.
type Client struct {
	opt    Options
	user   oauth2.Config
	app    clientcredentials.Config
	http   *http.Client
	mu     sync.Mutex
	tokens oauth2.TokenSource
}

var _ streams.Platform = (*Client)(nil)

// New sets the client up.
func New(opt Options) *Client {
	if opt.Auth == "" {
		opt.Auth = DefaultAuth
	}
	if opt.API == "" {
		opt.API = DefaultAPI
	}
	opt.Auth, opt.API = strings.TrimRight(opt.Auth, "/"), strings.TrimRight(opt.API, "/")
	if opt.HTTP == nil {
		opt.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if opt.Callback == "" && strings.HasPrefix(opt.PublicURL, "https://") {
		opt.Callback = strings.TrimRight(opt.PublicURL, "/") + WebhookPath
	}
	c := &Client{opt: opt, http: opt.HTTP}
	c.user = oauth2.Config{
		ClientID: opt.ClientID, ClientSecret: opt.ClientSecret,
		Endpoint: oauth2.Endpoint{AuthURL: opt.Auth + "/authorize", TokenURL: opt.Auth + "/token",
			AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: strings.TrimRight(opt.PublicURL, "/") + CallbackPath,
	}
	c.app = clientcredentials.Config{ClientID: opt.ClientID, ClientSecret: opt.ClientSecret,
		TokenURL: opt.Auth + "/token", AuthStyle: oauth2.AuthStyleInParams}
	return c
}

func (c *Client) ctx(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, c.http)
}

// AuthCodeURL implements streams.Platform, with a PKCE challenge.
func (c *Client) AuthCodeURL(state, verifier string) string {
	return c.user.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("force_verify", "true"))
}

var errUnavailable = &errs.Error{Kind: errs.Upstream, Message: "Twitch is unavailable right now. Please try again shortly."}

// Identify implements streams.Platform: the code for the player's tokens,
// the tokens for the account (GET /users). The tokens come back as JSON,
// for the caller to seal.
func (c *Client) Identify(ctx context.Context, code, verifier string) (streams.Identity, []byte, error) {
	tok, err := c.user.Exchange(c.ctx(ctx), code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
			return streams.Identity{}, nil, fmt.Errorf("twitch token: %w", err)
		}
		return streams.Identity{}, nil, errs.Wrap(errUnavailable, err)
	}
	users, err := c.users(ctx, oauth2.StaticTokenSource(tok), nil)
	if err != nil {
		return streams.Identity{}, nil, err
	}
	if len(users) != 1 {
		return streams.Identity{}, nil, fmt.Errorf("twitch users: %d accounts for one token", len(users))
	}
	raw, err := json.Marshal(tok)
	if err != nil {
		return streams.Identity{}, nil, err
	}
	return users[0], raw, nil
}

// LookUp implements streams.Platform.
func (c *Client) LookUp(ctx context.Context, login string) (streams.Identity, error) {
	users, err := c.users(ctx, nil, url.Values{"login": {login}})
	if err != nil {
		return streams.Identity{}, err
	}
	if len(users) == 0 {
		return streams.Identity{}, errs.E(errs.NotFound, streams.MsgNoChannel)
	}
	return users[0], nil
}

func (c *Client) users(ctx context.Context, ts oauth2.TokenSource, q url.Values) ([]streams.Identity, error) {
	var out struct {
		Data []struct {
			ID          string `json:"id"`
			Login       string `json:"login"`
			DisplayName string `json:"display_name"`
		} `json:"data"`
	}
	if err := c.helix(ctx, ts, http.MethodGet, "/users", q, nil, &out); err != nil {
		return nil, err
	}
	ids := make([]streams.Identity, 0, len(out.Data))
	for _, u := range out.Data {
		if u.ID == "" || u.Login == "" {
			return nil, fmt.Errorf("twitch users: an account without id or login")
		}
		ids = append(ids, streams.Identity{ID: u.ID, Login: strings.ToLower(u.Login), DisplayName: u.DisplayName})
	}
	return ids, nil
}

// Streams implements streams.Platform: GET /streams, PageSize ids a call.
func (c *Client) Streams(ctx context.Context, ids []string) ([]streams.Live, error) {
	var out []streams.Live
	for start := 0; start < len(ids); start += PageSize {
		page := ids[start:min(start+PageSize, len(ids))]
		q := url.Values{"user_id": page, "first": {fmt.Sprint(PageSize)}, "type": {"live"}}
		var res struct {
			Data []struct {
				UserID      string    `json:"user_id"`
				UserLogin   string    `json:"user_login"`
				Type        string    `json:"type"`
				Title       string    `json:"title"`
				ViewerCount int       `json:"viewer_count"`
				StartedAt   time.Time `json:"started_at"`
				Thumbnail   string    `json:"thumbnail_url"`
			} `json:"data"`
		}
		if err := c.helix(ctx, nil, http.MethodGet, "/streams", q, nil, &res); err != nil {
			return nil, err
		}
		for _, s := range res.Data {
			if s.Type != "live" {
				continue
			}
			out = append(out, streams.Live{ChannelID: s.UserID, Login: s.UserLogin, Title: s.Title,
				Viewers: max(0, s.ViewerCount), StartedAt: s.StartedAt, Thumbnail: thumbnail(s.Thumbnail)})
		}
	}
	return out, nil
}

// thumbnail sizes Helix's template (…-{width}x{height}.jpg) for a card.
func thumbnail(tpl string) string {
	if !strings.HasPrefix(tpl, "https://") && !strings.HasPrefix(tpl, "http://") {
		return ""
	}
	return strings.NewReplacer("{width}", "440", "{height}", "248").Replace(tpl)
}

// CanSubscribe implements streams.Platform: EventSub needs an https callback.
func (c *Client) CanSubscribe() bool { return c.opt.Callback != "" && c.opt.EventSubSecret != "" }

// Subscribe implements streams.Platform: stream.online and stream.offline
// of the channel, over the webhook transport. One that Twitch already
// holds (409) counts as made.
func (c *Client) Subscribe(ctx context.Context, channelID string) ([]streams.Subscription, error) {
	var subs []streams.Subscription
	for _, typ := range []string{streams.TypeOnline, streams.TypeOffline} {
		body := map[string]any{
			"type": typ, "version": "1",
			"condition": map[string]string{"broadcaster_user_id": channelID},
			"transport": map[string]string{"method": "webhook", "callback": c.opt.Callback, "secret": c.opt.EventSubSecret},
		}
		var res struct {
			Data []struct {
				ID     string `json:"id"`
				Status string `json:"status"`
				Type   string `json:"type"`
			} `json:"data"`
		}
		err := c.helix(ctx, nil, http.MethodPost, "/eventsub/subscriptions", nil, body, &res)
		var he *httpError
		switch {
		case errors.As(err, &he) && he.status == http.StatusConflict:
			subs = append(subs, streams.Subscription{Type: typ, Status: "enabled"})
		case err != nil:
			return subs, err
		case len(res.Data) == 1:
			subs = append(subs, streams.Subscription{ID: res.Data[0].ID, Type: typ, Status: res.Data[0].Status})
		default:
			return subs, fmt.Errorf("twitch eventsub: %d subscriptions in the answer", len(res.Data))
		}
	}
	return subs, nil
}

// Unsubscribe implements streams.Platform.
func (c *Client) Unsubscribe(ctx context.Context, id string) error {
	err := c.helix(ctx, nil, http.MethodDelete, "/eventsub/subscriptions", url.Values{"id": {id}}, nil, nil)
	var he *httpError
	if errors.As(err, &he) && he.status == http.StatusNotFound {
		return nil
	}
	return err
}

type httpError struct {
	status int
	body   string
}

func (e *httpError) Error() string { return fmt.Sprintf("twitch helix: %d %s", e.status, e.body) }

// appTokens is the app's token source; dropped after a 401 so the next
// call gets a fresh token.
func (c *Client) appTokens(reset bool) oauth2.TokenSource {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil || reset {
		c.tokens = oauth2.ReuseTokenSource(nil, c.app.TokenSource(c.ctx(context.Background())))
	}
	return c.tokens
}

// helix makes one Helix call with ts (the app's token when nil); a 401 with
// the app's token is tried once more with a new token.
func (c *Client) helix(ctx context.Context, ts oauth2.TokenSource, method, path string, q url.Values, in, out any) error {
	app := ts == nil
	for try := 0; ; try++ {
		if app {
			ts = c.appTokens(try > 0)
		}
		err := c.helixOnce(ctx, ts, method, path, q, in, out)
		var he *httpError
		if app && try == 0 && errors.As(err, &he) && he.status == http.StatusUnauthorized {
			continue
		}
		return err
	}
}

func (c *Client) helixOnce(ctx context.Context, ts oauth2.TokenSource, method, path string, q url.Values, in, out any) error {
	tok, err := ts.Token()
	if err != nil {
		return errs.Wrap(errUnavailable, err)
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	u := c.opt.API + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	req.Header.Set("Client-Id", c.opt.ClientID)
	tok.SetAuthHeader(req)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return errs.Wrap(errUnavailable, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return errs.Wrap(errUnavailable, err)
	}
	if res.StatusCode >= 500 {
		return errs.Wrap(errUnavailable, &httpError{res.StatusCode, string(raw[:min(len(raw), 200)])})
	}
	if res.StatusCode >= 300 {
		return &httpError{res.StatusCode, string(raw[:min(len(raw), 200)])}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("twitch helix %s: %w", path, err)
	}
	return nil
}
