package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// auditRow is an audit entry as the table holds it.
type auditRow struct {
	ID                          int64
	Action, Target, Actor, Data string
	ActorID                     *int64
}

// auditRows reads the entries the query's ids name, by id.
func auditRows(t *testing.T, s *testkit.Server, where string, args ...any) map[int64]auditRow {
	t.Helper()
	rows, err := s.DB.Pool.Query(context.Background(), `SELECT id, action, target, actor_name, data::text, actor_id FROM audit_log WHERE `+where, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]auditRow{}
	for rows.Next() {
		var r auditRow
		if err := rows.Scan(&r.ID, &r.Action, &r.Target, &r.Actor, &r.Data, &r.ActorID); err != nil {
			t.Fatal(err)
		}
		out[r.ID] = r
	}
	return out
}

// A player who named themselves like a rival, a team and a tournament, then
// deleted the account: the entries about the rival, the team and the
// tournament stay as they were; the player's own entries (about them, or
// made by them) carry the pseudonym, found by the account's id whatever the
// names were.
func TestDeletionPseudonymisesByIDNotByName(t *testing.T) {
	s, login := leagueServerOf(t, "completed", demo.Options{Players: 60, Captains: true, Password: testkit.Password, PlayersSignIn: true}, nil)
	ctx := context.Background()
	// Two players bought at the auction, neither a captain: the one who
	// leaves, and the rival whose name they take.
	var (
		leaver, rival   int64
		email, ownName  string
		rivalName       string
		pseudonym       string
		captainsEntries int
	)
	if err := s.DB.Pool.QueryRow(ctx, `SELECT a.user_id, b.user_id, u.email, sa.player_name, sb.player_name
		FROM auction_lots a JOIN auction_lots b ON b.user_id <> a.user_id AND b.status = 'sold'
		JOIN users u ON u.id = a.user_id JOIN stats sa ON sa.user_id = a.user_id JOIN stats sb ON sb.user_id = b.user_id
		WHERE a.status = 'sold' AND NOT EXISTS (SELECT 1 FROM teams WHERE captain_user_id IN (a.user_id, b.user_id))
		ORDER BY a.id, b.id LIMIT 1`).Scan(&leaver, &rival, &email, &ownName, &rivalName); err != nil {
		t.Fatal(err)
	}
	pseudonym = fmt.Sprintf("Deleted player %d", leaver)
	token := login(email)
	// The leaver takes the rival's name on their card, a team's as their
	// typed Discord name and the tournament's as their account's.
	if _, err := s.DB.Pool.Exec(ctx, `UPDATE stats SET player_name = $2 WHERE user_id = $1`, leaver, rivalName); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.Pool.Exec(ctx, `UPDATE users SET discord_username = 'team A', discord_verified = false, discord_id = NULL, name = 'PPL7' WHERE id = $1`, leaver); err != nil {
		t.Fatal(err)
	}
	others := auditRows(t, s, `target IN ($1, 'team A', 'PPL7')`, rivalName)
	for _, r := range others {
		if r.Target == "team A" {
			captainsEntries++
		}
	}
	if len(others) < 10 || captainsEntries == 0 {
		t.Fatalf("the demo's entries about %s, team A and PPL7: %d (team A: %d)", rivalName, len(others), captainsEntries)
	}
	// The leaver's own entries: the lots they were up in and the bids on
	// them (under the name they had then), and the sign-in just made.
	ownWhere := `(data->>'user_id' = $1::bigint::text OR data->>'lot' IN (SELECT id::text FROM auction_lots WHERE user_id = $1::bigint))
		AND target <> 'team A' OR actor_id = $1::bigint`
	own := auditRows(t, s, ownWhere, leaver)
	var about int
	for _, r := range own {
		if r.Target == ownName {
			about++
		}
	}
	if about < 2 {
		t.Fatalf("entries about the leaver under %q: %d of %v", ownName, about, own)
	}

	if r := s.Do(t, "DELETE", "/api/me", token, map[string]string{"password": testkit.Password}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	after := auditRows(t, s, `id = ANY($1)`, keys(others))
	for id, was := range others {
		if now := after[id]; now.Target != was.Target || now.Actor != was.Actor || now.Data != was.Data {
			t.Errorf("another's entry changed:\n was %+v\n now %+v", was, now)
		}
	}
	for id, now := range auditRows(t, s, `id = ANY($1)`, keys(own)) {
		was := own[id]
		if was.Target == ownName && now.Target != pseudonym {
			t.Errorf("the leaver's entry %s %q kept its target: %q", now.Action, was.Target, now.Target)
		}
		if now.ActorID != nil && *now.ActorID == leaver && now.Actor != pseudonym {
			t.Errorf("the leaver's entry %s names its actor %q", now.Action, now.Actor)
		}
	}
}

// keys are m's keys.
func keys[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The export says of every audit entry whether the account did it: the
// entries it made signed out (its sign-up's code, a reset with the code
// mailed to it) are its own, a failed sign-in or a reset asked for its
// address are not (anyone may type an address), and none is left null.
func TestExportSaysWhatTheAccountDid(t *testing.T) {
	s := newServer(t, testkit.Options{})
	email := testkit.UniqueEmail("exporter")
	s.SignUp(t, email, "exporting_racer")
	if r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": "not-the-password"}); r.Status != 401 {
		t.Fatalf("wrong password: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/api/auth/password-reset/request", "", map[string]string{"email": email}); r.Status != 202 {
		t.Fatalf("reset request: %d", r.Status)
	}
	code := s.Mail.Code(t, email, 2)
	r := s.Do(t, "POST", "/api/auth/password-reset/confirm", "", map[string]string{"email": email, "code": code, "password": "a-new-password-1"})
	if r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	exp := s.Do(t, "GET", "/api/me/export", r.JSON["token"].(string), nil)
	if exp.Status != 200 {
		t.Fatalf("export: %d %s", exp.Status, exp.Body)
	}
	want := map[string]bool{"account.verified": true, "account.login": true, "account.login_failed": false,
		"account.password_reset_requested": false, "account.password_reset": true}
	seen := map[string]bool{}
	for _, e := range exp.JSON["data"].(map[string]any)["audit_log"].([]any) {
		e := e.(map[string]any)
		action := e["action"].(string)
		byYou, ok := e["by_you"].(bool)
		if !ok {
			t.Errorf("%s: by_you is %v", action, e["by_you"])
			continue
		}
		if w, known := want[action]; known && byYou != w {
			t.Errorf("%s: by_you %v, want %v", action, byYou, w)
		}
		seen[action] = true
	}
	for action := range want {
		if !seen[action] {
			t.Errorf("the export lacks %s", action)
		}
	}
}

// The public player search lists players: accounts that saved their stats
// or took part in a season. An organiser who never played, and an account
// that never saved stats, are not players: the search does not find them,
// and their page is no player's (404), but to themselves.
func TestOnlyPlayersArePublicPlayers(t *testing.T) {
	organiser := testkit.UniqueEmail("organiser")
	s := newServer(t, testkit.Options{Admins: []string{organiser}})
	adminTok := s.SignUp(t, organiser, "quiet_organiser")
	newcomer := s.SignUp(t, testkit.UniqueEmail("newcomer"), "quiet_newcomer")
	player := s.SignUp(t, testkit.UniqueEmail("player"), "quiet_player")
	s.SaveStats(t, player)

	found := func(q string) []string {
		r := s.Do(t, "GET", "/api/players?q="+q, "", nil)
		if r.Status != 200 {
			t.Fatalf("search %s: %d %s", q, r.Status, r.Body)
		}
		var names []string
		for _, p := range r.JSON["players"].([]any) {
			names = append(names, p.(map[string]any)["name"].(string))
		}
		return names
	}
	if got := found("quiet_"); len(got) != 1 || got[0] != "quiet_player" {
		t.Fatalf("the search for quiet_ finds %v, want the player alone", got)
	}
	all := s.Do(t, "GET", "/api/players?limit=100", "", nil)
	if strings.Contains(string(all.Body), "quiet_organiser") || strings.Contains(string(all.Body), "quiet_newcomer") {
		t.Fatalf("the list of players names an account that is no player: %s", all.Body)
	}
	for name, tok := range map[string]string{"the organiser": adminTok, "the newcomer": newcomer} {
		id := int64(s.Do(t, "GET", "/api/auth/profile", tok, nil).JSON["user"].(map[string]any)["id"].(float64))
		path := fmt.Sprintf("/api/players/%d", id)
		if r := s.Do(t, "GET", path, "", nil); r.Status != 404 {
			t.Errorf("%s's page to others: %d %s", name, r.Status, r.Body)
		}
		if r := s.Do(t, "GET", path, tok, nil); r.Status != 200 {
			t.Errorf("%s's page to themselves: %d %s", name, r.Status, r.Body)
		}
	}
}
