// Package discord is Pitlane's adapter to Discord: the OAuth2 that proves a
// member's Discord account on the site, and the bot's gateway session
// (discordgo) that feeds messages and slash commands to the command router
// of internal/bot and posts its replies and announcements.
package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
)

// DefaultAPI is Discord's API root; DISCORD_API_URL replaces it in tests.
const DefaultAPI = "https://discord.com/api"

// CallbackPath is where Discord sends the browser back (PUBLIC_URL + this; docs/api.md, "Configuration").
const CallbackPath = "/api/auth/discord/callback"

// OAuth is Discord's OAuth2 with the identify scope (accounts.DiscordOAuth).
type OAuth struct {
	config oauth2.Config
	api    string
	client *http.Client
}

var _ accounts.DiscordOAuth = (*OAuth)(nil)

// NewOAuth sets up the flow against api (DefaultAPI unless tests say
// otherwise); publicURL is the site's address, which the redirect is on.
func NewOAuth(clientID, clientSecret, api, publicURL string, client *http.Client) *OAuth {
	api = strings.TrimRight(api, "/")
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return &OAuth{
		config: oauth2.Config{
			ClientID:     clientID,
			ClientSecret: clientSecret,
			Endpoint: oauth2.Endpoint{
				AuthURL:   api + "/oauth2/authorize",
				TokenURL:  api + "/oauth2/token",
				AuthStyle: oauth2.AuthStyleInParams,
			},
			RedirectURL: strings.TrimRight(publicURL, "/") + CallbackPath,
			Scopes:      []string{"identify"},
		},
		api:    api,
		client: client,
	}
}

// AuthCodeURL implements accounts.DiscordOAuth, with a PKCE challenge.
func (o *OAuth) AuthCodeURL(state, verifier string) string {
	return o.config.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("prompt", "consent"))
}

// Identify implements accounts.DiscordOAuth: the code for a token, the
// token for the account (/users/@me). The token is used once and dropped.
func (o *OAuth) Identify(ctx context.Context, code, verifier string) (accounts.DiscordIdentity, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, o.client)
	tok, err := o.config.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if asRetrieve(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
			return accounts.DiscordIdentity{}, fmt.Errorf("discord token: %w", err) // a bad or spent code
		}
		return accounts.DiscordIdentity{}, errs.Wrap(&errs.Error{Kind: errs.Upstream, Message: "Discord is unavailable right now. Please try again shortly."}, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.api+"/users/@me", nil)
	if err != nil {
		return accounts.DiscordIdentity{}, err
	}
	tok.SetAuthHeader(req)
	res, err := o.client.Do(req)
	if err != nil {
		return accounts.DiscordIdentity{}, errs.Wrap(&errs.Error{Kind: errs.Upstream, Message: "Discord is unavailable right now. Please try again shortly."}, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return accounts.DiscordIdentity{}, fmt.Errorf("discord users/@me: %s", res.Status)
	}
	var me struct {
		ID            string `json:"id"`
		Username      string `json:"username"`
		Discriminator string `json:"discriminator"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&me); err != nil {
		return accounts.DiscordIdentity{}, fmt.Errorf("discord users/@me: %w", err)
	}
	if !snowflake(me.ID) || me.Username == "" {
		return accounts.DiscordIdentity{}, fmt.Errorf("discord users/@me: no account in the answer")
	}
	name := me.Username
	if me.Discriminator != "" && me.Discriminator != "0" {
		name += "#" + me.Discriminator // a legacy name
	}
	return accounts.DiscordIdentity{ID: me.ID, Username: name}, nil
}

func snowflake(s string) bool {
	if len(s) < 5 || len(s) > 25 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// APITransport sends the requests discordgo makes to Discord's API to
// another root instead (DISCORD_API_URL): discordgo computes its endpoints
// once at start, so tests and proxies rewrite them on the way out.
type APITransport struct {
	Base *url.URL // e.g. http://127.0.0.1:18401/api
	Next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t APITransport) RoundTrip(r *http.Request) (*http.Response, error) {
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	if r.URL.Host != "discord.com" || !strings.HasPrefix(r.URL.Path, "/api/") {
		return next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = t.Base.Scheme, t.Base.Host
	r.URL.Path = strings.TrimRight(t.Base.Path, "/") + strings.TrimPrefix(r.URL.Path, "/api")
	r.URL.RawPath = ""
	r.Host = t.Base.Host
	return next.RoundTrip(r)
}

// HTTPClient is the client every call to Discord goes through: straight to
// Discord, or through APITransport when api is not Discord's.
func HTTPClient(api string) (*http.Client, error) {
	c := &http.Client{Timeout: 20 * time.Second}
	if api == "" || strings.TrimRight(api, "/") == DefaultAPI {
		return c, nil
	}
	u, err := url.Parse(api)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("DISCORD_API_URL is not a URL: %q", api)
	}
	c.Transport = APITransport{Base: u}
	return c, nil
}

func asRetrieve(err error, target **oauth2.RetrieveError) bool {
	return errors.As(err, target)
}
