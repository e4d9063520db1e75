package twitch

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/streams"
)

// EventSub's headers.
const (
	HeaderID        = "Twitch-Eventsub-Message-Id"
	HeaderTimestamp = "Twitch-Eventsub-Message-Timestamp"
	HeaderSignature = "Twitch-Eventsub-Message-Signature"
	HeaderType      = "Twitch-Eventsub-Message-Type"
)

// Sign is EventSub's signature of a message: HMAC-SHA256 under the
// subscription's secret over the message id, the timestamp and the raw
// body, as "sha256=" and hex.
func Sign(secret, id, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(id))
	m.Write([]byte(timestamp))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify implements streams.Platform: the signature first (compared in
// constant time), then the timestamp (at most streams.MaxMessageAge old,
// nor as far ahead), and only then the body.
func (c *Client) Verify(h http.Header, body []byte, now time.Time) (streams.Message, error) {
	id, ts, sig := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || ts == "" || sig == "" || len(id) > 100 || len(ts) > 64 {
		return streams.Message{}, errs.E(errs.Forbidden, "Not an EventSub message.")
	}
	want := Sign(c.opt.EventSubSecret, id, ts, body)
	if !hmac.Equal([]byte(want), []byte(strings.ToLower(sig))) {
		return streams.Message{}, errs.E(errs.Forbidden, "The message's signature does not match.")
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return streams.Message{}, errs.E(errs.Invalid, "The message's timestamp is not a time.")
	}
	if age := now.Sub(at); age > streams.MaxMessageAge || age < -streams.MaxMessageAge {
		return streams.Message{}, errs.E(errs.Invalid, "The message is too old.")
	}
	var m struct {
		Challenge    string `json:"challenge"`
		Subscription struct {
			ID     string `json:"id"`
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"subscription"`
		Event struct {
			BroadcasterUserID string    `json:"broadcaster_user_id"`
			StartedAt         time.Time `json:"started_at"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return streams.Message{}, errs.E(errs.Invalid, "The message is not JSON.")
	}
	out := streams.Message{ID: id, Kind: h.Get(HeaderType), At: at, Challenge: m.Challenge,
		Subscription:  streams.Subscription{ID: m.Subscription.ID, Type: m.Subscription.Type, Status: m.Subscription.Status},
		BroadcasterID: m.Event.BroadcasterUserID, StartedAt: m.Event.StartedAt}
	if out.StartedAt.IsZero() {
		out.StartedAt = at
	}
	if out.Kind == streams.MessageVerification && out.Challenge == "" {
		return streams.Message{}, errs.E(errs.Invalid, "A verification without a challenge.")
	}
	return out, nil
}
