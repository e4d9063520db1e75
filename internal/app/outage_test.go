package app_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
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

// A registration that commits while Redis is unreachable answers 200, and
// every browser watching the list gets its event once Redis is back (the
// outbox relay delivers it late rather than never), on the instance that
// took the call and on the other; each event once, in seq order.
func TestRegistrationDuringRedisOutageReachesWatchers(t *testing.T) {
	db := pgtest.DB(t)
	u, err := url.Parse(testkit.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := testkit.NewProxy(t, u.Host)
	u.Host = proxy.Addr
	prefix := testkit.UniquePrefix(t)
	shared := func(c *config.Config) {
		c.RedisPrefix = prefix
		c.JWTSecret = "one-secret-for-every-instance-0123456789"
	}
	a := testkit.NewServer(t, db, testkit.Options{RedisURL: u.String(), Configure: shared})
	b := testkit.NewServer(t, db, testkit.Options{RedisURL: u.String(), Configure: shared})

	players := make([]string, 2)
	for i := range players {
		players[i] = a.SignUp(t, testkit.UniqueEmail("outage"), "outage_racer")
		a.SaveStats(t, players[i])
	}
	since := int64(b.Do(t, "GET", "/api/tournament/registrations", "", nil).JSON["seq"].(float64))
	watchA, watchB := testkit.DialWS(t, a.URL, ""), testkit.DialWS(t, b.URL, "")
	for _, w := range []*testkit.WS{watchA, watchB} {
		w.Subscribe(map[string]int64{"registrations": since}, "registrations")
		w.Ping()
	}

	proxy.Cut()
	for i, tok := range players {
		if r := a.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("register %d while Redis is down: %d %q, want 200", i, r.Status, r.Message())
		}
	}
	// The list is right at once, straight from PostgreSQL.
	if r := b.Do(t, "GET", "/api/tournament/registrations", "", nil); int64(r.JSON["seq"].(float64)) != since+2 {
		t.Fatalf("list seq %v during the outage, want %d", r.JSON["seq"], since+2)
	}
	time.Sleep(300 * time.Millisecond) // the relay tries, and fails, meanwhile
	proxy.Restore()

	for name, w := range map[string]*testkit.WS{"A (took the calls)": watchA, "B": watchB} {
		want := since + 1
		for want <= since+2 {
			f := w.Next(15 * time.Second)
			switch {
			case f.Type == "resync":
				t.Logf("%s: resync (allowed: the client reloads)", name)
				want = since + 3
			case f.Type == "event" && f.Event == "player.registered":
				if f.Seq != want {
					t.Fatalf("%s: event seq %d, want %d (no gap, no duplicate)", name, f.Seq, want)
				}
				want++
			default:
				t.Fatalf("%s: unexpected frame %+v", name, f)
			}
		}
	}
	t.Run("NothingTwice", func(t *testing.T) {
		watchB.Ping()
		late := testkit.DialWS(t, b.URL, "")
		late.Subscribe(map[string]int64{"registrations": since}, "registrations")
		for i := int64(1); i <= 2; i++ {
			if f := late.Next(5 * time.Second); f.Type != "event" || f.Seq != since+i {
				t.Fatalf("replay %d: %+v", i, f)
			}
		}
		late.Ping()
	})
}
