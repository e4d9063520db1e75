// Connecting a load client and reading the hub's (and the anchor's) frames.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"time"
)

// connect dials, subscribes (from since, per topic, when given) and waits
// for the pong that proves the subscription is live.
func connect(ctx context.Context, url string, d *net.Dialer, topics []string, since map[string]int64, pages map[string]string, token string, early func([]byte)) (*wsConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := dialWS(ctx, url, d)
	if err != nil {
		return nil, err
	}
	list, _ := json.Marshal(topics)
	sub := `{"type":"subscribe","topics":` + string(list)
	if len(since) > 0 {
		s, _ := json.Marshal(since)
		sub += `,"since":` + string(s)
	}
	if len(pages) > 0 {
		p, _ := json.Marshal(pages)
		sub += `,"pages":` + string(p)
	}
	sub += `}`
	frames := []string{sub, `{"type":"ping"}`}
	if token != "" {
		tok, _ := json.Marshal(token)
		frames = append([]string{`{"type":"auth","token":` + string(tok) + `}`}, frames...)
	}
	return handshake(ctx, c, frames, func(b []byte) (bool, error) {
		var f struct{ Type, Message string }
		_ = json.Unmarshal(b, &f)
		switch f.Type {
		case "pong":
			return true, nil
		case "error":
			return false, fmt.Errorf("server: %s", f.Message)
		}
		return false, nil
	}, early)
}

// handshake sends frames and reads until done says the client is
// subscribed (or fails); on failure the connection is closed. What comes
// before that goes to early (if not nil): a subscription with since is
// answered by its replay, then the pong.
func handshake(ctx context.Context, c *wsConn, frames []string, done func([]byte) (bool, error), early func([]byte)) (*wsConn, error) {
	for _, f := range frames {
		if err := c.writeText(f); err != nil {
			_ = c.close()
			return nil, err
		}
	}
	dl, _ := ctx.Deadline()
	_ = c.conn.SetReadDeadline(dl)
	defer func() { _ = c.conn.SetReadDeadline(time.Time{}) }()
	for {
		b, err := c.read()
		if err == nil {
			var ok bool
			ok, err = done(b)
			if ok {
				return c, nil
			}
			if err == nil && early != nil {
				early(b)
			}
		}
		if err != nil {
			_ = c.close()
			return nil, err
		}
	}
}

// eventKey names an event among several topics: its topic's index in the
// clients' list and its seq on that topic.
func eventKey(topic int, seq int64) int64 { return int64(topic)<<40 | seq }

// keyTopic and keySeq take an eventKey apart.
func keyTopic(key int64) int { return int(key >> 40) }

func keySeq(key int64) int64 { return key & (1<<40 - 1) }

func (s span) has(seq int64) bool { return seq > s.From && seq <= s.To }

// parseFrame reads type, topic, seq and data.sent_ns of a frame: by hand
// for the hub's own event frames (type comes first, then topic), by
// encoding/json otherwise.
func parseFrame(b []byte) (typ, topic string, seq, sent int64, ok bool) {
	if bytes.HasPrefix(b, eventPrefix) {
		rest := b[len(eventPrefix):]
		if t, ok := bytes.CutPrefix(rest, topicField); ok {
			if end := bytes.IndexByte(t, '"'); end >= 0 {
				topic = string(t[:end])
			}
		}
		if seq, ok := intAfter(b, `"seq":`); ok && topic != "" {
			sent, _ := intAfter(b, `"sent_ns":`)
			return "event", topic, seq, sent, true
		}
	}
	var f struct {
		Type  string `json:"type"`
		Topic string `json:"topic"`
		Seq   int64  `json:"seq"`
		Data  struct {
			SentNs int64 `json:"sent_ns"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &f) != nil {
		return "", "", 0, 0, false
	}
	return f.Type, f.Topic, f.Seq, f.Data.SentNs, true
}

// resyncPrefix starts a resync frame; one that brings its page says the
// page's seq before the page itself.
var resyncPrefix = []byte(`{"type":"resync","topic":"`)

// resyncPageSeq is the seq of the page a resync frame brings, if it brings one.
func resyncPageSeq(b []byte) (int64, bool) {
	if !bytes.HasPrefix(b, resyncPrefix) {
		return 0, false
	}
	head := b[:min(len(b), 256)] // topic, seq and path come first
	if !bytes.Contains(head, []byte(`"path":`)) {
		return 0, false
	}
	return intAfter(head, `"seq":`)
}

// connectCentrifuge dials the anchor, sends the connect command and the
// subscription to "deck" and waits for the subscribe reply.
func connectCentrifuge(ctx context.Context, url string, d *net.Dialer) (*wsConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := dialWS(ctx, url, d)
	if err != nil {
		return nil, err
	}
	return handshake(ctx, c, []string{centrifugeConnect}, func(b []byte) (bool, error) {
		for msg := range bytes.SplitSeq(b, []byte("\n")) {
			switch kind, id, _, _ := parseCentrifuge(msg); {
			case kind == "error":
				return false, fmt.Errorf("anchor: %s", msg)
			case kind == "reply" && id == 2:
				return true, nil
			}
		}
		return false, nil
	}, nil)
}

// centrifugeFrame handles one frame of the anchor: several messages may
// share it, one per line.
func (w *worker) centrifugeFrame(c *wsConn, cl *client, b []byte, now int64) error {
	for msg := range bytes.SplitSeq(b, []byte("\n")) {
		switch kind, _, offset, sent := parseCentrifuge(msg); kind {
		case "ping":
			if err := c.writeText("{}"); err != nil {
				return err
			}
		case "pub":
			if w.frameBytes.Load() == 0 {
				w.frameBytes.Store(int64(len(msg)))
			}
			w.record(cl, 0, offset, now, sent)
		case "error":
			w.errFrames.Add(1)
		case "reply", "push":
		default:
			w.unexpected.Add(1)
		}
	}
	return nil
}
