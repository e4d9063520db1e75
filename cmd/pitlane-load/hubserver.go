package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/hub"
)

// anyToken is the no-op Authenticator of the measuring hub.
type anyToken struct{}

func (anyToken) Authenticate(context.Context, string) (core.Actor, error) {
	return core.Actor{UserID: 1, Admin: true}, nil
}

// runHub is the "hub" child: one Hub on loopback with the two endpoints the
// load test uses, GET /api/ws and POST /api/deck {"slide":N}, like the real
// server's. It prints "listening ADDR" and lives until its stdin closes (the
// parent is gone) or ctx ends.
func runHub(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("hub", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address (loopback)")
	redisURL := fs.String("redis", "", "Redis URL; empty = in-process fan-out")
	prefix := fs.String("prefix", "", "Redis key prefix")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return err
	}
	if err := checkLoopback(host); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
	}
	h, err := hub.New(hub.Options{Auth: anyToken{}, RedisURL: *redisURL, Prefix: *prefix})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /api/ws", h)
	var slide atomic.Int64
	answer := func(w http.ResponseWriter, r *http.Request) {
		seq, err := h.Seq(r.Context(), core.TopicDeck)
		if err != nil {
			http.Error(w, `{"message":"seq unavailable"}`, http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int64{"slide": slide.Load(), "seq": seq})
	}
	mux.HandleFunc("GET /api/deck", answer)
	mux.HandleFunc("POST /api/deck", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Slide  int64 `json:"slide"`
			SentNs int64 `json:"sent_ns,omitempty"` // the publish time, carried to every client
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
			return
		}
		slide.Store(body.Slide)
		if err := h.Publish(r.Context(), core.TopicDeck, "slide.changed", body); err != nil {
			http.Error(w, `{"message":"publish failed"}`, http.StatusBadGateway)
			return
		}
		answer(w, r)
	})
	mux.HandleFunc("GET /debug/mem", func(w http.ResponseWriter, _ *http.Request) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		_ = json.NewEncoder(w).Encode(map[string]uint64{
			"heap_inuse": m.HeapInuse, "stack_inuse": m.StackInuse, "sys": m.Sys,
			"goroutines": uint64(runtime.NumGoroutine()),
		})
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Printf("listening %s\n", ln.Addr())

	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	select {
	case <-ctx.Done():
	case <-stdinClosed:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if err := h.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
