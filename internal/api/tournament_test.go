package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/testkit"
)

func TestStats(t *testing.T) {
	s := newServer(t, testkit.Options{})
	token := s.SignUp(t, testkit.UniqueEmail("stats"), "stats_racer")
	valid := func() map[string]any {
		return map[string]any{"sk_id": 1234, "level": 12, "kills": 300, "deaths": 150, "games_played": 90, "kd": 2,
			"cart_image": nil, "description": "hi", "category": 3, "preferred_role": "Player"}
	}
	with := func(k string, v any) map[string]any { m := valid(); m[k] = v; return m }

	t.Run("ErrLoggedOut", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/stats/save", "", valid())
		if r.Status != 401 || r.Message() != "Please login to save your stats" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("GetNoneYet", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/stats/get", token, nil)
		if r.Status != 200 || r.JSON["stats"] != nil || r.JSON["success"] != true {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	invalid := []struct {
		name string
		body any
		msg  string
	}{
		{"ErrNegativeKills", with("kills", -1), "Kills, deaths and games played must be whole numbers from 0 to 10000000"},
		{"ErrCategory", with("category", 5), "Category must be between 1 and 4"},
		{"ErrLevelType", with("level", "ten"), `Field "level" must be a number`},
		{"ErrCartImageURL", with("cart_image", "http://evil.example/x.png"), "cart_image must be an uploaded image or a data URL"},
		{"ErrDescription", with("description", strings.Repeat("x", 501)), "Description must be at most 500 characters"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(t, "POST", "/api/stats/save", token, tc.body)
			if r.Status != 400 || r.Message() != tc.msg {
				t.Fatalf("%d %q, want 400 %q", r.Status, r.Message(), tc.msg)
			}
		})
	}
	t.Run("ErrCartImageNotAnImage", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/stats/save", token, with("cart_image", "data:image/png;base64,"+base64.StdEncoding.EncodeToString([]byte("<script>alert(1)</script>"))))
		if r.Status != 415 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrCartImageBomb", func(t *testing.T) {
		// A few hundred bytes claiming 20000x20000: shown to every visitor, it
		// would be a bomb in their browsers.
		bomb := screens.PNGClaiming(20000, 20000)
		r := s.Do(t, "POST", "/api/stats/save", token, with("cart_image", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(bomb)))
		if r.Status != 413 || r.Message() != "cart_image: Image is larger than 4096x4096 pixels" {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrCartImageGIF", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/stats/save", token, with("cart_image", "data:image/gif;base64,"+base64.StdEncoding.EncodeToString([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))))
		if r.Status != 415 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("OKWithCartImageStoredOnce", func(t *testing.T) {
		png := tinyPNG()
		r := s.Do(t, "POST", "/api/stats/save", token, with("cart_image", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png)))
		if r.Status != 200 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		st := r.JSON["stats"].(map[string]any)
		url, _ := st["cart_image"].(string)
		if !strings.HasPrefix(url, "/api/images/") || st["verified"] != false || st["sk_id"] != "1234" {
			t.Fatalf("stats %v", st)
		}
		img := s.Do(t, "GET", url, "", nil)
		if img.Status != 200 || !bytes.Equal(img.Body, png) || img.Header.Get("Content-Type") != "image/png" ||
			!strings.Contains(img.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("image: %d %v", img.Status, img.Header)
		}
		// Saving again with the URL keeps the one stored image.
		if r := s.Do(t, "POST", "/api/stats/save", token, with("cart_image", url)); r.Status != 200 {
			t.Fatalf("resave: %d %q", r.Status, r.Message())
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM images WHERE id = $1`, strings.TrimPrefix(url, "/api/images/")).Scan(&n)
		if n != 1 {
			t.Fatalf("%d copies", n)
		}
	})
	t.Run("ProfileShowsUnverifiedUpload", func(t *testing.T) {
		p := s.Do(t, "GET", "/api/auth/profile", token, nil).JSON["user"].(map[string]any)
		if p["sk_stats_uploaded"] != true || p["sk_stats_verified"] != false || p["stats_data"] == nil {
			t.Fatalf("profile %v", p)
		}
	})
	t.Run("ErrDeleteWhileRegistered", func(t *testing.T) {
		s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"})
		if r := s.Do(t, "DELETE", "/api/stats/delete", token, nil); r.Status != 409 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
		s.Do(t, "POST", "/api/tournament/unregister", token, map[string]string{"tournamentName": "PPL7"})
		if r := s.Do(t, "DELETE", "/api/stats/delete", token, nil); r.Status != 200 {
			t.Fatalf("after unregister: %d %q", r.Status, r.Message())
		}
		if r := s.Do(t, "GET", "/api/stats/get", token, nil); r.JSON["stats"] != nil {
			t.Fatalf("still there: %s", r.Body)
		}
	})
}

func TestRegistration(t *testing.T) {
	admin := testkit.UniqueEmail("admin")
	s := newServer(t, testkit.Options{Admins: []string{admin}})
	adminToken := s.SignUp(t, admin, "organiser")
	token := s.SignUp(t, testkit.UniqueEmail("reg"), "reg_racer")
	reg := func(tok, name string) *testkit.Resp {
		return s.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": name})
	}
	unreg := func(tok, name string) *testkit.Resp {
		return s.Do(t, "POST", "/api/tournament/unregister", tok, map[string]string{"tournamentName": name})
	}
	expect := func(t *testing.T, r *testkit.Resp, status int, msg string) {
		t.Helper()
		if r.Status != status || (msg != "" && r.Message() != msg) {
			t.Fatalf("got %d %q, want %d %q", r.Status, r.Message(), status, msg)
		}
	}

	t.Run("ErrLoggedOut", func(t *testing.T) { expect(t, reg("", "PPL7"), 401, "") })
	t.Run("ErrNoStats", func(t *testing.T) {
		expect(t, reg(token, "PPL7"), 400, "Please upload your SK stats first before registering for the tournament!")
	})
	t.Run("ErrNoDiscord", func(t *testing.T) {
		email := testkit.UniqueEmail("nodiscord")
		r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": s.Google.Sign(t, s.Google.Claims("sub-"+email, email))})
		if r.Status != 200 {
			t.Fatalf("google login: %d", r.Status)
		}
		googleToken := r.JSON["token"].(string)
		s.SaveStats(t, googleToken)
		expect(t, reg(googleToken, "PPL7"), 400, "Please link your Discord username before registering for the tournament!")
		s.Do(t, "POST", "/api/auth/update-discord-username", googleToken, map[string]string{"discordUsername": "linked_now"})
		expect(t, reg(googleToken, "PPL7"), 200, "Successfully registered for the tournament!")
		expect(t, unreg(googleToken, "PPL7"), 200, "")
	})
	s.SaveStats(t, token)
	t.Run("ErrUnknownTournament", func(t *testing.T) { expect(t, reg(token, "PPL99"), 404, "Tournament PPL99 not found") })
	t.Run("OK", func(t *testing.T) { expect(t, reg(token, "PPL7"), 200, "Successfully registered for the tournament!") })
	t.Run("ErrAlreadyRegistered", func(t *testing.T) {
		expect(t, reg(token, "PPL7"), 409, "You are already registered for the tournament!")
	})
	t.Run("StatusRegistered", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL7", token, nil)
		if r.JSON["registered"] != true {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("ErrNonAdminClosesRegistration", func(t *testing.T) {
		expect(t, s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", token, map[string]string{"status": "auction"}), 403, "")
	})
	t.Run("ErrClosed", func(t *testing.T) {
		expect(t, s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", adminToken, map[string]any{"status": "auction", "force": true}), 200, "")
		defer s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", adminToken, map[string]string{"status": "registration"})
		expect(t, unreg(token, "PPL7"), 409, "")
		other := s.SignUp(t, testkit.UniqueEmail("late"), "late_racer")
		s.SaveStats(t, other)
		expect(t, reg(other, "PPL7"), 409, "Registration for PPL7 is closed.")
	})
	t.Run("Unregister", func(t *testing.T) {
		expect(t, unreg(token, "PPL7"), 200, "Successfully unregistered from the tournament.")
		expect(t, unreg(token, "PPL7"), 409, "You are not registered for the tournament.")
		r := s.Do(t, "GET", "/api/tournament/status", token, nil)
		if r.JSON["registered"] != false {
			t.Fatalf("%s", r.Body)
		}
	})
}

func TestRegisterIsAtomic(t *testing.T) {
	s := newServer(t, testkit.Options{})
	token := s.SignUp(t, testkit.UniqueEmail("race"), "race_racer")
	s.SaveStats(t, token)
	var wg sync.WaitGroup
	count := map[int]int{}
	var mu sync.Mutex
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"}).Status
			mu.Lock()
			count[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	var rows int
	s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM registrations r JOIN users u ON u.id = r.user_id
		WHERE u.discord_username = 'race_racer'`).Scan(&rows)
	if count[200] != 1 || count[409] != 49 || rows != 1 {
		t.Fatalf("statuses %v, rows %d: want one 200, 49 409 and one row", count, rows)
	}
}

func TestRegistrationsArePublicWithoutEmails(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("public")
	token := s.SignUp(t, email, "public_racer")
	s.SaveStats(t, token)
	s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"})

	r := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil)
	if r.Status != 200 {
		t.Fatalf("%d", r.Status)
	}
	if bytes.Contains(r.Body, []byte("@")) || bytes.Contains(r.Body, []byte("password")) {
		t.Fatalf("public list leaks: %s", r.Body)
	}
	var found map[string]any
	for _, p := range r.JSON["players"].([]any) {
		if p.(map[string]any)["discord_id"] == "public_racer" {
			found = p.(map[string]any)
		}
	}
	if found == nil || found["kills"] != 900.0 || found["s_id"] != "424242" {
		t.Fatalf("player card %v", found)
	}
	for _, k := range []string{"name", "image", "s_id", "kd", "games_played", "level", "description", "discord_id",
		"is_discord_verified", "cart_image", "badges", "created_at"} {
		if _, ok := found[k]; !ok {
			t.Errorf("card lacks %s", k)
		}
	}
	t.Run("ParticipantsIsAnAlias", func(t *testing.T) {
		if a := s.Do(t, "GET", "/api/tournament/participants", "", nil); !bytes.Equal(a.Body, r.Body) {
			t.Fatal("participants differs from registrations")
		}
	})
	t.Run("GzipAndETag", func(t *testing.T) {
		req, _ := http.NewRequest("GET", s.URL+"/api/tournament/registrations", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(res.Body)
		if err != nil || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("not gzipped: %v", err)
		}
		plain, _ := io.ReadAll(zr)
		res.Body.Close()
		if !bytes.Equal(plain, r.Body) {
			t.Fatal("gzipped body differs")
		}
		req.Header.Set("If-None-Match", res.Header.Get("ETag"))
		res2, _ := http.DefaultTransport.RoundTrip(req)
		res2.Body.Close()
		if res2.StatusCode != 304 {
			t.Fatalf("If-None-Match: %d", res2.StatusCode)
		}
	})
	t.Run("CacheFollowsChanges", func(t *testing.T) {
		s.Do(t, "POST", "/api/tournament/unregister", token, map[string]string{"tournamentName": "PPL7"})
		after := s.Do(t, "GET", "/api/tournament/registrations", "", nil)
		if bytes.Contains(after.Body, []byte("public_racer")) {
			t.Fatal("unregistered player still listed")
		}
		s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL7"})
		s.Do(t, "POST", "/api/auth/update-discord-username", token, map[string]string{"discordUsername": "renamed_racer"})
		again := s.Do(t, "GET", "/api/tournament/registrations", "", nil)
		if !bytes.Contains(again.Body, []byte("renamed_racer")) {
			t.Fatal("rename not shown")
		}
	})
}

func TestDeck(t *testing.T) {
	admin := testkit.UniqueEmail("presenter")
	s := newServer(t, testkit.Options{Admins: []string{admin}})
	adminToken := s.SignUp(t, admin, "presenter")
	user := s.SignUp(t, testkit.UniqueEmail("viewer"), "viewer")
	if r := s.Do(t, "POST", "/api/deck", user, map[string]int{"slide": 2}); r.Status != 403 {
		t.Fatalf("non-admin: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/deck", adminToken, map[string]int{"slide": 11}); r.Status != 400 {
		t.Fatalf("slide 11: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/deck", adminToken, map[string]int{"slide": 4}); r.Status != 200 {
		t.Fatalf("admin: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "GET", "/api/deck", "", nil); r.JSON["slide"] != 4.0 {
		t.Fatalf("current: %s", r.Body)
	}
}

func TestNewsletter(t *testing.T) {
	s := newServer(t, testkit.Options{})
	if r := s.Do(t, "POST", "/api/newsletter", "", map[string]string{"email": "fan@example.com"}); r.Status != 201 {
		t.Fatalf("%d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/newsletter", "", map[string]string{"email": "fan@example.com"}); r.Status != 201 {
		t.Fatalf("again: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/newsletter", "", map[string]string{"email": "nope"}); r.Status != 400 {
		t.Fatalf("bad: %d", r.Status)
	}
}

func TestTeams(t *testing.T) {
	s := newServer(t, testkit.Options{})
	r := s.Do(t, "GET", "/api/tournament/teams?tournamentName=PPL7", "", nil)
	if r.Status != 200 {
		t.Fatalf("%d", r.Status)
	}
	var body struct{ Teams []any }
	json.Unmarshal(r.Body, &body)
	if body.Teams == nil {
		t.Fatalf("teams missing: %s", r.Body)
	}
}

// tinyPNG is a valid 1x1 PNG.
func tinyPNG() []byte {
	b, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	return b
}

// DEFAULT_TOURNAMENT may name a tournament the migrations did not create:
// the server creates it, open for registration, and signing in works.
func TestDefaultTournamentIsCreated(t *testing.T) {
	name := "PPL-" + strings.ToUpper(testkit.UniqueEmail("t")[2:10])
	s := newServer(t, testkit.Options{Configure: func(c *config.Config) { c.DefaultTournament = name }})
	token := s.SignUp(t, testkit.UniqueEmail("newseason"), "new_season")
	if r := s.Do(t, "GET", "/api/auth/profile", token, nil); r.Status != 200 {
		t.Fatalf("profile: %d %q", r.Status, r.Message())
	}
	s.SaveStats(t, token)
	if r := s.Do(t, "POST", "/api/tournament/register", token, map[string]string{}); r.Status != 200 {
		t.Fatalf("register for the default tournament: %d %q", r.Status, r.Message())
	}
	r := s.Do(t, "GET", "/api/tournament/registrations", "", nil)
	if r.Status != 200 || r.JSON["tournament"] != name || r.JSON["count"] != float64(1) {
		t.Fatalf("registrations: %d %v", r.Status, r.JSON)
	}
}
