package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// Spectators on two instances that share Redis cheer on the auction, by
// POST /api/cheers and by the websocket's cheer frame, signed in or not:
// each spectator gets one cheers frame for the window with every
// instance's taps in it, not a frame per tap.
func TestCheersReachEverySpectatorMergedAcrossInstances(t *testing.T) {
	db := pgtest.DB(t)
	redisURL := testkit.RedisURL()
	prefix := testkit.UniquePrefix(t)
	same := func(c *config.Config) { c.RedisPrefix = prefix }
	one := testkit.NewServer(t, db, testkit.Options{RedisURL: redisURL, Configure: same})
	two := testkit.NewServer(t, db, testkit.Options{RedisURL: redisURL, Configure: same})
	watchOne, watchTwo := testkit.DialWS(t, one.URL, ""), testkit.DialWS(t, two.URL, "")
	watchOne.Subscribe(nil, "teams")
	watchTwo.Subscribe(nil, "teams")
	watchOne.Sync()
	watchTwo.Sync()

	token := one.SignUp(t, testkit.UniqueEmail("cheer"), "cheerer")
	for range 3 {
		if r := one.Do(t, http.MethodPost, "/api/cheers", token, map[string]string{"topic": "teams", "kind": "fire"}); r.Status != http.StatusNoContent {
			t.Fatalf("POST /api/cheers: %d %s", r.Status, r.Body)
		}
	}
	if r := two.Do(t, http.MethodPost, "/api/cheers", "", map[string]string{"topic": "teams", "kind": "fire"}); r.Status != http.StatusNoContent {
		t.Fatalf("a signed-out visitor's cheer: %d %s", r.Status, r.Body)
	}
	watchTwo.Send(map[string]string{"type": "cheer", "topic": "teams", "kind": "clap"})

	for name, ws := range map[string]*testkit.WS{"one": watchOne, "two": watchTwo} {
		var fire, clap int64
		frames := 0
		deadline := time.Now().Add(3 * time.Second)
		for fire+clap < 5 && time.Now().Before(deadline) {
			f := ws.Next(time.Until(deadline))
			if f.Type != "cheers" {
				continue
			}
			frames++
			fire, clap = fire+f.Counts["fire"], clap+f.Counts["clap"]
			if f.Topic != "teams" || f.WindowMs != 200 {
				t.Errorf("spectator %s: frame %+v", name, f)
			}
		}
		if fire != 4 || clap != 1 {
			t.Errorf("spectator %s counted %v fire and %v clap, want 4 and 1", name, fire, clap)
		}
		if frames > 2 {
			t.Errorf("spectator %s got %d frames for 5 taps sent at once, want one per window", name, frames)
		}
	}
}

func TestCheersOnlyOfTheFixedKindsOnPublicTopics(t *testing.T) {
	s := newServer(t, testkit.Options{})
	for _, body := range []string{`{"topic":"teams","kind":"boo"}`, `{"topic":"captains:PPL7","kind":"fire"}`, `{"topic":"teams"}`, `{"topic":"teams","kind":"fire","text":"hi"}`} {
		if r := s.Do(t, http.MethodPost, "/api/cheers", "", body); r.Status != http.StatusBadRequest {
			t.Errorf("POST /api/cheers %s: %d, want 400", body, r.Status)
		}
	}
}

func TestASignedOutVisitorCheersLessThanAnAccount(t *testing.T) {
	s := newServer(t, testkit.Options{RateLimitScale: 1})
	n := 0
	for ; n < 100; n++ {
		r := s.Do(t, http.MethodPost, "/api/cheers", "", map[string]string{"topic": "bracket", "kind": "wow"})
		if r.Status == http.StatusTooManyRequests {
			if r.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			break
		}
	}
	token := s.SignUp(t, testkit.UniqueEmail("cheer"), "cheerer")
	m := 0
	for ; m < 100; m++ {
		if r := s.Do(t, http.MethodPost, "/api/cheers", token, map[string]string{"topic": "bracket", "kind": "wow"}); r.Status == http.StatusTooManyRequests {
			break
		}
	}
	if n == 0 || n >= m {
		t.Fatalf("a visitor cheered %d times before 429, an account %d: want fewer for the visitor", n, m)
	}
}
