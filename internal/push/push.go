// Package push sends Web Push messages (RFC 8030) encrypted to the browser's
// keys (RFC 8291, aes128gcm) and signed with the server's VAPID key
// (RFC 8292), through github.com/SherClockHolmes/webpush-go.
package push

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/pitlane/pitlane/internal/notify"
)

// Sender is a notify.Pusher with the server's VAPID keys.
type Sender struct {
	PublicKey, PrivateKey string
	// Subject is the VAPID contact (a mailto: or https: URL).
	Subject string
	Client  *http.Client
	// TTL is how long a push service keeps a message for a browser that is
	// offline (default a day).
	TTL time.Duration
}

var _ notify.Pusher = Sender{}

// Push implements notify.Pusher: notify.ErrGone when the push service says
// the subscription is no more (404, 410).
func (s Sender) Push(ctx context.Context, d notify.Device, m notify.Message) error {
	payload, err := json.Marshal(m)
	if err != nil {
		return err
	}
	ttl := s.TTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	client := &http.Client{Timeout: 15 * time.Second}
	if s.Client != nil {
		c := *s.Client
		client = &c
	}
	// A redirect is never followed: the message would go wherever the
	// endpoint's owner points it, with our VAPID signature on it.
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{
		Endpoint: d.Endpoint, Keys: webpush.Keys{P256dh: d.Keys.P256dh, Auth: d.Keys.Auth},
	}, &webpush.Options{
		HTTPClient: client,
		// webpush-go writes "mailto:" before any subject that is not https:.
		Subscriber:      strings.TrimPrefix(s.Subject, "mailto:"),
		VAPIDPublicKey:  s.PublicKey,
		VAPIDPrivateKey: s.PrivateKey,
		TTL:             int(ttl.Seconds()),
		Urgency:         webpush.UrgencyHigh,
	})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		return notify.ErrGone
	case res.StatusCode >= 300 && res.StatusCode < 400:
		// Push services (RFC 8030) do not redirect. An endpoint that does
		// is not a push service, or no longer the browser's, and retrying
		// for a day changes nothing: the subscription is forgotten like a
		// gone one (the browser turns push on again if it still wants it).
		return notify.ErrGone
	case res.StatusCode >= 300:
		return fmt.Errorf("push service answered %s", res.Status)
	}
	return nil
}

// KnownServices are the browsers' own push services' hosts (and their
// subdomains): Chrome's (FCM), Firefox's, Edge's (WNS) and Safari's.
var KnownServices = []string{"fcm.googleapis.com", "android.googleapis.com", "updates.push.services.mozilla.com",
	"push.services.mozilla.com", "notify.windows.com", "push.apple.com"}

// Allow is which endpoints a subscription may name, since the server posts
// to them: https on a known push service at its port 443 (written or not),
// or a host:port of extra exactly as given, over http or https, which is
// how a test points the server at a push service of its own
// (PUSH_ENDPOINT_HOSTS). Never with a user or password in the address:
// another port of a push service's host is not its push service, and
// credentials are nothing a browser's subscription carries.
func Allow(extra []string) func(*url.URL) bool {
	return func(u *url.URL) bool {
		if u.User != nil {
			return false
		}
		if slices.Contains(extra, u.Host) && (u.Scheme == "https" || u.Scheme == "http") {
			return true
		}
		host := u.Hostname()
		if u.Scheme != "https" || net.ParseIP(host) != nil || (u.Host != host && u.Host != host+":443") {
			return false
		}
		for _, k := range KnownServices {
			if host == k || strings.HasSuffix(host, "."+k) {
				return true
			}
		}
		return false
	}
}

// NewKeys makes a VAPID key pair as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY
// take it (base64url: the uncompressed P-256 point, the private scalar).
func NewKeys() (public, private string, err error) {
	private, public, err = webpush.GenerateVAPIDKeys()
	return public, private, err
}
