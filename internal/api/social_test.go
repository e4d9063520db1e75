package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/pitlane/pitlane/internal/testkit"
)

type socialPlayer struct {
	token string
	id    int64
}

func socialPlayers(t *testing.T, s *testkit.Server, names ...string) []socialPlayer {
	t.Helper()
	out := make([]socialPlayer, len(names))
	for i, n := range names {
		tok := s.SignUp(t, testkit.UniqueEmail(n), n)
		out[i] = socialPlayer{token: tok, id: userID(t, s, tok)}
	}
	return out
}

func mustStatus(t *testing.T, r *testkit.Resp, want int, what string) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("%s: %d %s, want %d", what, r.Status, r.Body, want)
	}
}

func myFollows(t *testing.T, s *testkit.Server, token string) []map[string]any {
	t.Helper()
	r := s.Do(t, http.MethodGet, "/api/me/follows", token, nil)
	mustStatus(t, r, http.StatusOK, "GET /api/me/follows")
	var out []map[string]any
	for _, it := range r.JSON["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// A player follows another player, a team and a tournament; a follow back
// makes them friends; unfollowing ends it; following twice is one follow.
func TestFollowPlayersTeamsAndTournaments(t *testing.T) {
	s := newServer(t, testkit.Options{})
	p := socialPlayers(t, s, "ana", "ben")
	ana, ben := p[0], p[1]
	var team int64
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT id FROM teams ORDER BY id LIMIT 1`).Scan(&team); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fmt.Sprintf("/api/follows/player/%d", ben.id), fmt.Sprintf("/api/follows/player/%d", ben.id),
		fmt.Sprintf("/api/follows/team/%d", team), "/api/follows/tournament/PPL7"} {
		mustStatus(t, s.Do(t, http.MethodPut, path, ana.token, nil), http.StatusNoContent, "PUT "+path)
	}
	got := myFollows(t, s, ana.token)
	if len(got) != 3 || got[0]["kind"] != "tournament" || got[0]["id"] != "PPL7" || got[1]["kind"] != "team" || got[2]["kind"] != "player" || got[2]["friend"] != nil {
		t.Fatalf("ana's follows: %v", got)
	}
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", ana.id), ben.token, nil), http.StatusNoContent, "ben follows back")
	if got := myFollows(t, s, ana.token); got[2]["friend"] != true {
		t.Fatalf("a follow back makes friends: %v", got[2])
	}
	for path, want := range map[string]int{
		fmt.Sprintf("/api/follows/player/%d", ana.id): http.StatusBadRequest, // oneself
		"/api/follows/player/999999":                  http.StatusNotFound,
		"/api/follows/team/999999":                    http.StatusNotFound,
		"/api/follows/tournament/NOPE":                http.StatusNotFound,
		"/api/follows/planet/1":                       http.StatusNotFound,
	} {
		mustStatus(t, s.Do(t, http.MethodPut, path, ana.token, nil), want, "PUT "+path)
	}
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", ben.id), "", nil), http.StatusUnauthorized, "signed out")
	mustStatus(t, s.Do(t, http.MethodDelete, fmt.Sprintf("/api/follows/team/%d", team), ana.token, nil), http.StatusNoContent, "unfollow")
	if got := myFollows(t, s, ana.token); len(got) != 2 {
		t.Fatalf("after unfollowing the team: %v", got)
	}
}

// A block ends the follows between the two accounts and stops the blocked
// one from following again, until it is lifted.
func TestABlockStopsAFollow(t *testing.T) {
	s := newServer(t, testkit.Options{})
	p := socialPlayers(t, s, "cat", "dan")
	cat, dan := p[0], p[1]
	follow := fmt.Sprintf("/api/follows/player/%d", cat.id)
	mustStatus(t, s.Do(t, http.MethodPut, follow, dan.token, nil), http.StatusNoContent, "dan follows cat")
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/blocks/%d", dan.id), cat.token, nil), http.StatusNoContent, "cat blocks dan")
	if got := myFollows(t, s, dan.token); len(got) != 0 {
		t.Fatalf("the block ended dan's follow: %v", got)
	}
	r := s.Do(t, http.MethodPut, follow, dan.token, nil)
	mustStatus(t, r, http.StatusForbidden, "dan follows cat again")
	mustStatus(t, s.Do(t, http.MethodGet, fmt.Sprintf("/api/players/%d/followers", cat.id), dan.token, nil), http.StatusForbidden, "dan reads cat's followers")
	mustStatus(t, s.Do(t, http.MethodDelete, fmt.Sprintf("/api/blocks/%d", dan.id), cat.token, nil), http.StatusNoContent, "cat unblocks dan")
	mustStatus(t, s.Do(t, http.MethodPut, follow, dan.token, nil), http.StatusNoContent, "dan follows cat after the unblock")
}

// Who sees a player's followers is the player's choice; a hidden profile's
// follows are the player's alone, and a hidden follower is listed nowhere.
func TestFollowersAsTheOwnerAllows(t *testing.T) {
	s := newServer(t, testkit.Options{})
	p := socialPlayers(t, s, "eve", "fay", "gus", "hal")
	eve, fay, gus, hal := p[0], p[1], p[2], p[3]
	followers := fmt.Sprintf("/api/players/%d/followers", eve.id)
	for _, f := range []socialPlayer{fay, gus, hal} {
		mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", eve.id), f.token, nil), http.StatusNoContent, "follow eve")
	}
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", fay.id), eve.token, nil), http.StatusNoContent, "eve follows fay")

	// Everyone (the default): paged newest first, with the counts.
	r := s.Do(t, http.MethodGet, followers+"?limit=2", "", nil)
	mustStatus(t, r, http.StatusOK, "a visitor reads eve's followers")
	var page struct {
		Followers, Following int
		Items                []struct {
			UserID int64 `json:"user_id"`
			Friend bool
		}
		NextCursor *string `json:"next_cursor"`
	}
	_ = json.Unmarshal(r.Body, &page)
	if page.Followers != 3 || page.Following != 1 || len(page.Items) != 2 || page.Items[0].UserID != hal.id || page.NextCursor == nil {
		t.Fatalf("first page: %+v", page)
	}
	r = s.Do(t, http.MethodGet, followers+"?limit=2&cursor="+*page.NextCursor, "", nil)
	_ = json.Unmarshal(r.Body, &page)
	if len(page.Items) != 1 || page.Items[0].UserID != fay.id || !page.Items[0].Friend || page.NextCursor != nil {
		t.Fatalf("second page: %+v", page)
	}

	mustStatus(t, s.Do(t, http.MethodPut, "/api/me/follows/visibility", eve.token, map[string]string{"visible": "friends"}), http.StatusNoContent, "friends only")
	mustStatus(t, s.Do(t, http.MethodGet, followers, "", nil), http.StatusForbidden, "a visitor, friends only")
	mustStatus(t, s.Do(t, http.MethodGet, followers, gus.token, nil), http.StatusForbidden, "a follower who is no friend")
	mustStatus(t, s.Do(t, http.MethodGet, followers, fay.token, nil), http.StatusOK, "a friend")
	mustStatus(t, s.Do(t, http.MethodPut, "/api/me/follows/visibility", eve.token, map[string]string{"visible": "nobody"}), http.StatusNoContent, "nobody")
	mustStatus(t, s.Do(t, http.MethodGet, followers, fay.token, nil), http.StatusForbidden, "a friend, nobody")
	mustStatus(t, s.Do(t, http.MethodGet, followers, eve.token, nil), http.StatusOK, "the player herself")

	// A hidden profile: its lists are the player's alone, and as a follower
	// it is listed nowhere.
	mustStatus(t, s.Do(t, http.MethodPut, "/api/me/follows/visibility", eve.token, map[string]string{"visible": "everyone"}), http.StatusNoContent, "everyone")
	mustStatus(t, s.Do(t, http.MethodPut, "/api/players/me/visibility", hal.token, map[string]any{"hidden": true}), http.StatusOK, "hal hides his profile")
	mustStatus(t, s.Do(t, http.MethodPut, "/api/follows/player/"+fmt.Sprint(gus.id), hal.token, nil), http.StatusNoContent, "hal follows gus")
	mustStatus(t, s.Do(t, http.MethodGet, fmt.Sprintf("/api/players/%d/followers", hal.id), gus.token, nil), http.StatusForbidden, "a hidden player's followers")
	r = s.Do(t, http.MethodGet, followers, "", nil)
	_ = json.Unmarshal(r.Body, &page)
	if page.Followers != 2 || len(page.Items) != 2 {
		t.Fatalf("a hidden follower is neither listed nor counted: %+v", page)
	}
	for _, it := range page.Items {
		if it.UserID == hal.id {
			t.Fatalf("hal is hidden but listed: %+v", page)
		}
	}
}

// An erased account follows nobody and is followed by nobody; the export
// has the account's follows and blocks.
func TestFollowsInTheExportAndGoneWithTheAccount(t *testing.T) {
	s := newServer(t, testkit.Options{})
	p := socialPlayers(t, s, "ivy", "jon")
	ivy, jon := p[0], p[1]
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", jon.id), ivy.token, nil), http.StatusNoContent, "ivy follows jon")
	mustStatus(t, s.Do(t, http.MethodPut, "/api/follows/tournament/PPL7", ivy.token, nil), http.StatusNoContent, "ivy follows PPL7")
	mustStatus(t, s.Do(t, http.MethodPut, fmt.Sprintf("/api/follows/player/%d", ivy.id), jon.token, nil), http.StatusNoContent, "jon follows ivy")
	exp := s.Do(t, http.MethodGet, "/api/me/export", ivy.token, nil)
	mustStatus(t, exp, http.StatusOK, "export")
	data, _ := exp.JSON["data"].(map[string]any)
	if fs, _ := data["follows"].([]any); len(fs) != 2 || data["followers"] != float64(1) || data["follows_visible"] != "everyone" {
		t.Fatalf("the export's follows: %v, followers %v", data["follows"], data["followers"])
	}
	mustStatus(t, s.Do(t, http.MethodDelete, "/api/me", ivy.token, map[string]string{"password": testkit.Password}), http.StatusOK, "ivy deletes her account")
	if got := myFollows(t, s, jon.token); len(got) != 0 {
		t.Fatalf("jon still follows the erased account: %v", got)
	}
	var n int
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM follows WHERE follower_id = $1 OR player_id = $1`, ivy.id).Scan(&n); err != nil || n != 0 {
		t.Fatalf("follows of the erased account left: %d (%v)", n, err)
	}
}
