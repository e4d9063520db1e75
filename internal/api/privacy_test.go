package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
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

// hiddenLeague is a demo league with a past season played and the current
// one at its auction, on real Redis, with player secretive's card made of
// values found nowhere else (secrets), put in the live history by a saving
// of their stats.
type hiddenLeague struct {
	s       *testkit.Server
	id      int64
	token   string
	past    string // a past season secretive played on a team
	team    string // their team's letter in it
	secrets []string
	since   int64 // the registrations topic's seq before the card went out
}

func newHiddenLeague(t *testing.T) hiddenLeague {
	t.Helper()
	ctx := context.Background()
	s := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{RedisURL: testkit.RedisURL(), Admins: []string{demo.AdminEmail}})
	if _, err := demo.Load(ctx, s.DB, demo.Options{Players: 60, Captains: true, Password: testkit.Password, PlayersSignIn: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.PastSeasons(ctx, s.DB, "PPL7", 1); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, s.DB, "PPL7", "auction"); err != nil {
		t.Fatal(err)
	}
	l := hiddenLeague{s: s}
	var email string
	// A player bought in this season's auction who played on a team in a
	// past one, and captains neither.
	if err := s.DB.Pool.QueryRow(ctx, `SELECT u.id, u.email, t.name, te.letter FROM team_players now
		JOIN tournaments cur ON cur.id = now.tournament_id AND cur.name = 'PPL7'
		JOIN team_players tp ON tp.user_id = now.user_id AND tp.tournament_id <> now.tournament_id
		JOIN tournaments t ON t.id = tp.tournament_id JOIN teams te ON te.id = tp.team_id
		JOIN users u ON u.id = now.user_id
		WHERE NOT EXISTS (SELECT 1 FROM teams WHERE captain_user_id = u.id) ORDER BY u.id LIMIT 1`).
		Scan(&l.id, &email, &l.past, &l.team); err != nil {
		t.Fatal(err)
	}
	avatar, kart := fmt.Sprintf("a%063d", l.id), fmt.Sprintf("c%063d", l.id)
	for _, id := range []string{avatar, kart} {
		if _, err := s.DB.Pool.Exec(ctx, `INSERT INTO images (id, content_type, data) VALUES ($1, 'image/png', $2)`, id, []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DB.Pool.Exec(ctx, `UPDATE users SET avatar_image_id = $2, discord_username = 'secret_disco_qwz' WHERE id = $1`, l.id, avatar); err != nil {
		t.Fatal(err)
	}
	l.token = s.Login(t, email, testkit.Password)
	l.since = int64(s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7", "", nil).JSON["seq"].(float64))
	if r := s.Do(t, "POST", "/api/stats/save", l.token, map[string]any{"player_name": "SecretiveRacer", "sk_id": 31415926, "level": 93, "kills": 77707,
		"deaths": 10001, "games_played": 4321, "kd": 7.77, "cart_image": "/api/images/" + kart,
		"description": "a blurb found nowhere else, qwz", "category": 1, "preferred_role": "Player"}); r.Status != 200 {
		t.Fatalf("save stats: %d %s", r.Status, r.Body)
	}
	l.secrets = []string{"31415926", "secret_disco_qwz", "found nowhere else", "77707", "10001", "7.77", avatar, kart}
	return l
}

// leaks lists the secrets body holds, each as a whole (7.77 is not in a
// time's 37.775).
func (l hiddenLeague) leaks(body []byte) []string {
	var out []string
	for _, s := range l.secrets {
		if regexp.MustCompile(`(^|[^0-9A-Za-z_.])` + regexp.QuoteMeta(s) + `($|[^0-9A-Za-z_])`).Match(body) {
			out = append(out, s)
		}
	}
	return out
}

// A player who hides their profile is their name alone wherever others
// read them: the registrations of this season and a past one (their
// search too), the auction, the rosters, the team pages, the boards, and
// the live events, those replayed from before the hiding included.
func TestAHiddenProfileIsHiddenEverywhere(t *testing.T) {
	l := newHiddenLeague(t)
	s := l.s
	reads := []string{
		"/api/tournament/registrations?tournamentName=PPL7&limit=500",
		"/api/tournament/registrations?tournamentName=" + l.past + "&limit=500",
		"/api/tournaments/PPL7/auction",
		"/api/tournaments/PPL7/teams",
		"/api/tournaments/PPL7/substitutes",
		"/api/tournament/teams?tournamentName=PPL7",
		"/api/tournament/teams?tournamentName=" + l.past,
		"/api/tournaments/" + l.past + "/teams/" + l.team,
		"/api/leaderboards/kills",
	}
	// Shown, the card gives its stats away in the list and the auction.
	for _, p := range reads[:3] {
		if r := s.Do(t, "GET", p, "", nil); len(l.leaks(r.Body)) < 2 {
			t.Fatalf("before hiding, %s shows %v of the card", p, l.leaks(r.Body))
		}
	}
	live := testkit.DialWS(t, s.URL, "")
	live.Subscribe(nil, "registrations", "teams")
	live.Sync()

	if r := s.Do(t, "PUT", "/api/players/me/visibility", l.token, map[string]any{"hidden": true}); r.Status != 200 {
		t.Fatalf("hide: %d %s", r.Status, r.Body)
	}
	captain := s.Login(t, demo.CaptainEmail("A"), testkit.Password)
	for _, tok := range []string{"", captain} {
		for _, p := range reads {
			r := s.Do(t, "GET", p, tok, nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", p, r.Status, r.Body)
			}
			if leaks := l.leaks(r.Body); len(leaks) > 0 {
				t.Errorf("%s (signed in: %v) shows %v of a hidden profile", p, tok != "", leaks)
			}
		}
	}
	list := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7&limit=500", "", nil)
	var card map[string]any
	for _, p := range list.JSON["players"].([]any) {
		if p := p.(map[string]any); int64(p["id"].(float64)) == l.id {
			card = p
		}
	}
	if card == nil || card["hidden"] != true || card["name"] != "SecretiveRacer" || card["status"] != "confirmed" {
		t.Errorf("the hidden player's card in the list: %v", card)
	}
	for _, q := range []string{"31415926", "secret_disco"} {
		r := s.Do(t, "GET", "/api/tournament/registrations?tournamentName=PPL7&q="+q, "", nil)
		if players := r.JSON["players"].([]any); len(players) != 0 {
			t.Errorf("searching the list for %s finds %v", q, players)
		}
	}

	// Live: the hiding itself, then a saving of the stats, as name alone.
	if r := s.Do(t, "POST", "/api/stats/save", l.token, map[string]any{"player_name": "SecretiveRacer", "sk_id": 31415926, "level": 93, "kills": 77707,
		"deaths": 10001, "games_played": 4321, "kd": 7.77, "cart_image": nil,
		"description": "a blurb found nowhere else, qwz", "category": 1, "preferred_role": "Player"}); r.Status != 200 {
		t.Fatalf("save stats: %d %s", r.Status, r.Body)
	}
	f := live.WaitEvent("registrations", "stats.updated", 10*time.Second)
	for f.Data["player"].(map[string]any)["hidden"] != true {
		f = live.WaitEvent("registrations", "stats.updated", 10*time.Second)
	}
	raw, _ := json.Marshal(f)
	if leaks := l.leaks(raw); len(leaks) > 0 {
		t.Errorf("the live event shows %v: %s", leaks, raw)
	}

	// Replayed: nothing of the card from before the hiding comes back, from
	// the start or from just before it went out.
	waitForgotten(t, s)
	for _, since := range []int64{0, l.since} {
		replay := testkit.DialWS(t, s.URL, "")
		replay.Subscribe(map[string]int64{"registrations": since, "teams": since}, "registrations", "teams")
		for _, f := range replay.Sync() {
			raw, _ := json.Marshal(f)
			if leaks := l.leaks(raw); len(leaks) > 0 {
				t.Fatalf("a replay from %d shows %v: %.300s", since, leaks, raw)
			}
		}
	}
}

// waitForgotten waits until the live layer has forgotten what it was told
// to (the jobs that redact its history have run).
func waitForgotten(t *testing.T, s *testkit.Server) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var left int
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job
			WHERE kind = 'forget_history' AND state <> 'completed'`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs still to forget the live history", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitRelayed waits until the outbox relay has handed every committed
// event to the live layer.
func waitRelayed(t *testing.T, s *testkit.Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var pending int
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE published_at IS NULL`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events still wait in the outbox", pending)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A deleted account lives on in no event history: a visitor who subscribes
// from the start (or from just before the account's card went out) replays
// nothing personal of it, over Redis, and the outbox keeps nothing of it.
func TestErasureLeavesNothingInTheEventHistory(t *testing.T) {
	l := newHiddenLeague(t)
	s := l.s
	var name string
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT player_name FROM stats WHERE user_id = $1`, l.id).Scan(&name); err != nil || name != "SecretiveRacer" {
		t.Fatalf("the card's name: %q %v", name, err)
	}
	l.secrets = append(l.secrets, name)
	waitRelayed(t, s)
	replay := func() []byte {
		ws := testkit.DialWS(t, s.URL, "")
		ws.Subscribe(map[string]int64{"registrations": l.since}, "registrations")
		raw, _ := json.Marshal(ws.Sync())
		return raw
	}
	if leaks := l.leaks(replay()); len(leaks) < 5 {
		t.Fatalf("before the deletion a replay shows %v of the card", leaks)
	}
	if r := s.Do(t, "DELETE", "/api/me", l.token, map[string]string{"password": testkit.Password}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	waitRelayed(t, s)
	waitForgotten(t, s)
	for _, since := range []int64{0, l.since} {
		ws := testkit.DialWS(t, s.URL, "")
		ws.Subscribe(map[string]int64{"registrations": since, "teams": since, "bracket": since}, "registrations", "teams", "bracket")
		for _, f := range ws.Sync() {
			raw, _ := json.Marshal(f)
			if leaks := l.leaks(raw); len(leaks) > 0 {
				t.Fatalf("a replay from %d after the deletion shows %v: %.300s", since, leaks, raw)
			}
		}
	}
	rows, err := s.DB.Pool.Query(context.Background(), `SELECT topic, event, data::text FROM outbox`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var topic, event, data string
		if err := rows.Scan(&topic, &event, &data); err != nil {
			t.Fatal(err)
		}
		if leaks := l.leaks([]byte(data)); len(leaks) > 0 {
			t.Errorf("the outbox's %s on %s holds %v: %.300s", event, topic, leaks, data)
		}
	}
}
