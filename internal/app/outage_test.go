package app_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// PostgreSQL going away degrades what needs it to a clear 503 and leaves
// the rest standing (liveness, the websocket hub, the last public list);
// when it comes back, the server recovers by itself, with no restart.
func TestDatabaseOutageDegradesAndRecovers(t *testing.T) {
	pgtest.DB(t) // the package's migrated database
	u, err := url.Parse(pgtest.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := testkit.NewProxy(t, u.Host)
	u.Host = proxy.Addr
	db, err := postgres.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	s := testkit.NewServer(t, db, testkit.Options{})
	token := s.SignUp(t, testkit.UniqueEmail("outage"), "outage_racer")

	before := s.Do(t, "GET", "/api/tournament/registrations", "", nil)
	if before.Status != 200 {
		t.Fatalf("registrations before the outage: %d", before.Status)
	}

	proxy.Cut()
	const down = "The database is unavailable. Please try again shortly."
	// The public list this instance last built stays up, marked stale.
	if r := s.Do(t, "GET", "/api/tournament/registrations", "", nil); r.Status != 200 ||
		r.Header.Get("Pitlane-Stale") != "true" || string(r.Body) != string(before.Body) {
		t.Errorf("registrations during the outage: %d stale=%q, want the last list, marked stale", r.Status, r.Header.Get("Pitlane-Stale"))
	}
	for _, c := range []struct{ method, path, token string }{
		{"GET", "/api/tournament/teams", ""},
		{"GET", "/api/auth/profile", token},
		{"POST", "/api/auth/login", ""},
	} {
		body := any(nil)
		if c.method == "POST" {
			body = map[string]string{"email": "someone@example.com", "password": "hunter22pw"}
		}
		if r := s.Do(t, c.method, c.path, c.token, body); r.Status != 503 || r.Message() != down {
			t.Errorf("%s %s during the outage: %d %q, want 503 %q", c.method, c.path, r.Status, r.Message(), down)
		}
	}
	if r := s.Do(t, "GET", "/readyz", "", nil); r.Status != 503 {
		t.Errorf("/readyz during the outage: %d, want 503", r.Status)
	}
	if r := s.Do(t, "GET", "/healthz", "", nil); r.Status != 200 {
		t.Errorf("/healthz during the outage: %d, want 200 (the process is alive)", r.Status)
	}
	ws := testkit.DialWS(t, s.URL, "")
	ws.Subscribe(nil, "registrations", "deck")
	ws.Ping()

	proxy.Restore()
	deadline := time.Now().Add(10 * time.Second)
	for s.Do(t, "GET", "/readyz", "", nil).Status != 200 {
		if time.Now().After(deadline) {
			t.Fatal("/readyz did not recover after the database came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := s.Do(t, "GET", "/api/auth/profile", token, nil); r.Status != 200 {
		t.Fatalf("profile after the outage: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "GET", "/api/tournament/registrations", "", nil); r.Status != 200 || r.Header.Get("Pitlane-Stale") != "" {
		t.Fatalf("registrations after the outage: %d stale=%q", r.Status, r.Header.Get("Pitlane-Stale"))
	}
	s.SaveStats(t, token)
	if r := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register after the outage: %d %q", r.Status, r.Message())
	}
	ws.WaitEvent("registrations", "player.registered", 5*time.Second)
}
