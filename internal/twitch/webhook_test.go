package twitch

import (
	"net/http"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

func TestVerify(t *testing.T) {
	c := New(Options{EventSubSecret: "s3cret-s3cret"})
	now := time.Date(2026, 12, 8, 1, 0, 0, 0, time.UTC)
	body := []byte(`{"subscription":{"id":"sub1","type":"stream.online","status":"enabled"},"event":{"broadcaster_user_id":"42","started_at":"2026-12-08T00:59:00Z"}}`)
	header := func(id string, at time.Time, sig string) http.Header {
		h := http.Header{}
		ts := at.Format(time.RFC3339Nano)
		if sig == "" {
			sig = Sign("s3cret-s3cret", id, ts, body)
		}
		h.Set(HeaderID, id)
		h.Set(HeaderTimestamp, ts)
		h.Set(HeaderSignature, sig)
		h.Set(HeaderType, "notification")
		return h
	}
	t.Run("OK", func(t *testing.T) {
		m, err := c.Verify(header("m1", now.Add(-time.Minute), ""), body, now)
		if err != nil || m.BroadcasterID != "42" || m.Subscription.Type != "stream.online" || m.ID != "m1" {
			t.Fatalf("%+v %v", m, err)
		}
	})
	t.Run("ErrSignatureOverAnotherBody", func(t *testing.T) {
		h := header("m1", now, "")
		_, err := c.Verify(h, append([]byte(nil), append(body[:len(body)-1], ' ', '}')...), now)
		if errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("%v", err)
		}
	})
	t.Run("ErrSignatureOfAnotherID", func(t *testing.T) {
		h := header("m1", now, "")
		h.Set(HeaderID, "m2")
		if _, err := c.Verify(h, body, now); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("%v", err)
		}
	})
	t.Run("ErrOlderThanTenMinutes", func(t *testing.T) {
		if _, err := c.Verify(header("m1", now.Add(-10*time.Minute-time.Second), ""), body, now); errs.KindOf(err) != errs.Invalid {
			t.Fatalf("%v", err)
		}
	})
	t.Run("ErrNoSignature", func(t *testing.T) {
		h := header("m1", now, "")
		h.Del(HeaderSignature)
		if _, err := c.Verify(h, body, now); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("%v", err)
		}
	})
}
