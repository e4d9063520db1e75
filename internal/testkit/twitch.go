package testkit

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/twitch"
)

// Twitch is a fake Twitch speaking its wire protocol: OAuth2's token
// endpoint (authorization code with PKCE, client credentials), Helix's
// users, streams and EventSub subscriptions, and an EventSub sender that
// signs its messages as Twitch does.
type Twitch struct {
	URL          string
	ClientID     string
	ClientSecret string
	Secret       string // the EventSub secret the site is configured with
	// Callback is the EventSub callback the site is given; Target is where
	// the sender posts (the test server), keeping the callback's path.
	Callback string
	Target   string

	t  testing.TB
	mu sync.Mutex
	// accounts by id
	accounts map[string]TwitchAccount
	live     map[string]TwitchStream
	codes    map[string]twitchCode
	tokens   map[string]string // user token -> account id
	subs     map[string]TwitchSub
	down     bool
	appCalls int
	// StreamCalls are the user_id counts of each GET /streams.
	StreamCalls []int
}

// TwitchAccount is a channel on the fake.
type TwitchAccount struct{ ID, Login, DisplayName string }

// TwitchStream is a live stream on the fake.
type TwitchStream struct {
	Title   string
	Viewers int
	Started time.Time
}

// TwitchSub is an EventSub subscription the fake holds.
type TwitchSub struct {
	ID, Type, Broadcaster, Callback, Secret string
}

type twitchCode struct {
	account, challenge, redirect string
}

// NewTwitch starts the fake.
func NewTwitch(t testing.TB) *Twitch {
	f := &Twitch{ClientID: "fake-twitch-client", ClientSecret: "fake-twitch-secret", Secret: "eventsub-secret-0123456789",
		Callback: "https://pitlane.test" + twitch.WebhookPath,
		t:        t, accounts: map[string]TwitchAccount{}, live: map[string]TwitchStream{}, codes: map[string]twitchCode{},
		tokens: map[string]string{}, subs: map[string]TwitchSub{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/token", f.token)
	mux.HandleFunc("GET /helix/users", f.users)
	mux.HandleFunc("GET /helix/streams", f.streams)
	mux.HandleFunc("POST /helix/eventsub/subscriptions", f.subscribe)
	mux.HandleFunc("DELETE /helix/eventsub/subscriptions", f.unsubscribe)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		down := f.down
		f.mu.Unlock()
		if down {
			http.Error(w, `{"error":"Service Unavailable","status":503}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// Configure points the site at the fake.
func (f *Twitch) Configure(c *config.Config) {
	c.TwitchClientID, c.TwitchClientSecret, c.TwitchEventSubSecret = f.ClientID, f.ClientSecret, f.Secret
	c.TwitchAuthURL, c.TwitchAPIURL, c.TwitchCallback = f.URL+"/oauth2", f.URL+"/helix", f.Callback
}

// Down makes every call fail with 503 (Twitch out of reach) or mends it.
func (f *Twitch) Down(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = on
}

// AddAccount makes a Twitch account.
func (f *Twitch) AddAccount(id, login string) TwitchAccount {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := TwitchAccount{ID: id, Login: login, DisplayName: strings.ToUpper(login[:1]) + login[1:]}
	f.accounts[id] = a
	return a
}

// GoLive puts the channel live on Helix (without sending anything).
func (f *Twitch) GoLive(id, title string, viewers int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live[id] = TwitchStream{Title: title, Viewers: viewers, Started: time.Now().UTC().Add(-time.Minute)}
}

// GoOffline takes the channel off Helix's list.
func (f *Twitch) GoOffline(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.live, id)
}

// Subs are the subscriptions the fake holds.
func (f *Twitch) Subs() []TwitchSub {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]TwitchSub, 0, len(f.subs))
	for _, s := range f.subs {
		out = append(out, s)
	}
	return out
}

// Authorize is the player approving the app on Twitch: it follows the
// site's authorize URL (as the browser would) and returns the redirect's
// code and state, remembering the PKCE challenge the code is bound to.
func (f *Twitch) Authorize(authURL, accountID string) (code, state string) {
	f.t.Helper()
	u, err := url.Parse(authURL)
	if err != nil || !strings.HasPrefix(authURL, f.URL+"/oauth2/authorize") {
		f.t.Fatalf("authorize URL %q is not the fake's", authURL)
	}
	q := u.Query()
	if q.Get("client_id") != f.ClientID || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		f.t.Fatalf("authorize URL lacks the client or PKCE: %s", authURL)
	}
	code = randomHex(12)
	f.mu.Lock()
	f.codes[code] = twitchCode{account: accountID, challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri")}
	f.mu.Unlock()
	return code, q.Get("state")
}

// AccessTokens are the user access tokens the fake handed out.
func (f *Twitch) AccessTokens() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for tok := range f.tokens {
		out = append(out, tok)
	}
	return out
}

func (f *Twitch) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("client_id") != f.ClientID || r.PostForm.Get("client_secret") != f.ClientSecret {
		writeTwitchError(w, http.StatusBadRequest, "invalid client")
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "client_credentials":
		f.mu.Lock()
		f.appCalls++
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"access_token": "app-" + randomHex(8), "expires_in": 3600, "token_type": "bearer"})
	case "authorization_code":
		f.mu.Lock()
		c, ok := f.codes[r.PostForm.Get("code")]
		delete(f.codes, r.PostForm.Get("code"))
		f.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || r.PostForm.Get("redirect_uri") != c.redirect {
			writeTwitchError(w, http.StatusBadRequest, "Invalid authorization code")
			return
		}
		tok := "user-" + randomHex(12)
		f.mu.Lock()
		f.tokens[tok] = c.account
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "refresh_token": "refresh-" + randomHex(12),
			"expires_in": 14000, "token_type": "bearer", "scope": []string{}})
	default:
		writeTwitchError(w, http.StatusBadRequest, "unsupported grant type")
	}
}

// bearer checks the Client-Id header and a token; it returns the user's
// account id for a user token, "" for the app's.
func (f *Twitch) bearer(w http.ResponseWriter, r *http.Request) (string, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || r.Header.Get("Client-Id") != f.ClientID {
		writeTwitchError(w, http.StatusUnauthorized, "OAuth token is missing")
		return "", false
	}
	if strings.HasPrefix(tok, "app-") {
		return "", true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.tokens[tok]
	if !ok {
		writeTwitchError(w, http.StatusUnauthorized, "Invalid OAuth token")
	}
	return id, ok
}

func (f *Twitch) users(w http.ResponseWriter, r *http.Request) {
	user, ok := f.bearer(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var data []map[string]string
	add := func(a TwitchAccount) {
		data = append(data, map[string]string{"id": a.ID, "login": a.Login, "display_name": a.DisplayName})
	}
	logins := r.URL.Query()["login"]
	switch {
	case len(logins) > 0:
		for _, a := range f.accounts {
			for _, l := range logins {
				if a.Login == l {
					add(a)
				}
			}
		}
	case user != "":
		add(f.accounts[user])
	default:
		writeTwitchError(w, http.StatusBadRequest, "an app token names the users")
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func (f *Twitch) streams(w http.ResponseWriter, r *http.Request) {
	if _, ok := f.bearer(w, r); !ok {
		return
	}
	ids := r.URL.Query()["user_id"]
	if len(ids) > 100 {
		writeTwitchError(w, http.StatusBadRequest, "The maximum number of user_id parameters is 100")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.StreamCalls = append(f.StreamCalls, len(ids))
	data := []map[string]any{}
	for _, id := range ids {
		s, ok := f.live[id]
		if !ok {
			continue
		}
		a := f.accounts[id]
		data = append(data, map[string]any{"id": "s" + id, "user_id": id, "user_login": a.Login, "user_name": a.DisplayName,
			"type": "live", "title": s.Title, "viewer_count": s.Viewers, "started_at": s.Started.Format(time.RFC3339),
			"thumbnail_url": "https://static-cdn.jtvnw.net/previews-ttv/live_user_" + a.Login + "-{width}x{height}.jpg"})
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data, "pagination": map[string]any{}})
}

func (f *Twitch) subscribe(w http.ResponseWriter, r *http.Request) {
	if user, ok := f.bearer(w, r); !ok {
		return
	} else if user != "" {
		writeTwitchError(w, http.StatusForbidden, "webhook subscriptions need an app access token")
		return
	}
	var in struct {
		Type, Version string
		Condition     struct {
			BroadcasterUserID string `json:"broadcaster_user_id"`
		}
		Transport struct{ Method, Callback, Secret string }
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Transport.Method != "webhook" || in.Version != "1" ||
		len(in.Transport.Secret) < 10 || !strings.HasPrefix(in.Transport.Callback, "https://") {
		writeTwitchError(w, http.StatusBadRequest, "invalid subscription")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.subs {
		if s.Type == in.Type && s.Broadcaster == in.Condition.BroadcasterUserID {
			writeTwitchError(w, http.StatusConflict, "subscription already exists")
			return
		}
	}
	s := TwitchSub{ID: randomHex(8), Type: in.Type, Broadcaster: in.Condition.BroadcasterUserID, Callback: in.Transport.Callback,
		Secret: in.Transport.Secret}
	f.subs[s.ID] = s
	w.WriteHeader(http.StatusAccepted)
	json.NewEncoder(w).Encode(map[string]any{"data": []map[string]any{{"id": s.ID, "status": "webhook_callback_verification_pending",
		"type": s.Type, "version": "1"}}, "total": len(f.subs)})
}

func (f *Twitch) unsubscribe(w http.ResponseWriter, r *http.Request) {
	if _, ok := f.bearer(w, r); !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := r.URL.Query().Get("id")
	if _, ok := f.subs[id]; !ok {
		writeTwitchError(w, http.StatusNotFound, "subscription not found")
		return
	}
	delete(f.subs, id)
	w.WriteHeader(http.StatusNoContent)
}

// EventSub is one message the sender posts; zero fields take Twitch's values.
type EventSub struct {
	ID        string    // the message id (fresh when empty)
	At        time.Time // the timestamp (now when zero)
	Secret    string    // signs it (the subscription's when empty)
	Signature string    // sent instead of the right one when set
}

// Send posts a notification of typ (stream.online, stream.offline) for the
// broadcaster, on the subscription the site made, and returns the answer.
func (f *Twitch) Send(typ, broadcaster string, m EventSub) *http.Response {
	f.t.Helper()
	sub := f.sub(typ, broadcaster)
	event := map[string]any{"broadcaster_user_id": broadcaster, "broadcaster_user_login": f.accounts[broadcaster].Login}
	if typ == "stream.online" {
		event["type"] = "live"
		event["started_at"] = time.Now().UTC().Format(time.RFC3339Nano)
	}
	return f.post("notification", sub, map[string]any{"subscription": f.subJSON(sub, "enabled"), "event": event}, m)
}

// Verify posts the callback verification of a subscription.
func (f *Twitch) Verify(typ, broadcaster, challenge string) *http.Response {
	f.t.Helper()
	sub := f.sub(typ, broadcaster)
	return f.post("webhook_callback_verification", sub, map[string]any{"subscription": f.subJSON(sub, "webhook_callback_verification_pending"),
		"challenge": challenge}, EventSub{})
}

// Revoke posts a revocation of a subscription, and drops it.
func (f *Twitch) Revoke(typ, broadcaster, reason string) *http.Response {
	f.t.Helper()
	sub := f.sub(typ, broadcaster)
	f.mu.Lock()
	delete(f.subs, sub.ID)
	f.mu.Unlock()
	return f.post("revocation", sub, map[string]any{"subscription": f.subJSON(sub, reason)}, EventSub{})
}

func (f *Twitch) sub(typ, broadcaster string) TwitchSub {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.subs {
		if s.Type == typ && s.Broadcaster == broadcaster {
			return s
		}
	}
	f.t.Fatalf("the site holds no %s subscription for %s", typ, broadcaster)
	return TwitchSub{}
}

func (f *Twitch) subJSON(s TwitchSub, status string) map[string]any {
	return map[string]any{"id": s.ID, "status": status, "type": s.Type, "version": "1", "cost": 0,
		"condition": map[string]string{"broadcaster_user_id": s.Broadcaster},
		"transport": map[string]string{"method": "webhook", "callback": s.Callback}, "created_at": time.Now().UTC().Format(time.RFC3339Nano)}
}

func (f *Twitch) post(kind string, sub TwitchSub, payload map[string]any, m EventSub) *http.Response {
	f.t.Helper()
	body, _ := json.Marshal(payload)
	if m.ID == "" {
		m.ID = randomHex(16)
	}
	if m.At.IsZero() {
		m.At = time.Now()
	}
	if m.Secret == "" {
		m.Secret = sub.Secret
	}
	ts := m.At.UTC().Format(time.RFC3339Nano)
	sig := twitch.Sign(m.Secret, m.ID, ts, body)
	if m.Signature != "" {
		sig = m.Signature
	}
	cb, err := url.Parse(sub.Callback)
	if err != nil {
		f.t.Fatal(err)
	}
	req, err := http.NewRequest("POST", f.Target+cb.Path, bytes.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(twitch.HeaderID, m.ID)
	req.Header.Set(twitch.HeaderTimestamp, ts)
	req.Header.Set(twitch.HeaderSignature, sig)
	req.Header.Set(twitch.HeaderType, kind)
	req.Header.Set("Twitch-Eventsub-Message-Retry", "0")
	req.Header.Set("Twitch-Eventsub-Subscription-Type", sub.Type)
	req.Header.Set("Twitch-Eventsub-Subscription-Version", "1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func writeTwitchError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":%q,"status":%d,"message":%q}`, http.StatusText(status), status, msg)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TwitchID is a numeric Twitch id for n.
func TwitchID(n int) string { return strconv.Itoa(100000 + n) }

// Calls returns the user_id counts of each GET /streams since ResetCalls.
func (f *Twitch) Calls() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.StreamCalls)
}

// ResetCalls forgets the GET /streams calls so far.
func (f *Twitch) ResetCalls() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.StreamCalls = nil
}
