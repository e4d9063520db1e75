package push_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/push"
	"github.com/pitlane/pitlane/internal/testkit"
)

// The sender's message reaches a push service that checks its VAPID JWT and
// decrypts it as the browser would; a subscription the service forgot is
// ErrGone, a failing service an error to retry.
func TestSendToAPushService(t *testing.T) {
	ps := testkit.NewPushService(t)
	s := push.Sender{PublicKey: ps.VAPIDPublic, PrivateKey: ps.VAPIDPrivate, Subject: "mailto:league@example.com"}
	d := ps.Browser(t)
	m := notify.Message{Kind: notify.KindBought, Title: "Team A bought you", Body: "For 1600 credits.", URL: "https://x/auction", Tag: "lot:7:sold"}
	if err := s.Push(context.Background(), d, m); err != nil {
		t.Fatal(err)
	}
	got := ps.Messages()
	if len(got) != 1 || got[0].Message != m || got[0].Subject != "mailto:league@example.com" {
		t.Fatalf("received %+v (refused %v)", got, ps.Refused())
	}
	ps.Fail(1)
	if err := s.Push(context.Background(), d, m); err == nil || errors.Is(err, notify.ErrGone) {
		t.Fatalf("a failing push service: %v", err)
	}
	ps.Forget(d.Endpoint)
	if err := s.Push(context.Background(), d, m); !errors.Is(err, notify.ErrGone) {
		t.Fatalf("a forgotten subscription: %v, want ErrGone", err)
	}
}

// A push service does not redirect: a 3xx is a failed delivery that no
// retry mends, answered as a subscription gone, and the redirect is never
// followed (the message would go where the endpoint's owner sends it).
func TestRedirectsAreNotFollowed(t *testing.T) {
	ps := testkit.NewPushService(t)
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
	d := ps.Browser(t)
	d.Endpoint = redirect.URL + "/push/1"
	s := push.Sender{PublicKey: ps.VAPIDPublic, PrivateKey: ps.VAPIDPrivate, Subject: "mailto:league@example.com"}
	for _, client := range []*http.Client{nil, {}} { // the sender's own client, and one given to it
		s.Client = client
		if err := s.Push(context.Background(), d, notify.Message{Kind: notify.KindOutbid, Title: "Outbid"}); !errors.Is(err, notify.ErrGone) {
			t.Errorf("a redirecting endpoint: %v, want ErrGone", err)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Fatalf("the redirect was followed %d times", n)
	}
}

// Endpoints are https on a browser's push service on its port 443, or a
// host:port of PUSH_ENDPOINT_HOSTS as given; never with a user or password.
func TestAllowedEndpoints(t *testing.T) {
	allow := push.Allow([]string{"127.0.0.1:9999"})
	for raw, want := range map[string]bool{
		"https://fcm.googleapis.com/fcm/send/abc":              true,
		"https://updates.push.services.mozilla.com/wpush/v2/x": true,
		"https://wns2-par02p.notify.windows.com/w/?token=x":    true,
		"https://web.push.apple.com/abc":                       true,
		"http://fcm.googleapis.com/fcm/send/abc":               false,
		"https://fcm.googleapis.com.evil.example/x":            false,
		"https://169.254.169.254/latest":                       false,
		"http://127.0.0.1:9999/push/1":                         true,
		"http://127.0.0.1:9998/push/1":                         false,
		"https://fcm.googleapis.com:443/fcm/send/abc":          true,
		"https://fcm.googleapis.com:6379/fcm/send/abc":         false,
		"https://fcm.googleapis.com:22/x":                      false,
		"https://fcm.googleapis.com:0/x":                       false,
		"https://fcm.googleapis.com:99999/x":                   false,
		"https://fcm.googleapis.com:/x":                        false,
		"https://user:pass@fcm.googleapis.com/x":               false,
		"https://user@fcm.googleapis.com/x":                    false,
		"http://user:pass@127.0.0.1:9999/push/1":               false,
		"ftp://127.0.0.1:9999/push/1":                          false,
	} {
		u, _ := url.Parse(raw)
		if got := allow(u); got != want {
			t.Errorf("%s: %v, want %v", raw, got, want)
		}
	}
}
