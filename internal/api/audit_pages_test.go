package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/testkit"
)

// auditPage is GET /api/admin/audit's answer.
type auditPage struct {
	Entries []struct {
		ID         int64  `json:"id"`
		Action     string `json:"action"`
		Tournament string `json:"tournament"`
		Target     string `json:"target"`
		Actor      struct {
			UserID          *int64 `json:"user_id"`
			Name            string `json:"name"`
			DiscordVerified bool   `json:"discord_verified"`
		} `json:"actor"`
	} `json:"entries"`
	Next    *int64   `json:"next"`
	Actions []string `json:"actions"`
}

func readAudit(t *testing.T, s *testkit.Server, token, query string) auditPage {
	t.Helper()
	r := s.Do(t, "GET", "/api/admin/audit?"+query, token, nil)
	if r.Status != 200 {
		t.Fatalf("?%s: %d %q", query, r.Status, r.Message())
	}
	if strings.Contains(string(r.Body), "@") {
		t.Fatalf("the audit log shows an e-mail address: %s", r.Body)
	}
	var p auditPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func userID(t *testing.T, s *testkit.Server, token string) int64 {
	t.Helper()
	return int64(s.Do(t, "GET", "/api/auth/profile", token, nil).JSON["user"].(map[string]any)["id"].(float64))
}

// auditLeague is a league whose log holds an organiser's moves of PPL7 and,
// after them, more anonymous failed sign-ins than a page holds.
type auditLeague struct {
	s                  *testkit.Server
	admin, player      string // tokens
	adminID, playerID  int64
	anonymousSignInsAt int64 // the id of the first failed sign-in
}

func newAuditLeague(t *testing.T) *auditLeague {
	organiser := testkit.UniqueEmail("pager")
	s := newServer(t, testkit.Options{Admins: []string{organiser}})
	l := &auditLeague{s: s, admin: s.SignUp(t, organiser, "the_pager")}
	t.Cleanup(func() {
		l.s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", l.admin, map[string]string{"status": "registration"})
	})
	l.player = s.SignUp(t, testkit.UniqueEmail("pagee"), "pagee_racer")
	l.adminID, l.playerID = userID(t, s, l.admin), userID(t, s, l.player)
	for range 4 {
		l.movePhase(t)
	}
	l.failedSignIn(t)
	l.anonymousSignInsAt = l.newest(t)
	for range 24 {
		l.failedSignIn(t)
	}
	return l
}

// movePhase is an organiser's action on PPL7: it moves between
// registration and the auction, from wherever the package's shared
// database left it, and the test leaves PPL7 registering.
func (l *auditLeague) movePhase(t *testing.T) {
	t.Helper()
	to := "auction"
	if r := l.s.Do(t, "GET", "/api/tournaments/PPL7", "", nil); r.JSON["status"] == "auction" {
		to = "registration"
	}
	// Forced: PPL7's teams have no captains, which the move would otherwise list and stop at.
	if r := l.s.Do(t, "POST", "/api/admin/tournaments/PPL7/status", l.admin, map[string]any{"status": to, "force": true}); r.Status != 200 {
		t.Fatalf("status %s: %d %q", to, r.Status, r.Message())
	}
}

// failedSignIn records what a wrong password for a verified account does
// (as accounts.Service.Login, without the bcrypt check's quarter second).
func (l *auditLeague) failedSignIn(t *testing.T) {
	t.Helper()
	err := postgres.Audit{DB: l.s.DB}.Record(context.Background(), core.Actor{}, core.ActionLoginFailed, 0,
		fmt.Sprintf("user %d (pagee_racer)", l.playerID), map[string]string{"method": "password"})
	if err != nil {
		t.Fatal(err)
	}
}

func (l *auditLeague) newest(t *testing.T) int64 {
	t.Helper()
	var id int64
	if err := l.s.DB.Pool.QueryRow(context.Background(), `SELECT max(id) FROM audit_log`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// Organisers read the log a page at a time: each page's next is the cursor
// of the following one, and following it reads every entry that matches,
// each once, newest first, however many entries are recorded meanwhile.
func TestAuditLogPages(t *testing.T) {
	l := newAuditLeague(t)
	for _, tc := range []struct {
		name, query string
		where       string // the same entries, as SQL over audit_log
	}{
		{"WholeLog", "limit=7", "true"},
		{"OneTournament", "tournament=PPL7&limit=3", "tournament_id = (SELECT id FROM tournaments WHERE name = 'PPL7')"},
		{"OneAction", "action=account.login_failed&limit=5", "action = 'account.login_failed'"},
		{"OneActor", fmt.Sprintf("actor=%d&limit=2", l.adminID), fmt.Sprintf("actor_id = %d", l.adminID)},
		{"OnePageHoldsAll", "tournament=PPL7&limit=500", "tournament_id = (SELECT id FROM tournaments WHERE name = 'PPL7')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var read []int64
			cursor := ""
			for pages := 1; ; pages++ {
				p := readAudit(t, l.s, l.admin, tc.query+cursor)
				for _, e := range p.Entries {
					if slices.Contains(read, e.ID) {
						t.Fatalf("page %d: entry %d read twice", pages, e.ID)
					}
					read = append(read, e.ID)
				}
				// New entries arrive between pages, of every kind the filters pick.
				l.movePhase(t)
				l.failedSignIn(t)
				if p.Next == nil {
					break
				}
				if len(p.Entries) == 0 || *p.Next != p.Entries[len(p.Entries)-1].ID {
					t.Fatalf("page %d: next %d is not its last entry", pages, *p.Next)
				}
				if pages > 1000 {
					t.Fatal("no end")
				}
				cursor = fmt.Sprintf("&before=%d", *p.Next)
			}
			rows, _ := l.s.DB.Pool.Query(context.Background(), `SELECT id FROM audit_log WHERE id <= $1 AND `+tc.where+
				` ORDER BY id DESC`, read[0])
			want, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(read, want) {
				t.Fatalf("read %d entries %v\nwant %d %v", len(read), read, len(want), want)
			}
		})
	}
}

// The filters narrow the log and combine; a tournament's view holds that
// tournament's actions only, so anonymous failed sign-ins (which concern
// no tournament) never push the organisers' actions out of it.
func TestAuditLogFilters(t *testing.T) {
	l := newAuditLeague(t)
	for _, tc := range []struct {
		name, query string
		want        func(action, tournament string, actor *int64) bool
		atLeast     int
	}{
		{"TournamentViewKeepsItsActions", "tournament=PPL7&limit=4", func(a, tour string, actor *int64) bool {
			return a == core.ActionTournamentStatus && tour == "PPL7" && actor != nil && *actor == l.adminID
		}, 4},
		{"Action", "action=account.login_failed", func(a, _ string, actor *int64) bool {
			return a == core.ActionLoginFailed && actor == nil
		}, 25},
		{"Actor", fmt.Sprintf("actor=%d", l.adminID), func(_, _ string, actor *int64) bool {
			return actor != nil && *actor == l.adminID
		}, 5},
		{"ActionAndActor", fmt.Sprintf("action=account.login&actor=%d", l.playerID), func(a, _ string, actor *int64) bool {
			return a == core.ActionLogin && actor != nil && *actor == l.playerID
		}, 1},
		{"TournamentAndAction", "tournament=PPL7&action=tournament.status", func(a, tour string, _ *int64) bool {
			return a == core.ActionTournamentStatus && tour == "PPL7"
		}, 4},
		{"NothingMatches", fmt.Sprintf("action=auction.bid&actor=%d", l.playerID), nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := readAudit(t, l.s, l.admin, tc.query)
			if len(p.Entries) < tc.atLeast || (tc.want == nil && len(p.Entries) != 0) {
				t.Fatalf("%d entries, want at least %d", len(p.Entries), tc.atLeast)
			}
			for _, e := range p.Entries {
				if !tc.want(e.Action, e.Tournament, e.Actor.UserID) {
					t.Fatalf("entry %+v does not match %s", e, tc.query)
				}
			}
		})
	}
	t.Run("FirstPageListsTheActionsToFilterBy", func(t *testing.T) {
		if p := readAudit(t, l.s, l.admin, "tournament=PPL7"); !slices.Equal(p.Actions, []string{core.ActionTournamentStatus}) {
			t.Fatalf("PPL7's actions: %v", p.Actions)
		}
		if p := readAudit(t, l.s, l.admin, ""); !slices.Contains(p.Actions, core.ActionLoginFailed) ||
			!slices.Contains(p.Actions, core.ActionTournamentStatus) {
			t.Fatalf("the log's actions: %v", p.Actions)
		}
	})
	for _, tc := range []struct {
		name, query, token string
		status             int
	}{
		{"ErrBeforeNotAnID", "before=0", l.admin, 400},
		{"ErrBeforeNotANumber", "before=abc", l.admin, 400},
		{"ErrActorNotAnID", "actor=-3", l.admin, 400},
		{"ErrActionNotAName", "action=" + "x%27%3B%20DROP%20TABLE", l.admin, 400},
		{"ErrActionTooLong", "action=" + strings.Repeat("a", 65), l.admin, 400},
		{"ErrLimit", "limit=501", l.admin, 400},
		{"ErrUnknownTournament", "tournament=NOPE&before=5", l.admin, 404},
		{"ErrNotAnOrganiser", "tournament=PPL7", l.player, 403},
		{"ErrNotAnOrganiserFiltering", fmt.Sprintf("actor=%d&before=99", l.adminID), l.player, 403},
		{"ErrSignedOut", "", "", 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := l.s.Do(t, "GET", "/api/admin/audit?"+tc.query, tc.token, nil); r.Status != tc.status {
				t.Fatalf("?%s: %d %q, want %d", tc.query, r.Status, r.Message(), tc.status)
			}
		})
	}
}

// An entry names who acted by their account: its id, and the username of
// its proven Discord link, else its own name marked unverified, since
// anyone can type "league.organiser". Never an e-mail address. An account
// that is the target of an entry is marked alike.
func TestAuditLogNamesActorsByAccount(t *testing.T) {
	l := newAuditLeague(t)
	impostorTok := l.s.SignUp(t, testkit.UniqueEmail("impostor"), "impostor")
	impostor := userID(t, l.s, impostorTok)
	if r := l.s.Do(t, "POST", "/api/auth/update-discord-username", impostorTok, map[string]string{"discordUsername": "league.organiser"}); r.Status != 200 {
		t.Fatalf("%d %q", r.Status, r.Message())
	}
	if _, err := l.s.App.Server.Accounts.Discord.LinkDiscord(context.Background(), l.adminID,
		accounts.DiscordIdentity{ID: "310000000000000001", Username: "league.organiser"}); err != nil {
		t.Fatal(err)
	}
	named := readAudit(t, l.s, l.admin, fmt.Sprintf("actor=%d&action=account.discord_named&limit=1", impostor)).Entries
	status := readAudit(t, l.s, l.admin, "tournament=PPL7&limit=1").Entries
	failed := readAudit(t, l.s, l.admin, "action=account.login_failed&limit=1").Entries
	if len(named) != 1 || len(status) != 1 || len(failed) != 1 {
		t.Fatalf("%v %v %v", named, status, failed)
	}
	if a := named[0].Actor; *a.UserID != impostor || a.Name != "impostor (unverified)" || a.DiscordVerified {
		t.Fatalf("the impostor: %+v", a)
	}
	// An account as a target is named alike: by id, its typed name marked.
	if want := fmt.Sprintf("user %d (league.organiser, unverified)", impostor); named[0].Target != want {
		t.Fatalf("target %q, want %q", named[0].Target, want)
	}
	if a := status[0].Actor; *a.UserID != l.adminID || a.Name != "league.organiser" || !a.DiscordVerified {
		t.Fatalf("the organiser: %+v", a)
	}
	if a := failed[0].Actor; a.UserID != nil || a.Name != "anonymous" || a.DiscordVerified {
		t.Fatalf("a failed sign-in: %+v", a)
	}
}

// A typed Discord username is refused with a reason when it holds control
// or formatting characters: a right-to-left override shows the letters
// after it backwards, so "resinagro.eugael‮" could pass for someone else.
// A control character (U+0085) is refused before, as in any JSON string.
func TestTypedNamesRefuseInvisibleCharacters(t *testing.T) {
	s := newServer(t, testkit.Options{})
	token := s.SignUp(t, testkit.UniqueEmail("plain"), "plain_racer")
	control := `Field "discordUsername" must not contain control characters`
	for name, want := range map[string]string{"resinagro.eugael\u202e": accounts.MsgNameInvisible,
		"league\u200b.organiser": accounts.MsgNameInvisible, "\u2066racer\u2069": accounts.MsgNameInvisible,
		"ace\u0085racer": control, "ace\tracer": accounts.MsgNameInvisible} {
		r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{"email": testkit.UniqueEmail("bidi"), "password": "kart-racer-42",
			"confirmPassword": "kart-racer-42", "discordUsername": name})
		if r.Status != 400 || !strings.HasPrefix(r.Message(), want) {
			t.Errorf("sign-up as %q: %d %q", name, r.Status, r.Message())
		}
		r = s.Do(t, "POST", "/api/auth/update-discord-username", token, map[string]string{"discordUsername": name})
		if r.Status != 400 || !strings.HasPrefix(r.Message(), want) {
			t.Errorf("renaming to %q: %d %q", name, r.Status, r.Message())
		}
	}
}
