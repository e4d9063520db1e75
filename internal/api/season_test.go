package api_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/testkit"
)

// putBanner sends data as the season's banner (multipart field "banner").
func putBanner(t *testing.T, s *testkit.Server, token, tournament string, data []byte) *testkit.Resp {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("banner", "banner.png")
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("PUT", s.URL+"/api/admin/tournaments/"+tournament+"/banner", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.Send(t, req)
}

// A season's own identity over HTTP: set by an organiser on the demo
// league, checked, audited, pushed live and read back by every public read.
func TestSeasonIdentityOverHTTP(t *testing.T) {
	s, login := leagueServer(t, "registration")
	admin, captain := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	player := s.SignUp(t, testkit.UniqueEmail("fan"), "fan_racer")
	valid := map[string]any{"display_name": "PPL Season 7", "hero": "Seven is here", "description": "Eight teams.\nOne cup.",
		"starts_at": "2026-12-01", "ends_at": "2026-12-20"}
	with := func(field string, v any) map[string]any {
		in := map[string]any{}
		for k, x := range valid {
			in[k] = x
		}
		in[field] = v
		return in
	}

	t.Run("TheDemoSeasonKeepsItsOwnHero", func(t *testing.T) {
		info := s.Do(t, "GET", "/api/tournament/info?tournamentName=PPL7", "", nil).JSON
		if info["display_name"] != "PPLS-6.0" || info["hero"] != "PPLS-6.0 is back" || info["hero_default"] != false ||
			info["description"] != "" || info["starts_at"] != nil || info["banner_url"] != nil {
			t.Fatalf("%v", info)
		}
	})

	t.Run("ErrNotAnOrganiser", func(t *testing.T) {
		for who, token := range map[string]string{"a captain": captain, "a player": player} {
			if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", token, valid); r.Status != 403 {
				t.Errorf("%s: %d %s", who, r.Status, r.Body)
			}
			if r := putBanner(t, s, token, "PPL7", pngOf(t, 64, 32)); r.Status != 403 {
				t.Errorf("%s's banner: %d %s", who, r.Status, r.Body)
			}
			if r := s.Do(t, "DELETE", "/api/admin/tournaments/PPL7/banner", token, nil); r.Status != 403 {
				t.Errorf("%s's banner removed: %d %s", who, r.Status, r.Body)
			}
		}
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", "", valid); r.Status != 401 {
			t.Errorf("anonymous: %d %s", r.Status, r.Body)
		}
		if info := s.Do(t, "GET", "/api/tournament/info", "", nil).JSON; info["display_name"] != "PPLS-6.0" {
			t.Errorf("a refused call changed the season: %v", info)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		for _, c := range []struct {
			name string
			in   any
			msg  string
		}{
			{"no display name", with("display_name", "  "), "A season's display name is 1 to 40 characters."},
			{"a display name of 41", with("display_name", strings.Repeat("x", 41)), "A season's display name is 1 to 40 characters."},
			{"a hero of 81", with("hero", strings.Repeat("é", 81)), "The hero line is at most 80 characters."},
			{"a description of 501", with("description", strings.Repeat("d", 501)), "The description is at most 500 characters."},
			{"a right-to-left override", with("display_name", "PPL\u202e8"), "The display name may not contain control or formatting characters."},
			{"a bell in the hero", with("hero", "ring\a"), `Field "hero" must not contain control characters other than tabs and line breaks`},
			{"a tab in the description", with("description", "a\tb"), "The description may not contain control or formatting characters."},
			{"a date that is none", with("starts_at", "1st of December"), "starts_at must be a date (YYYY-MM-DD)."},
			{"a date out of range", with("ends_at", "1999-12-31"), "ends_at must be a date between 2000 and 2099."},
			{"the end before the start", with("ends_at", "2026-11-30"), "The season cannot end before it starts."},
			{"an unknown field", with("colour", "red"), `Unknown field "colour"`},
		} {
			r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", admin, c.in)
			if r.Status != 400 || r.Message() != c.msg {
				t.Errorf("%s: %d %q, want 400 %q", c.name, r.Status, r.Message(), c.msg)
			}
		}
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL99", admin, valid); r.Status != 404 {
			t.Errorf("an unknown season: %d %s", r.Status, r.Body)
		}
	})

	t.Run("OK", func(t *testing.T) {
		ws := testkit.DialWS(t, s.URL, "")
		ws.Subscribe(nil, "registrations")
		ws.Ping()
		r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", admin, valid)
		if r.Status != 200 || r.JSON["name"] != "PPL7" || r.JSON["display_name"] != "PPL Season 7" || r.JSON["hero"] != "Seven is here" ||
			r.JSON["description"] != "Eight teams.\nOne cup." || r.JSON["starts_at"] != "2026-12-01" || r.JSON["ends_at"] != "2026-12-20" ||
			r.JSON["status"] != "registration" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		ev := ws.WaitEvent("registrations", "tournament.updated", 5*time.Second)
		if ev.Data["tournament"] != "PPL7" || ev.Data["display_name"] != "PPL Season 7" || ev.Data["hero"] != "Seven is here" {
			t.Fatalf("event: %v", ev.Data)
		}
		for _, path := range []string{"/api/tournament/info", "/api/tournament/info?tournamentName=PPL7", "/api/tournaments/PPL7"} {
			got := s.Do(t, "GET", path, "", nil).JSON
			if got["display_name"] != "PPL Season 7" || got["hero"] != "Seven is here" || got["description"] != "Eight teams.\nOne cup." ||
				got["starts_at"] != "2026-12-01" || got["ends_at"] != "2026-12-20" || got["hero_default"] != false {
				t.Errorf("%s: %v", path, got)
			}
		}
		list := s.Do(t, "GET", "/api/tournaments", "", nil).JSON["tournaments"].([]any)
		if first := list[0].(map[string]any); first["name"] != "PPL7" || first["display_name"] != "PPL Season 7" {
			t.Errorf("the seasons' list: %v", first)
		}
		page := seasonAudit(t, s, admin, "tournament=PPL7&action=tournament.identity")
		if len(page) != 1 || page[0].Target != "PPL7" {
			t.Fatalf("audit: %+v", page)
		}
		var data map[string]any
		json.Unmarshal(page[0].Data, &data)
		if data["display_name"] != "PPL Season 7" || data["hero"] != "Seven is here" || data["ends_at"] != "2026-12-20" {
			t.Errorf("audit data: %v", data)
		}
	})

	t.Run("NoHeroIsTheDefaultFromTheName", func(t *testing.T) {
		r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7", admin, map[string]any{"display_name": "Season 7", "hero": "", "description": ""})
		if r.Status != 200 || r.JSON["hero"] != "Season 7 is on" || r.JSON["hero_default"] != true || r.JSON["starts_at"] != nil {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		// An RFC 3339 time gives its day as written.
		r = s.Do(t, "PUT", "/api/admin/tournaments/PPL7", admin, with("starts_at", "2026-12-01T23:30:00-05:00"))
		if r.Status != 200 || r.JSON["starts_at"] != "2026-12-01" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})

	t.Run("ANewSeasonGoesByItsName", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/admin/tournaments", admin, map[string]any{"name": "PPL8", "season": 8}); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		info := s.Do(t, "GET", "/api/tournaments/PPL8", "", nil).JSON
		if info["display_name"] != "PPL8" || info["hero"] != "PPL8 is on" || info["hero_default"] != true {
			t.Fatalf("%v", info)
		}
	})

	t.Run("Banner", func(t *testing.T) {
		ws := testkit.DialWS(t, s.URL, "")
		ws.Subscribe(nil, "registrations")
		ws.Ping()
		img := pngOf(t, 1200, 300)
		r := putBanner(t, s, admin, "PPL7", img)
		url, _ := r.JSON["banner_url"].(string)
		if r.Status != 200 || !strings.HasPrefix(url, "/api/images/") {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if ev := ws.WaitEvent("registrations", "tournament.updated", 5*time.Second); ev.Data["banner_url"] != url {
			t.Fatalf("event: %v", ev.Data)
		}
		got := s.Do(t, "GET", url, "", nil)
		if got.Status != 200 || got.Header.Get("Content-Type") != "image/png" || !bytes.Equal(got.Body, img) {
			t.Fatalf("the banner: %d %s", got.Status, got.Header.Get("Content-Type"))
		}
		if info := s.Do(t, "GET", "/api/tournament/info", "", nil).JSON; info["banner_url"] != url {
			t.Fatalf("info: %v", info)
		}
		// Vetted as every upload: by its bytes, its size and its canvas.
		for _, c := range []struct {
			name   string
			data   []byte
			status int
		}{
			{"text named .png", []byte("not an image at all, only text"), 415},
			{"nine megabytes", append(screens.PNGClaiming(100, 100), bytes.Repeat([]byte{0}, 9<<20)...), 413},
			{"a canvas too large", screens.PNGClaiming(20000, 20000), 413},
		} {
			if r := putBanner(t, s, admin, "PPL7", c.data); r.Status != c.status {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		if info := s.Do(t, "GET", "/api/tournament/info", "", nil).JSON; info["banner_url"] != url {
			t.Errorf("a refused upload changed the banner: %v", info)
		}
		if page := seasonAudit(t, s, admin, "tournament=PPL7&action=tournament.banner"); len(page) != 1 {
			t.Errorf("audit: %+v", page)
		}
		r = s.Do(t, "DELETE", "/api/admin/tournaments/PPL7/banner", admin, nil)
		if r.Status != 200 || r.JSON["banner_url"] != nil {
			t.Fatalf("remove: %d %s", r.Status, r.Body)
		}
		if page := seasonAudit(t, s, admin, "tournament=PPL7&action=tournament.banner"); len(page) != 2 {
			t.Errorf("audit after the removal: %+v", page)
		}
	})
}

// seasonAudit is the audit log's entries for query, with their data.
func seasonAudit(t *testing.T, s *testkit.Server, token, query string) []struct {
	Target string          `json:"target"`
	Data   json.RawMessage `json:"data"`
} {
	t.Helper()
	var page struct {
		Entries []struct {
			Target string          `json:"target"`
			Data   json.RawMessage `json:"data"`
		} `json:"entries"`
	}
	r := s.Do(t, "GET", "/api/admin/audit?"+query, token, nil)
	if r.Status != 200 || json.Unmarshal(r.Body, &page) != nil {
		t.Fatalf("audit ?%s: %d %s", query, r.Status, r.Body)
	}
	return page.Entries
}

// pngOf is a w by h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
