package hub

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// inFrame is any client → server frame; Type says which fields matter.
type inFrame struct {
	Type   string            `json:"type"`
	Token  string            `json:"token,omitempty"`
	Topics []string          `json:"topics,omitempty"`
	Since  map[string]int64  `json:"since,omitempty"`
	Pages  map[string]string `json:"pages,omitempty"` // per topic, the page the client shows (pages.go)
	Topic  string            `json:"topic,omitempty"` // cheer
	Kind   string            `json:"kind,omitempty"`  // cheer
}

// event is one publication as every instance stores and delivers it: wire
// is the complete websocket frame (header, then the JSON "event" frame),
// built once and written as it is to every subscriber's socket.
type event struct {
	seq  int64
	wire []byte
	hdr  int // the header's length: wire[hdr:] is the JSON
}

func newEvent[T ~string | ~[]byte](seq int64, frame T) event {
	w := wireText(frame)
	return event{seq: seq, wire: w, hdr: len(w) - len(frame)}
}

// frame is the event's JSON frame.
func (ev event) frame() []byte { return ev.wire[ev.hdr:] }

// wireText encodes payload as one final, unmasked websocket text frame
// (RFC 6455 section 5.2), what a server sends: the same bytes suit every
// client, so a broadcast encodes its frame once.
func wireText[T ~string | ~[]byte](payload T) []byte {
	n := len(payload)
	b := make([]byte, 0, n+10)
	b = append(b, 0x81) // FIN, text
	switch {
	case n < 126:
		b = append(b, byte(n))
	case n < 1<<16:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// tsLayout is RFC 3339 with milliseconds in UTC, the form JavaScript's
// Date.toISOString prints, so clients can compare it with their own clocks.
const tsLayout = "2006-01-02T15:04:05.000Z07:00"

var (
	pongWire = wireText(`{"type":"pong"}`)

	errUnknownTopic = errors.New("unknown topic")
)

// eventParts marshals everything of an event frame but its seq, which only
// the store assigning it knows: frame = prefix + seq + suffix. Splitting it
// lets the Redis script build the frame without decoding JSON.
func eventParts(topic, name string, data any, now time.Time) (prefix, suffix []byte, err error) {
	public, ok := publicTopic(topic)
	if !ok {
		return nil, nil, fmt.Errorf("hub: publish to %q: %w", topic, errUnknownTopic)
	}
	if name == "" {
		return nil, nil, errors.New("hub: publish: empty event name")
	}
	raw := []byte("{}")
	if data != nil {
		if raw, err = json.Marshal(data); err != nil {
			return nil, nil, fmt.Errorf("hub: publish %s: marshal data: %w", name, err)
		}
	}
	prefix = append([]byte(`{"type":"event","topic":`), quote(public)...)
	prefix = append(prefix, `,"seq":`...)
	suffix = append([]byte(`,"event":`), quote(name)...)
	suffix = append(suffix, `,"data":`...)
	suffix = append(suffix, raw...)
	suffix = append(suffix, `,"ts":"`...)
	suffix = now.UTC().AppendFormat(suffix, tsLayout)
	suffix = append(suffix, `"}`...)
	return prefix, suffix, nil
}

// buildFrame joins the parts of eventParts around seq.
func buildFrame(prefix []byte, seq int64, suffix []byte) []byte {
	b := make([]byte, 0, len(prefix)+20+len(suffix))
	b = append(b, prefix...)
	b = strconv.AppendInt(b, seq, 10)
	return append(b, suffix...)
}

// resyncFrame tells the client to read the topic again; under pressure
// (retryAfterMs > 0) it says over how long the clients should spread their
// reads.
func resyncFrame(public string, retryAfterMs int64) []byte {
	b := []byte(`{"type":"resync","topic":` + string(quote(public)))
	if retryAfterMs > 0 {
		b = append(b, `,"retry_after_ms":`...)
		b = strconv.AppendInt(b, retryAfterMs, 10)
	}
	return append(b, '}')
}

func errorFrame(msg string) []byte {
	return []byte(`{"type":"error","message":` + string(quote(msg)) + `}`)
}

func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// publicTopic is the name clients know an internal topic by, and whether
// the topic exists at all.
func publicTopic(topic string) (string, bool) { return core.PublicTopic(topic) }

// resolveTopic maps a topic a client asked for to the internal topic it
// may read, or says why it may not (core's rule).
func resolveTopic(public string, id *core.Actor) (string, error) {
	var a core.Actor
	if id != nil {
		a = *id
	}
	topic, err := a.MayFollow(public)
	if err != nil {
		return "", errors.New(errs.MessageOf(err))
	}
	return topic, nil
}

// resolve is resolveTopic with the store's say (Options.Guard) on the
// topics only it can judge.
func (c *client) resolve(public string) (string, error) {
	topic, err := resolveTopic(public, c.id)
	if err != nil || c.h.opts.Guard == nil || c.id == nil {
		return topic, err
	}
	ctx, cancel := context.WithTimeout(c.ctx, authTimeout)
	defer cancel()
	if err := c.h.opts.Guard(ctx, *c.id, topic); err != nil {
		return "", errors.New(errs.MessageOf(err))
	}
	return topic, nil
}

// truncate keeps echoed client input from inflating error frames.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
