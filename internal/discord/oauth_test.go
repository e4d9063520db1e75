package discord_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

const publicURL = "http://pitlane.test"

// browser is a signed-in player's browser: a cookie jar, no redirects
// followed (each hop is looked at).
type browser struct {
	t      *testing.T
	s      *testkit.Server
	token  string
	client *http.Client
}

func newBrowser(t *testing.T, s *testkit.Server, token string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, s: s, token: token, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// authorize asks the API where to go and follows it to the fake Discord,
// which answers with the callback URL (on PUBLIC_URL).
func (b *browser) authorize() *url.URL {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.s.URL+"/api/auth/discord/authorize", nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	var body struct{ URL string }
	decodeJSON(b.t, res, &body)
	if res.StatusCode != 200 || !strings.Contains(body.URL, "/api/oauth2/authorize?") {
		b.t.Fatalf("authorize: %d %q", res.StatusCode, body.URL)
	}
	res, err = b.client.Get(body.URL)
	if err != nil {
		b.t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), publicURL+"/api/auth/discord/callback?") {
		b.t.Fatalf("Discord's redirect: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return loc
}

// callback delivers Discord's redirect to the site (PUBLIC_URL is this
// test's server) and returns where the site sends the browser on.
func (b *browser) callback(query string) url.Values {
	b.t.Helper()
	res, err := b.client.Get(b.s.URL + "/api/auth/discord/callback?" + query)
	if err != nil {
		b.t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound || !strings.HasPrefix(loc.String(), publicURL+"/?") {
		b.t.Fatalf("callback: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return loc.Query()
}

func (b *browser) link() url.Values {
	b.t.Helper()
	return b.callback(b.authorize().RawQuery)
}

func oauthServer(t *testing.T, f *fakeDiscord) *testkit.Server {
	return testkit.NewServer(t, pgtest.DB(t), testkit.Options{Configure: func(c *config.Config) {
		c.DiscordClientID, c.DiscordClientSecret = "client-id", f.secret
		c.DiscordAPIURL = f.URL + "/api"
		c.PublicURL = publicURL
	}})
}

// TestOAuthLink runs "Link Discord" against a fake Discord over HTTP: the
// link and every way to take one that is not yours.
func TestOAuthLink(t *testing.T) {
	f := newFakeDiscord(t)
	s := oauthServer(t, f)
	tokA := s.SignUp(t, testkit.UniqueEmail("oauth-a"), "typed_a")
	tokB := s.SignUp(t, testkit.UniqueEmail("oauth-b"), "typed_b")
	a, b := newBrowser(t, s, tokA), newBrowser(t, s, tokB)

	t.Run("ConfigSaysTheButtonShows", func(t *testing.T) {
		if r := s.Do(t, "GET", "/api/config", "", nil); r.JSON["discord_link"] != true {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("ErrSignedOut", func(t *testing.T) {
		if r := s.Do(t, "GET", "/api/auth/discord/authorize", "", nil); r.Status != 401 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("OK", func(t *testing.T) {
		f.Next.ID, f.Next.Username = "200000000000000001", "oauth.racer"
		got := a.link()
		if got.Get("discord") != "linked" || got.Get("message") != accounts.MsgDiscordLinked {
			t.Fatalf("outcome %v", got)
		}
		p := s.Do(t, "GET", "/api/auth/profile", tokA, nil).JSON["user"].(map[string]any)
		if p["discord_verified"] != true || p["discord_id"] != "200000000000000001" || p["discord_username"] != "oauth.racer" {
			t.Fatalf("profile: %v", p)
		}
	})
	t.Run("ErrStateIsSingleUse", func(t *testing.T) {
		f.Next.ID, f.Next.Username = "200000000000000001", "oauth.racer"
		loc := a.authorize()
		if got := a.callback(loc.RawQuery); got.Get("discord") != "linked" {
			t.Fatalf("first use: %v", got)
		}
		if got := a.callback(loc.RawQuery); got.Get("discord") != "error" || got.Get("message") != accounts.MsgDiscordStateBad {
			t.Fatalf("replay: %v", got)
		}
	})
	t.Run("ErrFinishedInAnotherBrowser", func(t *testing.T) {
		// A starts a flow and sends the callback link to B: B's browser
		// lacks the state cookie, so B's Discord never lands on A's account.
		f.Next.ID, f.Next.Username = "200000000000000002", "victim"
		loc := newBrowser(t, s, tokB).authorize()
		if got := a.callback(loc.RawQuery); got.Get("discord") != "error" || got.Get("message") != accounts.MsgDiscordStateBad {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ErrForgedState", func(t *testing.T) {
		if got := b.callback("code=code-1&state=made-up"); got.Get("message") != accounts.MsgDiscordStateBad {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ErrSecondDiscordOnOneAccount", func(t *testing.T) {
		f.Next.ID, f.Next.Username = "200000000000000003", "second"
		if got := a.link(); got.Get("discord") != "error" || got.Get("message") != accounts.MsgDiscordOtherLinked {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ErrDiscordOnAnotherAccount", func(t *testing.T) {
		f.Next.ID, f.Next.Username = "200000000000000001", "oauth.racer"
		if got := b.link(); got.Get("discord") != "error" || got.Get("message") != accounts.MsgDiscordTaken {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ErrCancelledOnDiscord", func(t *testing.T) {
		loc := b.authorize()
		q := loc.Query()
		if got := b.callback("error=access_denied&state=" + url.QueryEscape(q.Get("state"))); got.Get("discord") != "error" {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ErrBadCode", func(t *testing.T) {
		loc := b.authorize()
		q := loc.Query()
		q.Set("code", "not-a-code")
		if got := b.callback(q.Encode()); got.Get("message") != accounts.MsgDiscordFailed {
			t.Fatalf("%v", got)
		}
	})
	t.Run("UnlinkThenLinkAnother", func(t *testing.T) {
		if r := s.Do(t, "DELETE", "/api/auth/discord", tokA, nil); r.Status != 200 {
			t.Fatalf("unlink: %d %s", r.Status, r.Body)
		}
		f.Next.ID, f.Next.Username = "200000000000000003", "second"
		if got := a.link(); got.Get("discord") != "linked" {
			t.Fatalf("%v", got)
		}
		// And the first Discord account is free for B now.
		f.Next.ID, f.Next.Username = "200000000000000001", "oauth.racer"
		if got := b.link(); got.Get("discord") != "linked" {
			t.Fatalf("%v", got)
		}
	})
}

// TestOAuthNotConfigured: without DISCORD_CLIENT_ID the button is hidden
// and the API says so.
func TestOAuthNotConfigured(t *testing.T) {
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{})
	tok := s.SignUp(t, testkit.UniqueEmail("plain"), "plain")
	if r := s.Do(t, "GET", "/api/config", "", nil); r.JSON["discord_link"] != false {
		t.Fatalf("%s", r.Body)
	}
	if r := s.Do(t, "GET", "/api/auth/discord/authorize", tok, nil); r.Status != 503 || r.Message() != accounts.MsgDiscordNotConfigured {
		t.Fatalf("%d %q", r.Status, r.Message())
	}
}
