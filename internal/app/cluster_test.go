package app_test

import (
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// Two instances share PostgreSQL and Redis: what happens through one reaches
// clients of the other, in order, with a seq that rises by exactly one.
func TestTwoInstancesStayInStep(t *testing.T) {
	db := pgtest.DB(t)
	prefix := testkit.UniquePrefix(t)
	shared := func(c *config.Config) {
		c.RedisPrefix = prefix
		c.JWTSecret = "one-secret-for-every-instance-0123456789"
	}
	a := testkit.NewServer(t, db, testkit.Options{RedisURL: testkit.RedisURL(), Configure: shared})
	b := testkit.NewServer(t, db, testkit.Options{RedisURL: testkit.RedisURL(), Configure: shared})

	// The list read on B carries the seq to subscribe from: nothing is missed.
	list := b.Do(t, "GET", "/api/tournament/registrations", "", nil)
	since := int64(list.JSON["seq"].(float64))
	watcher := testkit.DialWS(t, b.URL, "")
	watcher.Subscribe(map[string]int64{"registrations": since}, "registrations")
	watcher.Ping()

	var tokens []string
	for i := 0; i < 3; i++ {
		tok := a.SignUp(t, testkit.UniqueEmail("cluster"), "cluster_racer")
		a.SaveStats(t, tok)
		tokens = append(tokens, tok)
	}
	for i, tok := range tokens {
		if r := a.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("register %d: %d", i, r.Status)
		}
	}
	for i := range tokens {
		f := watcher.WaitEvent("registrations", "player.registered", 10*time.Second)
		if f.Seq != since+int64(i)+1 {
			t.Fatalf("event %d has seq %d, want %d", i, f.Seq, since+int64(i)+1)
		}
		if f.Data["player"] == nil {
			t.Fatalf("event without player: %v", f.Data)
		}
	}

	t.Run("ReconnectWithSinceReplaysFromTheOtherInstance", func(t *testing.T) {
		late := testkit.DialWS(t, a.URL, "")
		late.Subscribe(map[string]int64{"registrations": since}, "registrations")
		for i := range tokens {
			f := late.WaitEvent("registrations", "player.registered", 10*time.Second)
			if f.Seq != since+int64(i)+1 {
				t.Fatalf("replayed seq %d, want %d", f.Seq, since+int64(i)+1)
			}
		}
	})
	t.Run("TokensWorkOnEveryInstance", func(t *testing.T) {
		if r := b.Do(t, "GET", "/api/auth/profile", tokens[0], nil); r.Status != 200 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("DeckMovesReachFollowersEverywhere", func(t *testing.T) {
		follower := testkit.DialWS(t, b.URL, "")
		follower.Subscribe(nil, "deck")
		follower.Ping()
		admin := testkit.UniqueEmail("presenter")
		// Admin rights come from ADMIN_EMAILS of the instance that takes the call.
		presenterServer := testkit.NewServer(t, db, testkit.Options{RedisURL: testkit.RedisURL(), Admins: []string{admin}, Configure: shared})
		tok := presenterServer.SignUp(t, admin, "presenter")
		if r := presenterServer.Do(t, "POST", "/api/deck", tok, map[string]int{"slide": 7}); r.Status != 200 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		f := follower.WaitEvent("deck", "slide.changed", 10*time.Second)
		if f.Data["slide"] != 7.0 {
			t.Fatalf("%v", f.Data)
		}
	})
}

// A database made again (dropped and loaded anew, restored, or a second one
// on the same Redis) starts its topics' seqs over: its events reach watchers
// instead of being skipped as seqs the live layer already has.
func TestADatabaseMadeAgainIsHeard(t *testing.T) {
	prefix := testkit.UniquePrefix(t)
	shared := func(c *config.Config) { c.RedisPrefix = prefix }
	register := func(s *testkit.Server) {
		tok := s.SignUp(t, testkit.UniqueEmail("again"), "again_racer")
		s.SaveStats(t, tok)
		if r := s.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("register: %d", r.Status)
		}
	}
	before := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{RedisURL: testkit.RedisURL(), Configure: shared})
	for range 3 {
		register(before)
	}
	// The live layer has them: seqs 1..3 of registrations at least.
	seen := testkit.DialWS(t, before.URL, "")
	seen.Subscribe(map[string]int64{"registrations": 0}, "registrations")
	for range 3 {
		seen.WaitEvent("registrations", "player.registered", 10*time.Second)
	}

	again := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{RedisURL: testkit.RedisURL(), Configure: shared})
	list := again.Do(t, "GET", "/api/tournament/registrations", "", nil)
	since := int64(list.JSON["seq"].(float64))
	watcher := testkit.DialWS(t, again.URL, "")
	watcher.Subscribe(map[string]int64{"registrations": since}, "registrations")
	watcher.Ping()
	register(again)
	if f := watcher.WaitEvent("registrations", "player.registered", 10*time.Second); f.Seq != since+1 {
		t.Fatalf("seq %d, want %d", f.Seq, since+1)
	}
}
