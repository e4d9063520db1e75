package discord_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/postgres"
)

// Fixtures reset: the threads of the matches taken away are told the
// match is off and archived (a played match's thread was archived with
// its result and is left alone); the fixtures made again open threads of
// their own.
func TestAResetArchivesItsThreads(t *testing.T) {
	ctx := context.Background()
	s := matchesServer(t)
	srv := s.App.Server
	b, f := botWith(t, s, func(b *discord.Bot) {
		b.MatchChannel = "888"
		b.Threads = &bot.MatchThreads{Feed: s.App.Hub, Store: postgres.Bot{DB: s.DB}, Matches: srv.Matches, PublicURL: "https://pitlane.example"}
	})
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	go b.Threads.Run(rctx)
	time.Sleep(100 * time.Millisecond) // following before the fixtures

	opened := func() int { return len(f.threadsOpened("888")) }
	br, err := srv.Matches.Generate(ctx, core.System, "PPL7", "single_elimination")
	if err != nil {
		t.Fatal(err)
	}
	f.waitFor(t, "a thread per fixture", func(recorded) bool { return opened() == 4 })
	played := br.Rounds[0].Matches[0]
	if _, err := srv.Matches.Forfeit(ctx, captainOf(t, s, played.Team2.ID), played.ID); err != nil {
		t.Fatal(err)
	}
	threadOf := func(id int64) string {
		var thread string
		if err := s.DB.Pool.QueryRow(ctx, `SELECT thread_id FROM match_threads WHERE match_id = $1`, id).Scan(&thread); err != nil {
			t.Fatal(err)
		}
		return thread
	}
	playedThread, openThread := threadOf(played.ID), threadOf(br.Rounds[0].Matches[1].ID)
	f.waitFor(t, "the played match's thread archived", func(c recorded) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+playedThread
	})

	organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
	if _, err := srv.Matches.ResetFixtures(ctx, organiser, "PPL7", true); err != nil {
		t.Fatal(err)
	}
	f.waitFor(t, "the open match's thread told", func(c recorded) bool {
		text, _ := c.Body["content"].(string)
		return c.Method == "POST" && c.Path == "/channels/"+openThread+"/messages" && strings.Contains(text, "reset the fixtures")
	})
	f.waitFor(t, "the open match's thread archived", func(c recorded) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+openThread && c.Body["archived"] == true
	})
	if _, err := srv.Matches.Generate(ctx, core.System, "PPL7", "double_elimination"); err != nil {
		t.Fatal(err)
	}
	f.waitFor(t, "threads for the new fixtures", func(recorded) bool { return opened() == 8 })
	for _, c := range f.calls() {
		text, _ := c.Body["content"].(string)
		if c.Path == "/channels/"+playedThread+"/messages" && strings.Contains(text, "reset the fixtures") {
			t.Fatal("the played match's archived thread was told of the reset")
		}
	}
}
