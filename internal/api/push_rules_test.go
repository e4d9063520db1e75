package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/testkit"
)

// pushServer serves with VAPID keys, allowed to post to the fake push
// service and to the extra hosts given.
func pushServer(t *testing.T, extra ...string) (*testkit.Server, *testkit.PushService) {
	t.Helper()
	ps := testkit.NewPushService(t)
	s := newServer(t, testkit.Options{Configure: func(c *config.Config) {
		c.VAPIDPublicKey, c.VAPIDPrivateKey, c.VAPIDSubject = ps.VAPIDPublic, ps.VAPIDPrivate, "mailto:league@example.com"
		c.PushEndpointHosts = append([]string{ps.Host()}, extra...)
	}})
	return s, ps
}

func devices(t *testing.T, s *testkit.Server, token string) float64 {
	t.Helper()
	return s.Do(t, "GET", "/api/me/notifications", token, nil).JSON["push"].(map[string]any)["devices"].(float64)
}

// An endpoint is a browser's push service at its port 443 (or a host:port
// of PUSH_ENDPOINT_HOSTS as configured), never with a user or password.
func TestPushEndpointsAreOnlyPushServices(t *testing.T) {
	s, ps := pushServer(t)
	tok := s.SignUp(t, testkit.UniqueEmail("push"), "push_racer")
	keys := ps.Browser(t).Keys
	for endpoint, want := range map[string]int{
		"https://fcm.googleapis.com:6379/fcm/send/x":  422,
		"https://fcm.googleapis.com:22/fcm/send/x":    422,
		"https://fcm.googleapis.com:0/fcm/send/x":     422,
		"https://fcm.googleapis.com:99999/fcm/send/x": 422,
		"https://user:pass@fcm.googleapis.com/x":      422,
		"http://user:pass@" + ps.Host() + "/push/9":   422,
		"https://fcm.googleapis.com:443/fcm/send/x":   201,
		"https://fcm.googleapis.com/fcm/send/y":       201,
	} {
		if r := s.Do(t, "POST", "/api/me/notifications/push", tok, map[string]any{"endpoint": endpoint, "keys": keys}); r.Status != want {
			t.Errorf("%s: %d %q, want %d", endpoint, r.Status, r.Message(), want)
		}
	}
}

// A browser's subscription moves to another account only from that
// browser (the same keys: signed in as someone else now); anyone else
// posting its endpoint is refused and the owner keeps it.
func TestAPushSubscriptionIsNotTakenOver(t *testing.T) {
	s, ps := pushServer(t)
	owner, other := s.SignUp(t, testkit.UniqueEmail("owner"), "owner_racer"), s.SignUp(t, testkit.UniqueEmail("other"), "other_racer")
	browser := ps.Browser(t)
	if r := s.Do(t, "POST", "/api/me/notifications/push", owner, browser); r.Status != 201 {
		t.Fatalf("subscribe: %d %q", r.Status, r.Message())
	}
	stranger := browser
	stranger.Keys = ps.Browser(t).Keys
	if r := s.Do(t, "POST", "/api/me/notifications/push", other, stranger); r.Status != 409 || r.Message() == "" {
		t.Fatalf("another account with other keys: %d %q, want 409", r.Status, r.Message())
	}
	if devices(t, s, owner) != 1 || devices(t, s, other) != 0 {
		t.Fatalf("the subscription moved: owner %v, other %v", devices(t, s, owner), devices(t, s, other))
	}
	// The owner's browser subscribing again with new keys stays the owner's.
	if r := s.Do(t, "POST", "/api/me/notifications/push", owner, stranger); r.Status != 201 || devices(t, s, owner) != 1 {
		t.Fatalf("the owner with new keys: %d %q", r.Status, r.Message())
	}
	// The same browser, signed in as the other account: it moves.
	if r := s.Do(t, "POST", "/api/me/notifications/push", other, stranger); r.Status != 201 {
		t.Fatalf("the same browser as another account: %d %q", r.Status, r.Message())
	}
	if devices(t, s, owner) != 0 || devices(t, s, other) != 1 {
		t.Fatalf("owner %v, other %v devices, want 0 and 1", devices(t, s, owner), devices(t, s, other))
	}
}

// A delivery to a subscription no push service may take (kept from before
// the endpoint rules, or on a host no longer allowed) is never posted and
// the subscription is dropped; so is one whose endpoint redirects, and the
// redirect is not followed.
func TestPushToAnEndpointNoLongerAllowedOrRedirecting(t *testing.T) {
	var followed atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		followed.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(elsewhere.Close)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/push/1", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	s, ps := pushServer(t, redirect.Listener.Addr().String())
	tok := s.SignUp(t, testkit.UniqueEmail("stale"), "stale_racer")
	ctx := context.Background()
	n := s.App.Server.Notify

	for _, endpoint := range []string{"https://fcm.googleapis.com:6379/fcm/send/old", redirect.URL + "/push/1"} {
		browser := ps.Browser(t)
		if r := s.Do(t, "POST", "/api/me/notifications/push", tok, browser); r.Status != 201 {
			t.Fatalf("subscribe: %d %q", r.Status, r.Message())
		}
		var device, user int64
		if err := s.DB.Pool.QueryRow(ctx, `UPDATE push_devices SET endpoint = $2 WHERE endpoint = $1 RETURNING id, user_id`,
			browser.Endpoint, endpoint).Scan(&device, &user); err != nil {
			t.Fatal(err)
		}
		id, _, err := n.Store.AddDelivery(ctx, notify.Delivery{Key: "test:" + endpoint, UserID: user, Channel: notify.ChannelPush,
			Target: strconv.FormatInt(device, 10), Kind: notify.KindOutbid, Title: "Outbid", URL: "https://x/auction"})
		if err != nil {
			t.Fatal(err)
		}
		if err := n.SendDue(ctx, notify.Send{Delivery: id}); err != nil {
			t.Errorf("%s: send: %v, want the device dropped", endpoint, err)
		}
		if d := devices(t, s, tok); d != 0 {
			t.Errorf("%s: %v devices kept, want 0", endpoint, d)
		}
	}
	if followed.Load() != 0 || len(ps.Messages()) != 0 {
		t.Fatalf("posted: %d followed redirects, %d messages", followed.Load(), len(ps.Messages()))
	}
}
