package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// inFrame is any client → server frame; Type says which fields matter.
type inFrame struct {
	Type   string           `json:"type"`
	Token  string           `json:"token,omitempty"`
	Topics []string         `json:"topics,omitempty"`
	Since  map[string]int64 `json:"since,omitempty"`
}

// event is one publication as every instance stores and delivers it: frame
// is the complete server → client "event" frame, marshalled once and shared
// by every subscriber's queue.
type event struct {
	seq   int64
	frame []byte
}

// tsLayout is RFC 3339 with milliseconds in UTC, the form JavaScript's
// Date.toISOString prints, so clients can compare it with their own clocks.
const tsLayout = "2006-01-02T15:04:05.000Z07:00"

var (
	pongFrame = []byte(`{"type":"pong"}`)

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

func resyncFrame(public string) []byte {
	return []byte(`{"type":"resync","topic":` + string(quote(public)) + `}`)
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
func publicTopic(topic string) (string, bool) {
	switch topic {
	case TopicRegistrations, TopicTeams, TopicBracket, TopicDeck, TopicCaptains:
		return topic, true
	}
	if id, ok := strings.CutPrefix(topic, "user:"); ok {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil && n > 0 && UserTopic(n) == topic {
			return TopicUser, true
		}
	}
	return "", false
}

// resolveTopic maps a topic a client asked for to the internal topic it
// may read, or says why it may not.
func resolveTopic(public string, id *Identity) (string, error) {
	switch public {
	case TopicRegistrations, TopicTeams, TopicBracket, TopicDeck:
		return public, nil
	case TopicCaptains:
		if id == nil || (id.Role != "captain" && id.Role != "admin") {
			return "", fmt.Errorf("topic %s: only captains and admins may subscribe", public)
		}
		return public, nil
	case TopicUser:
		if id == nil {
			return "", fmt.Errorf("topic %s: authenticate first", public)
		}
		return UserTopic(id.UserID), nil
	}
	return "", fmt.Errorf("unknown topic: %q", truncate(public, 64))
}

// truncate keeps echoed client input from inflating error frames.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
