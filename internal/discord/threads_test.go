package discord_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/testkit"
)

// When fixtures are made the bot opens a thread per match whose sides are
// known in the match channel, mentioning both sides' linked members; a
// restart hearing the fixtures again opens none twice. The thread is told
// of the time and the result, never the room, and is archived at the end.
func TestAThreadPerFixture(t *testing.T) {
	ctx := context.Background()
	s := matchesServer(t)
	srv := s.App.Server
	threads := func() *bot.MatchThreads {
		return &bot.MatchThreads{Feed: s.App.Hub, Store: postgres.Bot{DB: s.DB}, Matches: srv.Matches, PublicURL: "https://pitlane.example"}
	}
	b, f := botWith(t, s, func(b *discord.Bot) { b.MatchChannel, b.Threads = "888", threads() })
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	go b.Threads.Run(rctx)
	time.Sleep(100 * time.Millisecond) // following before the fixtures

	br, err := srv.Matches.Generate(ctx, core.System, "PPL7", "single_elimination")
	if err != nil {
		t.Fatal(err)
	}
	fixtures := len(br.Rounds[0].Matches) // the later rounds wait for their sides
	opened := func() []recorded { return f.threadsOpened("888") }
	f.waitFor(t, "a thread per fixture", func(recorded) bool { return len(opened()) == fixtures })
	first := br.Rounds[0].Matches[0]
	name, _ := opened()[0].Body["name"].(string)
	if !strings.Contains(name, first.Team1.Name) || !strings.Contains(name, first.Team2.Name) {
		t.Fatalf("thread name %q, want %s v %s", name, first.Team1.Name, first.Team2.Name)
	}
	var thread string
	if err := s.DB.Pool.QueryRow(ctx, `SELECT thread_id FROM match_threads WHERE match_id = $1`, first.ID).Scan(&thread); err != nil || thread == "" {
		t.Fatalf("thread of match %d: %q %v", first.ID, thread, err)
	}
	posted := func(what string, ok func(string) bool) recorded {
		t.Helper()
		return f.waitFor(t, what, func(c recorded) bool {
			text, _ := c.Body["content"].(string)
			return c.Method == "POST" && c.Path == "/channels/"+thread+"/messages" && ok(text)
		})
	}
	hello := posted("the opening message", func(text string) bool { return strings.Contains(text, "vs") })
	text := hello.Body["content"].(string)
	users, _ := hello.Body["allowed_mentions"].(map[string]any)["users"].([]any)
	if len(users) == 0 || strings.Count(text, "<@") != len(users) {
		t.Fatalf("members not mentioned (%d may ping): %s", len(users), text)
	}

	// A restart hears the fixtures again: no second thread.
	again, _ := json.Marshal(map[string]any{"tournament": "PPL7"})
	if err := threads().Handle(ctx, core.Delivery{Topic: core.TopicBracket, Seq: 1, Event: matches.EventBracket, Data: again}); err != nil {
		t.Fatal(err)
	}
	if n := len(opened()); n != fixtures {
		t.Fatalf("%d threads after a restart, want %d", n, fixtures)
	}

	// The room stays out; the time and the result come in; then it is archived.
	home := captainOf(t, s, first.Team1.ID)
	const room = "PPLROOM-7731"
	if _, err := srv.Matches.PostRoom(ctx, home, first.ID, room); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(26 * time.Hour).UTC().Truncate(time.Minute)
	if _, err := srv.Matches.SetTime(ctx, home, first.ID, &at); err != nil {
		t.Fatal(err)
	}
	posted("the time", func(text string) bool { return strings.Contains(text, "<t:"+strconv.FormatInt(at.Unix(), 10)+":F>") })
	if _, err := srv.Matches.Forfeit(ctx, captainOf(t, s, first.Team2.ID), first.ID); err != nil {
		t.Fatal(err)
	}
	posted("the result", func(text string) bool { return strings.Contains(text, "won by forfeit") })
	f.waitFor(t, "the thread archived", func(c recorded) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+thread && c.Body["archived"] == true
	})
	for _, c := range f.calls() {
		if b, _ := json.Marshal(c.Body); strings.Contains(string(b), room) {
			t.Fatalf("the room was posted: %+v", c)
		}
	}
}

// captainOf is the actor of the captain of team letter in PPL7.
func captainOf(t *testing.T, s *testkit.Server, letter string) core.Actor {
	t.Helper()
	ctx, srv := context.Background(), s.App.Server
	teams, err := srv.Auction.Teams(ctx, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams.Teams {
		if tm.ID == letter {
			u, err := srv.Accounts.Store.FindUserByID(ctx, tm.Captain.UserID)
			if err != nil {
				t.Fatal(err)
			}
			a, err := srv.Accounts.Actor(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("no team %s", letter)
	return core.Actor{}
}
