package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/centrifugal/centrifuge"
)

// The anchor: the same broadcast served by github.com/centrifugal/centrifuge,
// the engine of Centrifugo, so that the hub's figures can be read beside a
// known real-time server's measured in the same run on the same machine. It
// is a benchmark harness, not part of the product.
//
// The "anchor" child mirrors the "hub" child: GET /api/ws (centrifuge's
// websocket handler, JSON protocol, anonymous connections, every channel
// open), POST /api/deck {"slide":N,"sent_ns":T} publishing on channel "deck"
// with history (1000 publications, as the hub keeps), GET /api/deck with the
// channel's offset as "seq", and GET /debug/mem. With -redis it uses
// centrifuge's Redis broker (history in Redis streams, fan-out through
// PUB/SUB), so several instances share the channel as the hub's do.

// anchorHistory matches hub.Options.History's default.
const anchorHistory = 1000

// anchorData is what an anchor publication carries: the hub's event frame
// without the fields the centrifuge envelope already holds (type, topic, seq
// are push, channel, offset), so both servers send frames of about the same
// size.
type anchorData struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
	TS    string          `json:"ts"`
}

func runAnchor(ctx context.Context, args []string) error {
	sf, stopProfile, err := parseServerFlags("anchor", args)
	if err != nil {
		return err
	}
	defer stopProfile()

	node, err := centrifuge.New(centrifuge.Config{LogLevel: centrifuge.LogLevelError,
		LogHandler: func(e centrifuge.LogEntry) { logf("anchor: %s %v", e.Message, e.Fields) }})
	if err != nil {
		return err
	}
	if sf.redisURL != "" {
		shard, err := centrifuge.NewRedisShard(node, centrifuge.RedisShardConfig{Address: sf.redisURL})
		if err != nil {
			return err
		}
		broker, err := centrifuge.NewRedisBroker(node, centrifuge.RedisBrokerConfig{
			Prefix: sf.prefix + "anchor", Shards: []*centrifuge.RedisShard{shard}})
		if err != nil {
			return err
		}
		node.SetBroker(broker)
	}
	node.OnConnecting(func(context.Context, centrifuge.ConnectEvent) (centrifuge.ConnectReply, error) {
		return centrifuge.ConnectReply{Credentials: &centrifuge.Credentials{UserID: ""}}, nil
	})
	node.OnConnect(func(c *centrifuge.Client) {
		c.OnSubscribe(func(_ centrifuge.SubscribeEvent, cb centrifuge.SubscribeCallback) {
			cb(centrifuge.SubscribeReply{}, nil)
		})
	})
	if err := node.Run(); err != nil {
		return err
	}

	mux := http.NewServeMux()
	// Centrifugo's advice for many mostly idle connections: a small read
	// buffer and pooled write buffers (the hub shrinks its buffers likewise).
	mux.Handle("GET /api/ws", centrifuge.NewWebsocketHandler(node, centrifuge.WebsocketConfig{
		ReadBufferSize:     512,
		UseWriteBufferPool: true,
		CheckOrigin:        func(*http.Request) bool { return true },
	}))
	var slide atomic.Int64
	answer := func(w http.ResponseWriter, seq uint64) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int64{"slide": slide.Load(), "seq": int64(seq)})
	}
	mux.HandleFunc("GET /api/deck", func(w http.ResponseWriter, _ *http.Request) {
		res, err := node.History("deck")
		if err != nil {
			http.Error(w, `{"message":"seq unavailable"}`, http.StatusBadGateway)
			return
		}
		answer(w, res.Offset)
	})
	mux.HandleFunc("POST /api/deck", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Slide  int64 `json:"slide"`
			SentNs int64 `json:"sent_ns,omitempty"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
			return
		}
		slide.Store(body.Slide)
		inner, _ := json.Marshal(body)
		data, _ := json.Marshal(anchorData{Event: "slide.changed", Data: inner,
			TS: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")})
		res, err := node.Publish("deck", data, centrifuge.WithHistory(anchorHistory, time.Hour))
		if err != nil {
			http.Error(w, `{"message":"publish failed"}`, http.StatusBadGateway)
			return
		}
		answer(w, res.Offset)
	})
	mux.HandleFunc("GET /debug/mem", serveMem)

	return serveUntilDone(ctx, sf.addr, mux, func(sctx context.Context) error { return node.Shutdown(sctx) })
}

// centrifugeConnect is what an anchor client sends after the upgrade: the
// connect command and the subscription, in one frame as centrifuge-js does.
const centrifugeConnect = `{"id":1,"connect":{}}` + "\n" + `{"id":2,"subscribe":{"channel":"deck"}}`

// parseCentrifuge reads one message of a centrifuge JSON frame: a ping ({}),
// a reply to command id, or a publication push with its offset and the
// sent_ns its data carries.
func parseCentrifuge(b []byte) (kind string, id, offset, sent int64) {
	switch {
	case len(b) == 2 && b[0] == '{' && b[1] == '}':
		return "ping", 0, 0, 0
	case bytes.HasPrefix(b, []byte(`{"push":`)):
		if !bytes.Contains(b, []byte(`"pub":`)) {
			return "push", 0, 0, 0
		}
		offset, _ = intAfter(b, `"offset":`)
		sent, _ = intAfter(b, `"sent_ns":`)
		return "pub", 0, offset, sent
	case bytes.HasPrefix(b, []byte(`{"id":`)):
		id, _ = intAfter(b, `{"id":`)
		if bytes.Contains(b, []byte(`"error":`)) {
			return "error", id, 0, 0
		}
		return "reply", id, 0, 0
	}
	return "", 0, 0, 0
}
