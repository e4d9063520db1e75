package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/metrics"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// dashboard is the part of GET /api/admin/metrics the tests read.
type dashboard struct {
	Funnel []struct {
		Step   string         `json:"step"`
		Count  int            `json:"count"`
		Stuck  int            `json:"stuck"`
		Detail map[string]int `json:"detail"`
		Open   bool           `json:"open"`
	} `json:"funnel"`
	Deleted int `json:"funnel_deleted"`
	Stuck   map[string][]struct {
		UserID int64    `json:"user_id"`
		Name   string   `json:"name"`
		Reach  []string `json:"reach"`
	} `json:"stuck"`
	RUM     map[string]map[string]float64 `json:"rum"`
	Targets []struct {
		ID    string   `json:"id"`
		Value *float64 `json:"value"`
		OK    *bool    `json:"ok"`
	} `json:"targets"`
	API struct {
		Requests int64    `json:"requests"`
		P95Ms    *float64 `json:"p95_ms"`
	} `json:"api"`
	Uptime struct {
		Ratio     *float64       `json:"ratio"`
		Instances []instanceSeen `json:"instances"`
	} `json:"uptime"`
}

// instanceSeen is an instance as the dashboard lists it.
type instanceSeen struct {
	ID string `json:"id"`
	Up bool   `json:"up"`
}

func readDashboard(t *testing.T, s *testkit.Server, token, query string) (dashboard, *testkit.Resp) {
	t.Helper()
	r := s.Do(t, "GET", "/api/admin/metrics"+query, token, nil)
	if r.Status != 200 {
		t.Fatalf("dashboard: %d %s", r.Status, r.Body)
	}
	var d dashboard
	if err := json.Unmarshal(r.Body, &d); err != nil {
		t.Fatal(err)
	}
	return d, r
}

func (d dashboard) step(name string) (count, stuck int, detail map[string]int) {
	for _, s := range d.Funnel {
		if s.Step == name {
			return s.Count, s.Stuck, s.Detail
		}
	}
	return -1, -1, nil
}

func (d dashboard) stuckIDs(step string) []int64 {
	var ids []int64
	for _, p := range d.Stuck[step] {
		ids = append(ids, p.UserID)
	}
	return ids
}

// Players who stop at different steps are counted at the step they reached
// and listed (by name and id, never an e-mail) before the step they stopped
// at; a deleted account is counted apart and the organiser not at all.
func TestFunnelCountsPlayersWhereTheyStop(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{Admins: []string{organiser}})
	admin := s.SignUp(t, organiser, "league.organiser")

	// Stopped before verifying: signed up, never gave the code.
	unverified := testkit.UniqueEmail("unverified")
	if r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{"email": unverified, "password": testkit.Password,
		"confirmPassword": testkit.Password, "discordUsername": "never_verified"}); r.Status != 201 {
		t.Fatalf("signup: %d %s", r.Status, r.Body)
	}
	// Google: verified, no Discord name yet.
	googleEmail := testkit.UniqueEmail("google")
	if r := s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{
		"credential": s.Google.Sign(t, s.Google.Claims("sub-funnel", googleEmail))}); r.Status != 200 {
		t.Fatalf("google: %d %s", r.Status, r.Body)
	}
	noStatsEmail := testkit.UniqueEmail("nostats")
	noStats := s.SignUp(t, noStatsEmail, "no_stats_yet")
	_ = noStats
	notRegistered := s.SignUp(t, testkit.UniqueEmail("notreg"), "stats_only")
	s.SaveStats(t, notRegistered)
	registered := s.SignUp(t, testkit.UniqueEmail("reg"), "all_done")
	s.SaveStats(t, registered)
	if r := s.Do(t, "POST", "/api/tournament/register", registered, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	gone := s.SignUp(t, testkit.UniqueEmail("gone"), "gone_player")
	if r := s.Do(t, "DELETE", "/api/me", gone, map[string]string{"password": testkit.Password}); r.Status != 200 && r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	d, raw := readDashboard(t, s, admin, "")
	for _, c := range []struct {
		step         string
		count, stuck int
	}{
		{"signed_up", 5, 0}, {"verified", 4, 1}, {"discord", 3, 1}, {"stats", 2, 1}, {"registered", 1, 1}, {"checked_in", 0, 0},
	} {
		if count, stuck, _ := d.step(c.step); count != c.count || stuck != c.stuck {
			t.Errorf("%s: %d taken, %d stopped before it; want %d and %d", c.step, count, stuck, c.count, c.stuck)
		}
	}
	if _, _, detail := d.step("discord"); detail["typed"] != 3 || detail["proven"] != 0 {
		t.Errorf("discord: %v, want 3 typed and none proven", detail)
	}
	if _, _, detail := d.step("stats"); detail["typed"] != 2 {
		t.Errorf("stats: %v, want 2 typed", detail)
	}
	if d.Deleted != 1 {
		t.Errorf("deleted: %d, want 1 (counted apart)", d.Deleted)
	}
	for step, want := range map[string]int{"verified": 1, "discord": 1, "stats": 1, "registered": 1} {
		if got := len(d.Stuck[step]); got != want {
			t.Errorf("stopped before %s: %d listed, want %d", step, got, want)
		}
	}
	if p := d.Stuck["stats"]; len(p) == 1 && (p[0].Name != "no_stats_yet" || strings.Join(p[0].Reach, ",") != "email") {
		t.Errorf("stopped before stats: %+v, want no_stats_yet reachable by email", p[0])
	}
	if p := d.Stuck["verified"]; len(p) == 1 && len(p[0].Reach) != 0 {
		t.Errorf("an unverified address is no channel: %+v", p[0])
	}
	if regexp.MustCompile(`[A-Za-z0-9._-]+@[A-Za-z0-9.-]+`).Match(raw.Body) {
		t.Errorf("the dashboard carries an e-mail address: %s", raw.Body)
	}

	t.Run("CheckinOpens", func(t *testing.T) {
		deadline := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/checkin", admin, map[string]any{"deadline": deadline}); r.Status != 200 {
			t.Fatalf("open check-in: %d %s", r.Status, r.Body)
		}
		d, _ := readDashboard(t, s, admin, "")
		if count, stuck, _ := d.step("checked_in"); count != 0 || stuck != 1 {
			t.Fatalf("checked in: %d, stopped before: %d; want 0 and 1", count, stuck)
		}
		if r := s.Do(t, "POST", "/api/tournament/checkin", registered, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
			t.Fatalf("check in: %d %s", r.Status, r.Body)
		}
		d, _ = readDashboard(t, s, admin, "")
		if count, stuck, _ := d.step("checked_in"); count != 1 || stuck != 0 {
			t.Fatalf("checked in: %d, stopped before: %d; want 1 and 0", count, stuck)
		}
	})

	t.Run("PlayersMayNotRead", func(t *testing.T) {
		if r := s.Do(t, "GET", "/api/admin/metrics", registered, nil); r.Status != 403 {
			t.Errorf("a player: %d, want 403", r.Status)
		}
		if r := s.Do(t, "GET", "/api/admin/metrics", "", nil); r.Status != 401 {
			t.Errorf("anonymous: %d, want 401", r.Status)
		}
		if r := s.Do(t, "GET", "/api/admin/metrics?since=yesterday", admin, nil); r.Status != 400 {
			t.Errorf("since=yesterday: %d, want 400", r.Status)
		}
	})

	t.Run("Reminders", func(t *testing.T) {
		ids := d.stuckIDs("stats")
		remind := func(step string, ids []int64) map[string]any {
			t.Helper()
			r := s.Do(t, "POST", "/api/admin/metrics/reminders", admin, map[string]any{"step": step, "user_ids": ids})
			if r.Status != 200 {
				t.Fatalf("remind %s: %d %s", step, r.Status, r.Body)
			}
			return r.JSON
		}
		before := s.Mail.Count(noStatsEmail)
		out := remind("stats", ids)
		if sent := out["sent"].([]any); len(sent) != 1 || sent[0].(map[string]any)["channels"].([]any)[0] != "email" {
			t.Fatalf("sent: %v", out)
		}
		s.MailSettled(t)
		if s.Mail.Count(noStatsEmail) != before+1 || !strings.Contains(s.Mail.Last(noStatsEmail), "Upload a screenshot") {
			t.Fatalf("the reminder mail: %q", s.Mail.Last(noStatsEmail))
		}
		if r := s.Do(t, "POST", "/api/admin/metrics/reminders", registered, map[string]any{"step": "stats", "user_ids": ids}); r.Status != 403 {
			t.Errorf("a player reminds: %d, want 403", r.Status)
		}
		// Once a week per player and step.
		out = remind("stats", ids)
		if skipped := out["skipped"].([]any); len(skipped) != 1 || !strings.Contains(skipped[0].(map[string]any)["reason"].(string), "7 days") {
			t.Errorf("a second reminder: %v", out)
		}
		// A player past the step is not reminded of it; an unverified
		// address is never mailed.
		out = remind("stats", d.stuckIDs("registered"))
		if len(out["sent"].([]any)) != 0 {
			t.Errorf("a player with stats reminded to upload them: %v", out)
		}
		out = remind("verified", d.stuckIDs("verified"))
		if len(out["sent"].([]any)) != 0 || s.Mail.Count(unverified) != 1 {
			t.Errorf("an unverified address reminded: %v (%d mails)", out, s.Mail.Count(unverified))
		}
		audit := s.Do(t, "GET", "/api/admin/audit?tournament=PPL7&action=metrics.reminder", admin, nil)
		if entries := audit.JSON["entries"].([]any); len(entries) != 4 {
			t.Errorf("audit: %d reminder entries, want 4", len(entries))
		}
		// The mail's link turns reminders off: a week later, no channel
		// reaches the player.
		link := regexp.MustCompile(`token=(\S+)`).FindStringSubmatch(s.Mail.Last(noStatsEmail))
		if link == nil {
			t.Fatalf("no opt-out link in %q", s.Mail.Last(noStatsEmail))
		}
		token, _ := url.QueryUnescape(link[1])
		if r := s.Do(t, "POST", "/api/notifications/off", "", map[string]string{"token": token}); r.Status != 200 {
			t.Fatalf("opt out: %d %s", r.Status, r.Body)
		}
		if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE reminders SET sent_at = sent_at - interval '8 days'`); err != nil {
			t.Fatal(err)
		}
		out = remind("stats", ids)
		if skipped := out["skipped"].([]any); len(skipped) != 1 || skipped[0].(map[string]any)["reason"] != "no channel reaches them" {
			t.Errorf("after opting out: %v", out)
		}
	})
}

// The browsers' beacons: no sign-in, 204; too big 413, an unknown metric or
// a raw path 400, too many from one address 429; what is kept shows on the
// dashboard per page, with the API's own timings and uptime.
func TestRUMBeacons(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{Admins: []string{organiser}, RateLimitScale: 1})
	admin := s.SignUp(t, organiser, "rum.organiser")
	beacon := func(body string, contentType string) *testkit.Resp {
		req, _ := http.NewRequest("POST", s.URL+"/api/rum", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		return s.Send(t, req)
	}
	good := `{"route":"/tournament","metrics":[{"name":"LCP","value":1200},{"name":"CLS","value":0.02},{"name":"TTFB","value":180}]}`
	for _, c := range []struct {
		name, body, ct string
		status         int
	}{
		{"OK", good, "application/json", 204},
		{"TextPlain", `{"route":"/","metrics":[{"name":"INP","value":80}]}`, "text/plain;charset=UTF-8", 204},
		{"TooBig", `{"route":"/","metrics":[],"pad":"` + strings.Repeat("x", 5000) + `"}`, "application/json", 413},
		{"UnknownMetric", `{"route":"/","metrics":[{"name":"FID","value":10}]}`, "application/json", 400},
		{"RawPath", `{"route":"/matches/12?tab=room","metrics":[{"name":"LCP","value":900}]}`, "application/json", 400},
		{"OutOfRange", `{"route":"/","metrics":[{"name":"LCP","value":-5}]}`, "application/json", 400},
		{"Twice", `{"route":"/","metrics":[{"name":"LCP","value":5},{"name":"LCP","value":6}]}`, "application/json", 400},
		{"UnknownField", `{"route":"/","metrics":[{"name":"LCP","value":5}],"url":"/matches/12"}`, "application/json", 400},
		{"NotJSON", `route=/`, "application/x-www-form-urlencoded", 415},
	} {
		if r := beacon(c.body, c.ct); r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
		}
	}

	d, _ := readDashboard(t, s, admin, "?since=hour")
	// A percentile is read from the histogram's bucket: within it.
	lcp, _ := metrics.VitalNamed("LCP")
	i := metrics.Bucket(lcp.Bounds, 1200)
	page := d.RUM["/tournament"]
	if p75 := page["lcp_p75_ms"]; p75 < lcp.Bounds[i-1] || p75 > lcp.Bounds[i]+1 || page["lcp_n"] != 1 {
		t.Errorf("/tournament: %v, want LCP p75 in [%g, %g] from 1 value", page, lcp.Bounds[i-1], lcp.Bounds[i])
	}
	if d.RUM["/"]["inp_p75_ms"] == 0 {
		t.Errorf("/: %v, want its INP", d.RUM["/"])
	}
	if d.API.Requests == 0 || d.API.P95Ms == nil {
		t.Errorf("api: %+v, want this instance's requests", d.API)
	}
	// The package's tests share a database: an earlier test's server may
	// still be listed (stale, before the day is out), so this server's
	// instance is looked up by its name.
	me := s.App.Recorder.ID()
	if d.Uptime.Ratio == nil || !slices.ContainsFunc(d.Uptime.Instances, func(in instanceSeen) bool { return in.ID == me && in.Up }) {
		t.Errorf("uptime: %+v, want this instance (%s) beating", d.Uptime, me)
	}
	// The page-load goal needs many browsers' loads: TestPageLoadGoalResistsAFewClients.

	t.Run("Summary", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/metrics/summary", "", nil)
		if r.Status != 200 || len(r.JSON["targets"].([]any)) != 8 || !strings.Contains(r.Header.Get("Cache-Control"), "max-age=60") {
			t.Fatalf("summary: %d %s %v", r.Status, r.Body, r.Header)
		}
		if strings.Contains(string(r.Body), "rum.organiser") || strings.Contains(string(r.Body), "@") {
			t.Errorf("the public summary names someone: %s", r.Body)
		}
	})

	t.Run("RateLimited", func(t *testing.T) {
		limited := 0
		for i := 0; i < 70 && limited == 0; i++ {
			if r := beacon(good, "application/json"); r.Status == 429 {
				limited++
				if r.Header.Get("Retry-After") == "" {
					t.Error("429 without Retry-After")
				}
			}
		}
		if limited == 0 {
			t.Fatal("70 beacons a minute from one address: none refused")
		}
	})
}
