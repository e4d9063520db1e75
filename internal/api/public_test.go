package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// get sends a GET with the given headers.
func get(t *testing.T, s *testkit.Server, path string, headers ...string) *testkit.Resp {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return s.Send(t, req)
}

func TestPublicReadsAnswer304ToTheirETag(t *testing.T) {
	s, login := leagueServer(t, "auction")
	for _, path := range []string{
		"/api/tournaments",
		"/api/tournaments/PPL7",
		"/api/tournaments/PPL7/teams",
		"/api/tournaments/PPL7/auction/lot",
		"/api/tournament/info?tournamentName=PPL7",
		"/api/tournament/teams?tournamentName=PPL7",
	} {
		first := get(t, s, path)
		etag := first.Header.Get("ETag")
		if first.Status != 200 || !strings.HasPrefix(etag, `"`) || first.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d ETag %q Cache-Control %q", path, first.Status, etag, first.Header.Get("Cache-Control"))
		}
		if again := get(t, s, path); again.Header.Get("ETag") != etag {
			t.Errorf("%s: the same body got another ETag: %q, then %q", path, etag, again.Header.Get("ETag"))
		}
		for _, enc := range []string{"identity", "gzip"} {
			r := get(t, s, path, "If-None-Match", etag, "Accept-Encoding", enc)
			if r.Status != 304 || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
				t.Errorf("%s (%s): If-None-Match of the current ETag: %d, %d bytes, ETag %q", path, enc, r.Status, len(r.Body), r.Header.Get("ETag"))
			}
		}
		if r := get(t, s, path, "If-None-Match", `"something-older"`); r.Status != 200 || len(r.Body) == 0 {
			t.Errorf("%s: another ETag: %d", path, r.Status)
		}
	}

	// A change gives the lot a new ETag: the old one is answered in full.
	before := get(t, s, "/api/tournaments/PPL7/auction/lot")
	pool := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil).JSON["pool"].([]any)
	player := int(pool[0].(map[string]any)["user_id"].(float64))
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/lots", login(demo.AdminEmail), map[string]int{"userId": player}); r.Status != 201 {
		t.Fatalf("open a lot: %d %s", r.Status, r.Body)
	}
	after := get(t, s, "/api/tournaments/PPL7/auction/lot", "If-None-Match", before.Header.Get("ETag"))
	lot, _ := after.JSON["lot"].(map[string]any)
	if after.Status != 200 || lot == nil || int(lot["player"].(map[string]any)["user_id"].(float64)) != player {
		t.Fatalf("after a lot opened, the old ETag: %d %s", after.Status, after.Body)
	}

	// An error is not a representation to keep.
	if r := get(t, s, "/api/tournaments/NOPE/auction/lot"); r.Status != 404 || r.Header.Get("ETag") != "" {
		t.Errorf("unknown tournament: %d, ETag %q", r.Status, r.Header.Get("ETag"))
	}
}

func TestPublicReadsFromAnyOrigin(t *testing.T) {
	const listed, stream = "https://league.example", "https://stream.example"
	s := newServer(t, testkit.Options{Configure: func(c *config.Config) { c.CORSOrigins = []string{listed} }})
	token := s.SignUp(t, testkit.UniqueEmail("cors"), "corsfan")

	// Any site may read the public API, without credentials.
	r := get(t, s, "/api/tournaments", "Origin", stream)
	if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "*" || r.Header.Get("Access-Control-Allow-Credentials") != "" ||
		!strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "ETag") {
		t.Fatalf("public read from %s: %d %v", stream, r.Status, r.Header)
	}
	// A listed origin keeps its credentialed answer.
	r = get(t, s, "/api/tournaments", "Origin", listed)
	if r.Header.Get("Access-Control-Allow-Origin") != listed || r.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("public read from %s: %v", listed, r.Header)
	}
	// A private read is closed to other sites.
	if r := get(t, s, "/api/auth/profile", "Origin", stream, "Authorization", "Bearer "+token); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("private read allowed to %s: %v", stream, r.Header)
	}

	preflight := func(method, headers string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", s.URL+"/api/tournaments/PPL7/standings", nil)
		req.Header.Set("Origin", stream)
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", headers)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	// A conditional read (If-None-Match) is preflighted: allowed.
	if res := preflight("GET", "if-none-match"); res.StatusCode != 204 || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Headers"), "If-None-Match") {
		t.Fatalf("GET preflight from %s: %d %v", stream, res.StatusCode, res.Header)
	}
	// Writing, or sending a token, is not.
	for _, m := range []string{"POST", "DELETE"} {
		if res := preflight(m, "content-type"); res.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("%s preflight from %s allowed: %v", m, stream, res.Header)
		}
	}
	if res := preflight("GET", "authorization"); strings.Contains(strings.ToLower(res.Header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Fatalf("a token allowed from %s: %v", stream, res.Header)
	}
}
