package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
)

// A time the home captain proposed and the away captain accepted is in
// both teams' calendar feeds and in their players' own, with the match's
// UID; a later change bumps its SEQUENCE. A feed's address is its members'
// and organisers'; a reset turns the old address off.
func TestProposalAcceptedShowsInBothTeamsCalendars(t *testing.T) {
	s, login := leagueServer(t, "matches")
	admin := login(demo.AdminEmail)
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/bracket", admin, map[string]string{"format": "round_robin"}); r.Status != 201 {
		t.Fatalf("bracket: %d %q", r.Status, r.Message())
	}
	b := s.Do(t, "GET", "/api/tournaments/PPL7/bracket", "", nil)
	round := b.JSON["rounds"].([]any)[0].(map[string]any)["matches"].([]any)
	m := round[0].(map[string]any)
	home, away := m["team1"].(map[string]any)["id"].(string), m["team2"].(map[string]any)["id"].(string)
	outsider := round[1].(map[string]any)["team1"].(map[string]any)["id"].(string)
	id := int(m["id"].(float64))
	homeTok, awayTok := login(demo.CaptainEmail(home)), login(demo.CaptainEmail(away))

	link := func(token, path string) string {
		t.Helper()
		r := s.Do(t, "GET", path, token, nil)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", path, r.Status, r.Body)
		}
		u, err := url.Parse(r.JSON["url"].(string))
		if err != nil || !strings.HasSuffix(u.Path, ".ics") {
			t.Fatalf("%s: %v (%v)", path, r.JSON["url"], err)
		}
		return u.Path
	}
	feed := func(path string) string {
		t.Helper()
		r := s.Do(t, "GET", path, "", nil)
		if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar") {
			t.Fatalf("%s: %d %s %s", path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		return strings.ReplaceAll(string(r.Body), "\r\n ", "") // unfolded
	}
	homeFeed := link(homeTok, "/api/tournaments/PPL7/teams/"+home+"/calendar")
	awayFeed := link(awayTok, "/api/tournaments/PPL7/teams/"+away+"/calendar")
	ownFeed := link(awayTok, "/api/auth/calendar")
	uid := fmt.Sprintf("UID:match-%d@", id)
	if strings.Contains(feed(homeFeed), uid) {
		t.Fatalf("a match with no time is in the feed")
	}
	matchFile := fmt.Sprintf("/api/matches/%d/calendar.ics", id)
	if r := s.Do(t, "GET", matchFile, "", nil); r.Status != 404 {
		t.Fatalf("a match with no time as a calendar file: %d %s", r.Status, r.Body)
	}

	// The home captain proposes two times; the away captain accepts the later.
	first, second := time.Now().Add(30*time.Hour).UTC().Truncate(time.Minute), time.Now().Add(54*time.Hour).UTC().Truncate(time.Minute)
	r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/proposal", id), homeTok, map[string]any{"times": []time.Time{first, second}})
	if r.Status != 200 || r.JSON["match"].(map[string]any)["proposal"] == nil {
		t.Fatalf("proposal: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/accept", id), homeTok, map[string]any{"at": second}); r.Status != 403 {
		t.Fatalf("the proposer accepted its own time: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/accept", id), awayTok, map[string]any{"at": second}); r.Status != 200 {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	start := "DTSTART:" + second.Format("20060102T150405Z")
	for name, path := range map[string]string{"home team": homeFeed, "away team": awayFeed, "away captain": ownFeed} {
		ics := feed(path)
		if !strings.Contains(ics, uid) || !strings.Contains(ics, start) || !strings.Contains(ics, "SEQUENCE:1\r\n") {
			t.Fatalf("the %s's feed lacks the accepted time (%s, SEQUENCE:1):\n%s", name, start, ics)
		}
	}

	// The match page's "Add to calendar": the same event, for anyone.
	if ics := feed(matchFile); !strings.Contains(ics, uid) || !strings.Contains(ics, start) || !strings.Contains(ics, "SEQUENCE:1\r\n") {
		t.Fatalf("the match's calendar file lacks the accepted time (%s, SEQUENCE:1):\n%s", start, ics)
	}

	// An organiser moves it: the same UID, its SEQUENCE bumped.
	moved := second.Add(2 * time.Hour)
	if r := s.Do(t, "POST", fmt.Sprintf("/api/matches/%d/time", id), admin, map[string]any{"at": moved}); r.Status != 200 {
		t.Fatalf("time: %d %s", r.Status, r.Body)
	}
	if ics := feed(awayFeed); !strings.Contains(ics, uid) || !strings.Contains(ics, "DTSTART:"+moved.Format("20060102T150405Z")) ||
		!strings.Contains(ics, "SEQUENCE:2\r\n") || strings.Count(ics, uid) != 1 {
		t.Fatalf("after the move:\n%s", ics)
	}

	// Another team's captain gets neither the address nor a reset; the
	// home captain resets it, and the old address is gone.
	if r := s.Do(t, "GET", "/api/tournaments/PPL7/teams/"+home+"/calendar", login(demo.CaptainEmail(outsider)), nil); r.Status != 403 {
		t.Fatalf("an outsider got the link: %d", r.Status)
	}
	if r := s.Do(t, "GET", "/api/tournaments/PPL7/teams/"+home+"/calendar", "", nil); r.Status != 401 {
		t.Fatalf("anonymous: %d", r.Status)
	}
	r = s.Do(t, "POST", "/api/tournaments/PPL7/teams/"+home+"/calendar/reset", homeTok, nil)
	if r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "GET", homeFeed, "", nil); r.Status != 404 {
		t.Fatalf("the old address still answers %d", r.Status)
	}
	if fresh := link(homeTok, "/api/tournaments/PPL7/teams/"+home+"/calendar"); fresh == homeFeed || !strings.Contains(feed(fresh), uid) {
		t.Fatalf("the new address %s", fresh)
	}
	for _, forged := range []string{strings.Replace(awayFeed, "/team/", "/player/", 1), awayFeed[:len(awayFeed)-6] + "AAAA.ics"} {
		if r := s.Do(t, "GET", forged, "", nil); r.Status != 404 {
			t.Fatalf("%s: %d", forged, r.Status)
		}
	}
}
