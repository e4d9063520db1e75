package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

// memoryLeague is a demo league of 60 players with one past season played
// to its champion, shared by the tests of the league's memory (player and
// team pages, search, leaderboards, pages of lists).
type memoryLeague struct {
	s   *testkit.Server
	ids []int64 // the registered players, oldest first
}

func newMemoryLeague(t *testing.T) memoryLeague {
	t.Helper()
	s := testkit.NewServer(t, pgtest.Fresh(t), testkit.Options{})
	ctx := context.Background()
	if _, err := demo.Load(ctx, s.DB, demo.Options{Players: 60, Captains: true, History: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.PastSeasons(ctx, s.DB, "PPL7", 1); err != nil {
		t.Fatal(err)
	}
	ids, err := (postgres.Demo{DB: s.DB}).Registered(ctx, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	return memoryLeague{s: s, ids: ids}
}

// register signs a new demo person up for PPL7, through the service.
func (l memoryLeague) register(t *testing.T, name string) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := (postgres.Demo{DB: l.s.DB}).NewAccount(ctx, postgres.DemoAccount{Email: strings.ToLower(name) + "@late.pitlane.local",
		Name: name, Discord: strings.ToLower(name), DiscordID: fmt.Sprint(800000000000000000 + len(name)*1000 + int(name[len(name)-1]))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (postgres.Stats{DB: l.s.DB}).SaveStats(ctx, id, core.Stats{PlayerName: name, Level: 10, Kills: 100, Deaths: 50,
		GamesPlayed: 40, KD: 2, Category: 3, PreferredRole: "Player"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.s.App.Server.Tournaments.Register(ctx, core.Actor{UserID: id, Name: name}, "PPL7"); err != nil {
		t.Fatal(err)
	}
	return id
}

// pageIDs reads one page of a paged list: its rows' ids and its next cursor.
func pageIDs(t *testing.T, s *testkit.Server, path, rows string) ([]int64, string) {
	t.Helper()
	r := s.Do(t, "GET", path, "", nil)
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var ids []int64
	list, _ := r.JSON[rows].([]any)
	for _, x := range list {
		ids = append(ids, int64(x.(map[string]any)["id"].(float64)))
	}
	next, _ := r.JSON["next_cursor"].(string)
	return ids, next
}

func TestLeagueMemory(t *testing.T) {
	l := newMemoryLeague(t)
	t.Run("Registrations", func(t *testing.T) { registrationPages(t, l) })
	t.Run("Profiles", func(t *testing.T) { profiles(t, l) })
	t.Run("Search", func(t *testing.T) { search(t, l) })
	t.Run("Teams", func(t *testing.T) { teamPages(t, l) })
	t.Run("Leaderboards", func(t *testing.T) { leaderboards(t, l) })
	t.Run("LinkPreviews", func(t *testing.T) { linkPreviews(t, l) })
	t.Run("HeadToHead", func(t *testing.T) { headToHead(t, l) })
	t.Run("MatchPages", func(t *testing.T) { matchPages(t, l) })
}

func registrationPages(t *testing.T, l memoryLeague) {
	const base = "/api/tournament/registrations?tournamentName=PPL7"

	t.Run("WithoutALimitTheFirstPageHoldsTheDefaultSize", func(t *testing.T) {
		r := l.s.Do(t, "GET", base, "", nil)
		if r.Status != 200 || len(r.JSON["players"].([]any)) != 60 || r.JSON["next_cursor"] != nil || r.JSON["count"].(float64) != 60 {
			t.Fatalf("%d players=%d next=%v count=%v", r.Status, len(r.JSON["players"].([]any)), r.JSON["next_cursor"], r.JSON["count"])
		}
	})
	t.Run("PagesCoverTheListOnceWhilePlayersSignUpBetweenThem", func(t *testing.T) {
		seen := map[int64]int{}
		var order []int64
		cursor, late := "", []int64{}
		for page := 0; ; page++ {
			ids, next := pageIDs(t, l.s, base+"&limit=7&cursor="+url.QueryEscape(cursor), "players")
			if len(ids) > 7 {
				t.Fatalf("page %d has %d players", page, len(ids))
			}
			for _, id := range ids {
				seen[id]++
				order = append(order, id)
			}
			if page < 3 {
				late = append(late, l.register(t, fmt.Sprintf("LateRacer%d", page)))
			}
			if next == "" {
				break
			}
			cursor = next
		}
		want := append(append([]int64{}, l.ids...), late...)
		if len(order) != len(want) {
			t.Fatalf("read %d players, want %d", len(order), len(want))
		}
		for i, id := range want {
			if seen[id] != 1 || order[i] != id {
				t.Fatalf("player %d seen %d times; at %d read %d", id, seen[id], i, order[i])
			}
		}
	})
	t.Run("SearchFindsByPartOfTheName", func(t *testing.T) {
		r := l.s.Do(t, "GET", base+"&q=racer&limit=500", "", nil)
		players := r.JSON["players"].([]any)
		if r.Status != 200 || len(players) == 0 {
			t.Fatalf("%d %d", r.Status, len(players))
		}
		for _, p := range players {
			if name := p.(map[string]any)["name"].(string); !strings.Contains(strings.ToLower(name), "racer") {
				t.Fatalf("%q does not hold racer", name)
			}
		}
	})
	t.Run("NewestFirstPagesCoverTheListOnceNewestFirst", func(t *testing.T) {
		var order []int64
		for cursor := ""; ; {
			ids, next := pageIDs(t, l.s, base+"&sort=newest&limit=9&cursor="+url.QueryEscape(cursor), "players")
			order = append(order, ids...)
			if next == "" {
				break
			}
			cursor = next
		}
		all, _ := pageIDs(t, l.s, base+"&limit=500", "players") // registration order
		if len(order) != len(all) {
			t.Fatalf("read %d players, want %d", len(order), len(all))
		}
		for i, id := range order {
			if want := all[len(all)-1-i]; id != want {
				t.Fatalf("at %d: %d, want %d", i, id, want)
			}
		}
	})
	t.Run("ASortedSearchSaysHowManyItFound", func(t *testing.T) {
		r := l.s.Do(t, "GET", base+"&sort=kd&q=racer&limit=2", "", nil)
		players := r.JSON["players"].([]any)
		if r.Status != 200 || len(players) != 2 || r.JSON["matched"] == nil || r.JSON["matched"].(float64) < 2 || r.JSON["sort"] != "kd" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if a, b := players[0].(map[string]any)["kd"].(float64), players[1].(map[string]any)["kd"].(float64); a < b {
			t.Fatalf("K/D %v before %v", a, b)
		}
	})
	for _, bad := range []string{"&limit=0", "&limit=501", "&limit=ten", "&cursor=notacursor", "&q=" + strings.Repeat("x", 41), "&sort=random"} {
		t.Run("Err"+bad, func(t *testing.T) {
			if r := l.s.Do(t, "GET", base+bad, "", nil); r.Status != 400 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		})
	}
}

// playedInPast is a player with lines in the past season and a team.
func (l memoryLeague) playedInPast(t *testing.T) int64 {
	t.Helper()
	var id int64
	err := l.s.DB.Pool.QueryRow(context.Background(), `SELECT l.user_id FROM match_lines l JOIN team_players tp USING (user_id)
		ORDER BY l.user_id LIMIT 1`).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func noEmail(t *testing.T, body []byte) {
	t.Helper()
	if strings.Contains(string(body), "@") {
		t.Fatalf("an e-mail in a public answer: %s", body)
	}
}

func profiles(t *testing.T, l memoryLeague) {
	id := l.playedInPast(t)
	r := l.s.Do(t, "GET", fmt.Sprintf("/api/players/%d", id), "", nil)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	noEmail(t, r.Body)
	t.Run("SeasonsWithTeamAndPrice", func(t *testing.T) {
		found := false
		for _, x := range r.JSON["seasons"].([]any) {
			se := x.(map[string]any)
			if se["tournament"] == "PPL7-S01" {
				found = se["team"] != nil && se["matches"].(float64) > 0 && se["red_cap"] != nil
			}
		}
		if !found {
			t.Fatalf("no past season with a team and matches: %v", r.JSON["seasons"])
		}
	})
	t.Run("MatchesWithKillsAndPlacement", func(t *testing.T) {
		var want int
		l.s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM match_lines WHERE user_id = $1`, id).Scan(&want)
		ms := r.JSON["matches"].([]any)
		if len(ms) != want || want == 0 {
			t.Fatalf("%d matches, want %d", len(ms), want)
		}
		m := ms[0].(map[string]any)
		if m["kills"] == nil || m["placement"].(float64) < 1 || m["team"] == nil {
			t.Fatalf("%v", m)
		}
	})
	t.Run("StatsOverTimeOldestFirst", func(t *testing.T) {
		h := r.JSON["history"].([]any)
		if len(h) != 4 {
			t.Fatalf("%d points", len(h))
		}
		first, last := h[0].(map[string]any), h[3].(map[string]any)
		if first["games_played"].(float64) >= last["games_played"].(float64) || last["kills"] != r.JSON["kills"] {
			t.Fatalf("first %v last %v", first, last)
		}
	})
	t.Run("ErrUnknownPlayer", func(t *testing.T) {
		for _, p := range []string{"/api/players/999999", "/api/players/abc"} {
			if r := l.s.Do(t, "GET", p, "", nil); r.Status != 404 {
				t.Fatalf("%s: %d", p, r.Status)
			}
		}
	})
	t.Run("AHiddenProfileShowsItsNameAloneButToItsOwner", func(t *testing.T) {
		token := l.s.SignUp(t, testkit.UniqueEmail("hidden"), "shy_racer")
		save := l.s.Do(t, "POST", "/api/stats/save", token, map[string]any{"sk_id": 4321, "level": 20, "kills": 400, "deaths": 100,
			"games_played": 90, "kd": 4, "cart_image": nil, "description": "shy", "category": 1, "preferred_role": "Player"})
		if save.Status != 200 {
			t.Fatalf("%d %s", save.Status, save.Body)
		}
		me := l.s.Do(t, "GET", "/api/auth/profile", token, nil)
		user, _ := me.JSON["user"].(map[string]any)
		if user == nil {
			t.Fatalf("%s", me.Body)
		}
		path := fmt.Sprintf("/api/players/%d", int64(user["id"].(float64)))
		if r := l.s.Do(t, "GET", "/api/players?q=shy_rac", "", nil); len(r.JSON["players"].([]any)) != 1 {
			t.Fatalf("a visible player not found: %s", r.Body)
		}
		if r := l.s.Do(t, "PUT", "/api/players/me/visibility", token, map[string]any{"hidden": true}); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		anon := l.s.Do(t, "GET", path, "", nil)
		if anon.Status != 200 || anon.JSON["hidden"] != true || anon.JSON["kills"] != nil || anon.JSON["history"] != nil || anon.JSON["name"] != "shy_racer" {
			t.Fatalf("%d %s", anon.Status, anon.Body)
		}
		if own := l.s.Do(t, "GET", path, token, nil); own.JSON["kills"].(float64) != 400 {
			t.Fatalf("the owner sees %s", own.Body)
		}
		if r := l.s.Do(t, "GET", "/api/players?q=shy_rac", "", nil); len(r.JSON["players"].([]any)) != 0 {
			t.Fatalf("search lists a hidden profile: %s", r.Body)
		}
		if r := l.s.Do(t, "PUT", "/api/players/me/visibility", "", map[string]any{"hidden": true}); r.Status != 401 {
			t.Fatalf("signed out: %d", r.Status)
		}
	})
}

func search(t *testing.T, l memoryLeague) {
	t.Run("FindsByPartOfTheName", func(t *testing.T) {
		r := l.s.Do(t, "GET", "/api/players?q=URBOk", "", nil)
		ps := r.JSON["players"].([]any)
		if r.Status != 200 || len(ps) == 0 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		for _, p := range ps {
			if !strings.Contains(strings.ToLower(p.(map[string]any)["name"].(string)), "urbok") {
				t.Fatalf("%v", p)
			}
		}
		noEmail(t, r.Body)
	})
	t.Run("FindsTeams", func(t *testing.T) {
		r := l.s.Do(t, "GET", "/api/players?q=team%20b", "", nil)
		if teams := r.JSON["teams"].([]any); len(teams) == 0 || teams[0].(map[string]any)["letter"] != "B" {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("PagesCoverEveryVisiblePlayerOnce", func(t *testing.T) {
		seen, cursor := map[int64]bool{}, ""
		for {
			ids, next := pageIDs(t, l.s, "/api/players?limit=9&cursor="+url.QueryEscape(cursor), "players")
			for _, id := range ids {
				if seen[id] {
					t.Fatalf("%d twice", id)
				}
				seen[id] = true
			}
			if next == "" {
				break
			}
			cursor = next
		}
		var want int
		// Players: accounts that saved their stats or are on a season's
		// list (the organiser is not one).
		l.s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM users u WHERE NOT profile_hidden AND deleted_at IS NULL
			AND (EXISTS (SELECT 1 FROM stats WHERE user_id = u.id) OR EXISTS (SELECT 1 FROM registrations WHERE user_id = u.id))`).Scan(&want)
		if len(seen) != want {
			t.Fatalf("%d players, want %d", len(seen), want)
		}
	})
	t.Run("LikeWildcardsAreText", func(t *testing.T) {
		if r := l.s.Do(t, "GET", "/api/players?q=%25", "", nil); r.Status != 200 || len(r.JSON["players"].([]any)) != 0 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

func teamPages(t *testing.T, l memoryLeague) {
	r := l.s.Do(t, "GET", "/api/tournaments/PPL7-S01/teams/a", "", nil)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	noEmail(t, r.Body)
	t.Run("CaptainAndFivePlayersWithPrices", func(t *testing.T) {
		roster := r.JSON["roster"].([]any)
		if r.JSON["captain"] == nil || len(roster) != 5 {
			t.Fatalf("captain %v, %d players", r.JSON["captain"], len(roster))
		}
		for _, m := range roster {
			if m.(map[string]any)["price"] == nil {
				t.Fatalf("%v", m)
			}
		}
	})
	t.Run("FixturesAndTheStandingsLine", func(t *testing.T) {
		fx := r.JSON["fixtures"].([]any)
		if len(fx) == 0 || r.JSON["standing"] == nil || r.JSON["position"].(float64) < 1 {
			t.Fatalf("%d fixtures, standing %v", len(fx), r.JSON["standing"])
		}
		won := 0
		for _, f := range fx {
			if f.(map[string]any)["won"] == true {
				won++
			}
		}
		if st := r.JSON["standing"].(map[string]any); int(st["won"].(float64)) > won {
			t.Fatalf("table says %v won, fixtures %d", st["won"], won)
		}
	})
	t.Run("KillsPerPlayerAddUpToTheTeams", func(t *testing.T) {
		sum := int(r.JSON["captain"].(map[string]any)["kills"].(float64))
		for _, m := range r.JSON["roster"].([]any) {
			sum += int(m.(map[string]any)["kills"].(float64))
		}
		var want int
		l.s.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(sum(kills), 0) FROM match_lines l JOIN teams te ON te.id = l.team_id
			JOIN tournaments t ON t.id = te.tournament_id WHERE t.name = 'PPL7-S01' AND te.letter = 'A'`).Scan(&want)
		if sum != want {
			t.Fatalf("%d, want %d", sum, want)
		}
	})
	for _, p := range []string{"/api/tournaments/PPL7-S01/teams/Z", "/api/tournaments/NOPE/teams/A"} {
		if r := l.s.Do(t, "GET", p, "", nil); r.Status != 404 {
			t.Fatalf("%s: %d", p, r.Status)
		}
	}
}

func leaderboards(t *testing.T, l memoryLeague) {
	for _, kind := range []string{"kills", "kd", "titles", "redcaps", "seasons"} {
		t.Run(kind, func(t *testing.T) {
			var all []float64
			seen, cursor := map[int64]bool{}, ""
			for {
				r := l.s.Do(t, "GET", "/api/leaderboards/"+kind+"?limit=4&cursor="+url.QueryEscape(cursor), "", nil)
				if r.Status != 200 {
					t.Fatalf("%d %s", r.Status, r.Body)
				}
				noEmail(t, r.Body)
				for _, x := range r.JSON["rows"].([]any) {
					row := x.(map[string]any)
					id := int64(row["id"].(float64))
					if seen[id] {
						t.Fatalf("%d twice", id)
					}
					seen[id] = true
					all = append(all, row["value"].(float64))
					if kind == "kd" && row["matches"].(float64) < 5 {
						t.Fatalf("%v under the minimum of matches", row)
					}
				}
				next, _ := r.JSON["next_cursor"].(string)
				if next == "" {
					break
				}
				cursor = next
			}
			if len(all) == 0 {
				t.Fatal("an empty board")
			}
			for i := 1; i < len(all); i++ {
				if all[i] > all[i-1] {
					t.Fatalf("not best first: %v", all)
				}
			}
		})
	}
	t.Run("SeasonsNameTheirChampions", func(t *testing.T) {
		r := l.s.Do(t, "GET", "/api/leaderboards/seasons", "", nil)
		rows := r.JSON["rows"].([]any)
		if len(rows) != 1 { // PPL7 is still at registration
			t.Fatalf("%d completed seasons: %s", len(rows), r.Body)
		}
		for _, x := range rows {
			if x.(map[string]any)["champion"] == nil {
				t.Fatalf("%v", x)
			}
		}
	})
	t.Run("ErrUnknownBoard", func(t *testing.T) {
		if r := l.s.Do(t, "GET", "/api/leaderboards/speed", "", nil); r.Status != 404 {
			t.Fatalf("%d", r.Status)
		}
		if r := l.s.Do(t, "GET", "/api/leaderboards/kd?min_matches=0", "", nil); r.Status != 400 {
			t.Fatalf("%d", r.Status)
		}
	})
}

// crawl fetches a page as Discord's crawler does: a plain GET.
func crawl(t *testing.T, s *testkit.Server, path string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header
}

var ogImage = regexp.MustCompile(`<meta property="og:image" content="([^"]+)">`)

func linkPreviews(t *testing.T, l memoryLeague) {
	id := l.playedInPast(t)
	var name string
	l.s.DB.Pool.QueryRow(context.Background(), `SELECT player_name FROM stats WHERE user_id = $1`, id).Scan(&name)
	pages := []struct{ path, title string }{
		{fmt.Sprintf("/players/%d", id), "<title>" + name + " · Pitlane</title>"},
		{"/tournaments/PPL7-S01/teams/C", "<title>Team C · PPL7-S01 · Pitlane</title>"},
		{"/league", "<title>League records · Pitlane</title>"},
	}
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			status, body, _ := crawl(t, l.s, p.path)
			if status != 200 || !strings.Contains(body, p.title) || !strings.Contains(body, `<meta property="og:title"`) ||
				!strings.Contains(body, `<meta name="twitter:card" content="summary_large_image">`) {
				t.Fatalf("%d %s", status, body)
			}
			m := ogImage.FindStringSubmatch(body)
			if m == nil || !strings.HasPrefix(m[1], "http") {
				t.Fatalf("no absolute og:image: %s", body)
			}
			u, _ := url.Parse(m[1])
			status, img, h := crawl(t, l.s, u.Path)
			if status != 200 || h.Get("Content-Type") != "image/png" || !strings.HasPrefix(img, "\x89PNG") {
				t.Fatalf("%s: %d %s", u.Path, status, h.Get("Content-Type"))
			}
			again := l.s.Do(t, "GET", u.Path, "", nil)
			if again.Status != 200 || !bytes.Equal(again.Body, []byte(img)) {
				t.Fatalf("a second read differs: %d", again.Status)
			}
			req, _ := http.NewRequest("GET", l.s.URL+u.Path, nil)
			req.Header.Set("If-None-Match", h.Get("ETag"))
			if r := l.s.Send(t, req); r.Status != 304 {
				t.Fatalf("If-None-Match: %d", r.Status)
			}
		})
	}
	t.Run("TheDescriptionSaysThePlayersFigures", func(t *testing.T) {
		_, body, _ := crawl(t, l.s, fmt.Sprintf("/players/%d", id))
		if !strings.Contains(body, `<meta property="og:description" content="Level `) || strings.Contains(body, "@") {
			t.Fatalf("%s", body)
		}
	})
	t.Run("UnknownPlayerOrTeamIs404", func(t *testing.T) {
		for _, p := range []string{"/players/999999", "/tournaments/PPL7-S01/teams/Z", "/api/og/players/999999"} {
			if status, _, _ := crawl(t, l.s, p); status != 404 {
				t.Fatalf("%s: %d", p, status)
			}
		}
	})
}

func headToHead(t *testing.T, l memoryLeague) {
	ctx := context.Background()
	var a, b int64
	var want int
	// Two players who met: the pair with the most meetings.
	err := l.s.DB.Pool.QueryRow(ctx, `SELECT la.user_id, lb.user_id, count(*) FROM match_lines la
		JOIN match_lines lb ON lb.match_id = la.match_id AND lb.team_id <> la.team_id
		GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1`).Scan(&a, &b, &want)
	if err != nil {
		t.Fatal(err)
	}
	r := l.s.Do(t, "GET", fmt.Sprintf("/api/players/%d/versus/%d", a, b), "", nil)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	noEmail(t, r.Body)
	ms := r.JSON["meetings"].([]any)
	wins, losses := int(r.JSON["wins"].(float64)), int(r.JSON["losses"].(float64))
	if len(ms) != want || wins+losses != want {
		t.Fatalf("%d meetings, %d wins, %d losses; want %d meetings", len(ms), wins, losses, want)
	}
	back := l.s.Do(t, "GET", fmt.Sprintf("/api/players/%d/versus/%d", b, a), "", nil)
	if int(back.JSON["wins"].(float64)) != losses || int(back.JSON["losses"].(float64)) != wins {
		t.Fatalf("the other way round: %s", back.Body)
	}
	for _, p := range []string{fmt.Sprintf("/api/players/%d/versus/%d", a, a), fmt.Sprintf("/api/players/%d/versus/999999", a)} {
		if r := l.s.Do(t, "GET", p, "", nil); r.Status != 400 && r.Status != 404 {
			t.Fatalf("%s: %d", p, r.Status)
		}
	}
}

func matchPages(t *testing.T, l memoryLeague) {
	const base = "/api/tournaments/PPL7-S01/matches"
	all, next := pageIDs(t, l.s, base, "matches")
	if len(all) < 10 || next != "" {
		t.Fatalf("the whole list: %d matches, next %q", len(all), next)
	}
	var paged []int64
	cursor := ""
	for {
		ids, next := pageIDs(t, l.s, base+"?limit=4&cursor="+url.QueryEscape(cursor), "matches")
		if len(ids) > 4 {
			t.Fatalf("a page of %d", len(ids))
		}
		paged = append(paged, ids...)
		if next == "" {
			break
		}
		cursor = next
	}
	if fmt.Sprint(paged) != fmt.Sprint(all) {
		t.Fatalf("pages %v, whole %v", paged, all)
	}
	if r := l.s.Do(t, "GET", base+"?limit=4&cursor="+(paging.Key{ID: 999999}).Encode(), "", nil); r.Status != 400 {
		t.Fatalf("a cursor off the list: %d", r.Status)
	}
}
