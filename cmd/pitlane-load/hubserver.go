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

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/cheers"
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
	sf, stopProfile, err := parseServerFlags("hub", args)
	if err != nil {
		return err
	}
	defer stopProfile()
	// The load's clients come from a few loopback addresses: the bound on
	// websockets per address is set past the descriptors this process may
	// hold, so it never refuses one of them, while its bookkeeping runs as
	// on the real server.
	perIP := int(min(fileLimit(), 1<<30))
	var broker hub.Broker = hub.MemoryBroker{}
	if sf.redisURL != "" {
		broker = hub.RedisBroker{URL: sf.redisURL}
	}
	opts := hub.Options{Auth: anyToken{}, Broker: broker, Prefix: sf.prefix, MaxConnsPerIP: perIP}
	var cheer *cheers.Service
	if sf.cheers {
		cheer = &cheers.Service{}
		if sf.redisURL != "" {
			o, err := redis.ParseURL(sf.redisURL)
			if err != nil {
				return err
			}
			rdb := redis.NewClient(o)
			defer rdb.Close()
			cheer.Merge = cheers.RedisMerger{Rdb: rdb, Prefix: sf.prefix + "cheers:"}
		}
		opts.Cheers = cheer
	}
	h, err := hub.New(opts)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	if cheer != nil {
		cheer.Out = h.SendLocal
		cheer.Start(ctx)
		mux.HandleFunc("POST /api/teams", func(w http.ResponseWriter, r *http.Request) {
			var body struct {
				Bid    int64 `json:"bid"`
				SentNs int64 `json:"sent_ns"`
			}
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
				return
			}
			if err := h.Publish(r.Context(), core.TopicTeams, "auction.bid", body); err != nil {
				http.Error(w, `{"message":"publish failed"}`, http.StatusBadGateway)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		})
	}
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
	mux.HandleFunc("GET /debug/mem", serveMem)
	return serveUntilDone(ctx, sf.addr, mux, h.Shutdown)
}

// serverFlags are the flags of the server children, "hub" and "anchor".
type serverFlags struct {
	addr, redisURL, prefix string
	cheers                 bool // the hub child counts cheers (internal/cheers) and takes bids on teams
}

// parseServerFlags reads a server child's flags and starts its CPU profile
// if one is asked for; the function it returns stops the profile.
func parseServerFlags(name string, args []string) (serverFlags, func(), error) {
	var sf serverFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&sf.addr, "addr", "127.0.0.1:0", "listen address (loopback)")
	fs.StringVar(&sf.redisURL, "redis", "", "Redis URL; empty = fan-out inside the process")
	fs.StringVar(&sf.prefix, "prefix", "", "Redis key prefix")
	fs.BoolVar(&sf.cheers, "cheers", false, "hub: count cheer frames and merge them through Redis; POST /api/teams publishes a bid")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run here")
	if err := fs.Parse(args); err != nil {
		return sf, nil, err
	}
	stop, err := startProfile(*cpuProfile)
	return sf, stop, err
}

// startProfile starts a CPU profile into path ("" = none); the function it
// returns stops it.
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// serveMem answers the Go runtime's memory figures of a server child.
func serveMem(w http.ResponseWriter, _ *http.Request) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	_ = json.NewEncoder(w).Encode(map[string]uint64{
		"heap_inuse": m.HeapInuse, "stack_inuse": m.StackInuse, "sys": m.Sys,
		"goroutines": uint64(runtime.NumGoroutine()),
	})
}

// serveUntilDone serves mux on addr (loopback only), prints "listening
// ADDR" for the parent and lives until its stdin closes (the parent is
// gone) or ctx ends; then it shuts the server and the engine down.
func serveUntilDone(ctx context.Context, addr string, mux http.Handler, shutdown func(context.Context) error) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if err := checkLoopback(host); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
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
	if err := shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
