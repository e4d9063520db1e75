package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// fakeChannel is the announcement channel the night's bot posts to.
const fakeChannel = "100000000000000001"

// fakeDiscord is Discord as the bot sees it, enough for it to connect and
// announce: the gateway (Hello, READY, heartbeat acks) and the REST calls
// it makes (its slash commands, channel messages), which it records. The
// night counts the bot's announcements here, where they would reach the
// league's Discord server.
type fakeDiscord struct {
	srv *http.Server
	ln  net.Listener

	mu        sync.Mutex
	posts     []string // the channel's messages, in order
	mark      int      // posts before the night (the seed's news, relayed at the first start)
	commands  int      // slash command registrations seen
	gateways  int      // gateway sessions (a new bot leader opens one)
	readyOnce chan struct{}
	ready     bool
}

func startFakeDiscord() (*fakeDiscord, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &fakeDiscord{ln: ln, readyOnce: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"url": "ws://" + r.Host + "/gateway"})
	})
	mux.HandleFunc("GET /api/v9/gateway/bot", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"url": "ws://" + r.Host + "/gateway", "shards": 1})
	})
	mux.HandleFunc("GET /gateway/", f.gateway) // discordgo adds the slash
	mux.HandleFunc("/api/v9/", f.rest)
	f.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = f.srv.Serve(ln) }()
	return f, nil
}

func (f *fakeDiscord) apiURL() string { return "http://" + f.ln.Addr().String() + "/api" }

func (f *fakeDiscord) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = f.srv.Shutdown(ctx)
	_ = f.srv.Close()
}

// gateway speaks the gateway's handshake, then acknowledges heartbeats
// until the bot goes.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	ctx := r.Context()
	send := func(s string) error { return c.Write(ctx, websocket.MessageText, []byte(s)) }
	if send(`{"op":10,"d":{"heartbeat_interval":41250}}`) != nil {
		return
	}
	var frame struct {
		Op int `json:"op"`
	}
	if _, b, err := c.Read(ctx); err != nil || json.Unmarshal(b, &frame) != nil || frame.Op != 2 {
		return
	}
	if send(`{"op":0,"s":1,"t":"READY","d":{"v":10,"user":{"id":"200000000000000002","username":"pitlane-bot","bot":true},"session_id":"night","guilds":[]}}`) != nil {
		return
	}
	f.mu.Lock()
	f.gateways++
	f.mu.Unlock()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			return
		}
		if json.Unmarshal(b, &frame) == nil && frame.Op == 1 && send(`{"op":11}`) != nil {
			return
		}
	}
}

// rest answers the bot's REST calls as Discord would, briefly.
func (f *fakeDiscord) rest(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	w.Header().Set("Content-Type", "application/json")
	path := strings.TrimPrefix(r.URL.Path, "/api/v9")
	switch {
	case r.Method == http.MethodPut && strings.HasSuffix(path, "/commands"):
		f.mu.Lock()
		f.commands++
		if !f.ready {
			f.ready = true
			close(f.readyOnce)
		}
		f.mu.Unlock()
		_, _ = io.WriteString(w, `[]`)
	case r.Method == http.MethodPost && path == "/channels/"+fakeChannel+"/messages":
		var m struct {
			Content string `json:"content"`
		}
		_ = json.Unmarshal(body, &m)
		f.mu.Lock()
		f.posts = append(f.posts, m.Content)
		f.mu.Unlock()
		_, _ = io.WriteString(w, `{"id":"300000000000000003","channel_id":"`+fakeChannel+`","content":""}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":"Unknown","code":0}`)
	}
}

// waitReady waits until a bot has connected and registered its commands:
// its announcer follows the hub from then on.
func (f *fakeDiscord) waitReady(ctx context.Context, limit time.Duration) error {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-f.readyOnce:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errors.New("the Discord bot never connected to the fake Discord")
	}
}

// announcements is what the bot has posted since the mark.
func (f *fakeDiscord) announcements() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.posts[f.mark:]...)
}

// settle waits until the bot has posted nothing for a second (at most
// limit), then marks where the night's announcements begin: the first
// instance's relay hands the hub the seed's events at start, and the bot
// announces the seed's sales it hears of.
func (f *fakeDiscord) settle(ctx context.Context, limit time.Duration) {
	deadline := time.Now().Add(limit)
	last, quiet := -1, 0
	for time.Now().Before(deadline) && quiet < 5 {
		f.mu.Lock()
		n := len(f.posts)
		f.mu.Unlock()
		if n == last {
			quiet++
		} else {
			last, quiet = n, 0
		}
		if sleep(ctx, 200*time.Millisecond) != nil {
			return
		}
	}
	f.mu.Lock()
	f.mark = len(f.posts)
	f.mu.Unlock()
}

func (f *fakeDiscord) sessions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gateways
}
