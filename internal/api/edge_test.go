package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// A control character (a NUL above all, which PostgreSQL cannot store) or
// bytes that are not UTF-8 never reach the database: a name in the path is
// unknown (404), a query parameter or a JSON string with one is invalid
// (400), whoever asks. Free text keeps its tabs and newlines.
func TestControlCharactersAreRefusedAtTheEdge(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	player := s.SignUp(t, testkit.UniqueEmail("nul"), "nul_racer")
	s.SaveStats(t, player)

	// A match the away side reported, for its home side to dispute; a
	// substitute asked for, for an organiser to refuse.
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	m := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil).JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	home, away := m["team1"].(map[string]any)["id"].(string), m["team2"].(map[string]any)["id"].(string)
	match := int(m["id"].(float64))
	homeTok := login(demo.CaptainEmail(home))
	report(t, s, match, away, login(demo.CaptainEmail(away)), home)
	bench := s.Do(t, "GET", "/api/tournaments/PPL7/substitutes", "", nil).JSON["pool"].([]any)
	ask := s.Do(t, "POST", "/api/tournaments/PPL7/substitutes", capA, map[string]any{"userId": bench[0].(map[string]any)["user_id"]})
	if ask.Status != 201 {
		t.Fatalf("ask a substitute: %d %q", ask.Status, ask.Message())
	}
	request := int(ask.JSON["request"].(map[string]any)["id"].(float64))

	dispute := fmt.Sprintf("/api/matches/%d/dispute", match)
	refuse := fmt.Sprintf("/api/admin/tournaments/PPL7/substitutes/%d/refuse", request)
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		want                      int
	}{
		{"TournamentInPath", "GET", "/api/tournaments/ab%00cd", "", nil, 404},
		{"TeamInPath", "GET", "/api/tournaments/PPL7/teams/A%00/calendar", capA, nil, 404},
		{"NotUTF8InPath", "GET", "/api/tournaments/ab%FFcd", "", nil, 404},
		{"RegistrationsQuery", "GET", "/api/tournament/registrations?tournamentName=ab%00cd", "", nil, 400},
		{"NotUTF8InQuery", "GET", "/api/tournament/registrations?tournamentName=ab%FFcd", "", nil, 400},
		{"AuditQuery", "GET", "/api/admin/audit?tournament=ab%00cd", admin, nil, 400},
		{"AuditActionQuery", "GET", "/api/admin/audit?action=x%07y", admin, nil, 400},
		{"RegisterBody", "POST", "/api/tournament/register", player, `{"tournamentName":"ab\u0000cd"}`, 400},
		{"UnsubscribeBody", "DELETE", "/api/me/notifications/push", player, `{"endpoint":"https://fcm.googleapis.com/x\u0000"}`, 400},
		{"DisputeReason", "POST", dispute, homeTok, `{"reason":"wrong\u0000 winner"}`, 400},
		{"DisputeReasonBell", "POST", dispute, homeTok, `{"reason":"wrong\u0007 winner"}`, 400},
		{"RefusalReason", "POST", refuse, admin, `{"reason":"too \u0000late"}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.Do(t, c.method, c.path, c.token, c.body)
			if r.Status != c.want || r.Message() == "" || strings.Contains(r.Message(), "Internal") {
				t.Fatalf("%d %q, want %d with a message", r.Status, r.Message(), c.want)
			}
		})
	}
	t.Run("ReasonsKeepTabsAndNewlines", func(t *testing.T) {
		r := s.Do(t, "POST", dispute, homeTok, `{"reason":"wrong winner:\n\tsee the\r\nscreenshot"}`)
		if r.Status != http.StatusOK || r.JSON["match"].(map[string]any)["dispute_reason"] != "wrong winner:\n\tsee the\r\nscreenshot" {
			t.Fatalf("dispute: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", refuse, admin, `{"reason":"too late,\n\tsorry"}`); r.Status != http.StatusOK {
			t.Fatalf("refuse: %d %s", r.Status, r.Body)
		}
	})
}

// A message that quotes what the caller sent quotes at most 64 characters
// of it, and a time that does not parse is explained without Go's layout.
func TestErrorsEchoLittleOfTheInput(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{organiser}})
	tok, admin := s.SignUp(t, testkit.UniqueEmail("echo"), "echo_racer"), s.SignUp(t, organiser, "echo_organiser")
	long := strings.Repeat("a", 10_000)
	for _, c := range []struct {
		name, method, path string
		admin              bool
		body               any
		want               int
	}{
		{"TournamentName", "GET", "/api/tournaments/" + long, false, nil, 404},
		{"TournamentNameInQuery", "GET", "/api/tournament/registrations?tournamentName=" + long, false, nil, 404},
		{"TeamLetter", "PUT", "/api/admin/tournaments/PPL7/teams/" + long + "/captain", true, map[string]any{"userId": 1}, 404},
		{"NotificationKind", "PUT", "/api/me/notifications", false, map[string]any{"kinds": []map[string]any{{"kind": long, "push": true}}}, 400},
		{"UnknownField", "PUT", "/api/me/notifications", false, `{"` + long + `": 1}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			token := tok
			if c.admin {
				token = admin
			}
			r := s.Do(t, c.method, c.path, token, c.body)
			if r.Status != c.want || len(r.Message()) > 200 || !strings.Contains(r.Message(), strings.Repeat("a", 64)+"…") {
				t.Fatalf("%d, want %d; message of %d bytes: %.300q", r.Status, c.want, len(r.Message()), r.Message())
			}
		})
	}
	for _, body := range []string{`{"at":"x"}`, `{"at":"2026-11-28T20:00:00"}`, `{"at":"2026-13-28T20:00:00Z"}`, `{"at":5}`} {
		r := s.Do(t, "POST", "/api/matches/1/time", tok, body)
		if r.Status != 400 || strings.Contains(r.Message(), "2006") || !strings.Contains(r.Message(), `"at" must be a time like 2026-11-28T20:00:00Z`) {
			t.Errorf("%s: %d %q", body, r.Status, r.Message())
		}
	}
	r := s.Do(t, "POST", "/api/matches/1/proposal", tok, `{"times":["2026-11-28T20:00:00Z","soon"]}`)
	if r.Status != 400 || !strings.Contains(r.Message(), `"times" must be times like 2026-11-28T20:00:00Z`) {
		t.Errorf("proposal: %d %q", r.Status, r.Message())
	}
}

// logLines keeps a server's log lines for a test to read.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// about are the lines that name path.
func (l *logLines) about(path string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for line := range strings.Lines(l.buf.String()) {
		if strings.Contains(line, "path="+path+" ") || strings.HasSuffix(strings.TrimSpace(line), "path="+path) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// A request whose browser went away while the database worked on it is
// no fault of the server: nothing is logged as an error or a warning, and
// its request line says 499 (respond_test.go has the other errors such a
// request may end with).
func TestARequestTheClientLeftIsNoError(t *testing.T) {
	var logs logLines
	s := newServer(t, testkit.Options{Log: &logs})
	ctx := context.Background()
	tok := s.SignUp(t, testkit.UniqueEmail("gone"), "gone_racer")
	for _, c := range []struct{ path, token, table string }{
		{"/api/tournaments", "", "tournaments"}, // the handler's own read
		{"/api/auth/profile", tok, "users"},     // the sign-in's, in a middleware
	} {
		path := c.path
		t.Run(path, func(t *testing.T) {
			// The table locked: the request's query waits.
			tx, err := s.DB.Pool.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, `LOCK TABLE `+c.table+` IN ACCESS EXCLUSIVE MODE`); err != nil {
				t.Fatal(err)
			}
			reqCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			req, _ := http.NewRequestWithContext(reqCtx, "GET", s.URL+path, nil)
			if c.token != "" {
				req.Header.Set("Authorization", "Bearer "+c.token)
			}
			gone := make(chan struct{})
			go func() {
				defer close(gone)
				if res, err := http.DefaultClient.Do(req); err == nil {
					res.Body.Close()
				}
			}()
			waitFor(t, "the request's query to wait for the lock", func() bool {
				var n int
				s.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'
					AND datname = current_database()`).Scan(&n)
				return n > 0
			})
			cancel() // the browser goes away
			<-gone
			waitFor(t, "the request's log line", func() bool {
				return slices.ContainsFunc(logs.about(path), func(l string) bool { return strings.Contains(l, "msg=request ") })
			})
			tx.Rollback(ctx)
			for _, line := range logs.about(path) {
				if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") ||
					(strings.Contains(line, "msg=request ") && !strings.Contains(line, "status=499")) {
					t.Errorf("logged: %s", line)
				}
			}
		})
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
