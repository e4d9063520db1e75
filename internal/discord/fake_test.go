package discord_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fakeDiscord is Discord at its wire protocol: OAuth2 (authorize, token with
// PKCE, users/@me) and the REST calls the bot makes, which it records.
type fakeDiscord struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	// Next is the account the next authorization signs in as.
	Next     struct{ ID, Username string }
	codes    map[string]grant // code -> grant
	tokens   map[string]grant
	Requests []recorded
	threads  int // threads opened
	// The gateway: what the bot identified with, and events to send it.
	Identify map[string]any
	events   chan string
}

type grant struct {
	id, username, challenge, redirect string
}

type recorded struct {
	Method, Path, Auth string
	Body               map[string]any
}

func newFakeDiscord(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{secret: "client-secret", codes: map[string]grant{}, tokens: map[string]grant{}, events: make(chan string, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"url": "ws://" + r.Host + "/gateway"})
	})
	mux.HandleFunc("GET /gateway/", f.gateway) // discordgo adds the slash
	mux.HandleFunc("GET /api/oauth2/authorize", f.authorize)
	mux.HandleFunc("POST /api/oauth2/token", f.token)
	mux.HandleFunc("GET /api/users/@me", f.me)
	mux.HandleFunc("/api/v9/", f.rest)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// authorize signs in as Next and sends the browser back with a code.
func (f *fakeDiscord) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != "client-id" || q.Get("scope") != "identify" || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" {
		http.Error(w, "bad authorize request: "+r.URL.RawQuery, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	code := fmt.Sprintf("code-%d", len(f.codes)+1)
	f.codes[code] = grant{id: f.Next.ID, username: f.Next.Username, challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri")}
	f.mu.Unlock()
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

// token trades a code for a token once, checking the secret and PKCE.
func (f *fakeDiscord) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.codes[r.PostForm.Get("code")]
	delete(f.codes, r.PostForm.Get("code"))
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case r.PostForm.Get("client_secret") != f.secret || r.PostForm.Get("client_id") != "client-id":
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"invalid_client"}`)
		return
	case !ok || r.PostForm.Get("grant_type") != "authorization_code" || r.PostForm.Get("redirect_uri") != g.redirect:
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_grant"}`)
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_request","error_description":"Invalid \"code_verifier\""}`)
		return
	}
	tok := "token-" + g.id
	f.tokens[tok] = g
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"})
}

func (f *fakeDiscord) me(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	g, ok := f.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	f.mu.Unlock()
	if !ok {
		http.Error(w, `{"message": "401: Unauthorized"}`, http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": g.id, "username": g.username, "discriminator": "0", "global_name": "Shown"})
}

// rest records a bot REST call and answers as Discord would, briefly.
func (f *fakeDiscord) rest(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.Requests = append(f.Requests, recorded{Method: r.Method, Path: strings.TrimPrefix(r.URL.Path, "/api/v9"), Auth: r.Header.Get("Authorization"), Body: body})
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == "POST" && r.URL.Path == "/api/v9/users/@me/channels":
		io.WriteString(w, `{"id": "dm-channel", "type": 1}`)
	case r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/threads"):
		f.threads++
		fmt.Fprintf(w, `{"id": "thread-%d", "type": 11}`, f.threads)
	case r.Method == "PATCH" && strings.HasPrefix(r.URL.Path, "/api/v9/channels/"):
		fmt.Fprintf(w, `{"id": %q, "type": 11}`, strings.TrimPrefix(r.URL.Path, "/api/v9/channels/"))
	case r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/messages"):
		io.WriteString(w, `{"id": "m1", "channel_id": "c", "content": ""}`)
	case r.Method == "PUT" && strings.HasSuffix(r.URL.Path, "/commands"):
		io.WriteString(w, `[]`)
	case strings.HasSuffix(r.URL.Path, "/callback"):
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message": "Unknown", "code": 0}`)
	}
}

// gateway speaks enough of Discord's gateway for a bot: Hello, the
// bot's Identify, READY, then the events the test sends, reading the
// bot's heartbeats meanwhile.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	send := func(s string) error { return c.Write(ctx, websocket.MessageText, []byte(s)) }
	if send(`{"op":10,"d":{"heartbeat_interval":45000}}`) != nil {
		return
	}
	var id struct {
		Op int            `json:"op"`
		D  map[string]any `json:"d"`
	}
	if _, b, err := c.Read(ctx); err != nil || json.Unmarshal(b, &id) != nil || id.Op != 2 {
		return
	}
	f.mu.Lock()
	f.Identify = id.D
	f.mu.Unlock()
	if send(`{"op":0,"s":1,"t":"READY","d":{"v":10,"user":{"id":"app-1","username":"pitlane-bot","bot":true},"session_id":"s1","guilds":[]}}`) != nil {
		return
	}
	go func() {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-f.events:
			if send(ev) != nil {
				return
			}
		}
	}
}

func (f *fakeDiscord) identified() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Identify
}

// waitFor waits for a recorded REST call that ok accepts.
func (f *fakeDiscord) waitFor(t *testing.T, what string, ok func(recorded) bool) recorded {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, c := range f.calls() {
			if ok(c) {
				return c
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s; calls: %+v", what, f.calls())
	return recorded{}
}

func (f *fakeDiscord) calls() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.Requests...)
}

// threadsOpened is the threads the bot asked to open in channel.
func (f *fakeDiscord) threadsOpened(channel string) []recorded {
	var out []recorded
	for _, c := range f.calls() {
		if c.Method == "POST" && c.Path == "/channels/"+channel+"/threads" {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeDiscord) reset() {
	f.mu.Lock()
	f.Requests = nil
	f.mu.Unlock()
}
