package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres"
)

// `!checkin` is a player's tournament check-in while its window is open,
// and once the matches are on, a captain's check-in for their next match.
func TestCheckinCommand(t *testing.T) {
	s, advance := demoLeague(t)
	ch := &channel{}
	r := *s.App.Bot
	ctx := context.Background()
	organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
	player := bot.Member{ID: demo.PlayerDiscordID(20), Username: "player20"}
	captainA := bot.Member{ID: demo.PlayerDiscordID(1), Username: "captain.a"}
	stranger := bot.Member{ID: "123456789012345678", Username: "stranger"}

	actx, stop := context.WithCancel(ctx)
	defer stop()
	go (&bot.Announcer{Feed: s.App.Hub, Claims: postgres.Bot{DB: s.DB}, Channel: ch}).Run(actx)
	time.Sleep(100 * time.Millisecond) // following before the first event

	t.Run("Help", func(t *testing.T) { wantText(t, say(t, &r, stranger, false, "!help"), "`!checkin`") })
	t.Run("ErrNotOpen", func(t *testing.T) {
		wantText(t, say(t, &r, player, false, "!checkin"), "Check-in for PPL7 is not open.")
	})
	t.Run("ErrNotLinked", func(t *testing.T) { wantText(t, say(t, &r, stranger, false, "!checkin"), "Link your Discord first") })
	t.Run("ErrUsage", func(t *testing.T) { wantText(t, say(t, &r, player, false, "!checkin now"), "Usage: `!checkin`") })

	deadline := time.Now().Add(2 * time.Hour).Truncate(time.Minute)
	if _, err := s.App.Server.Tournaments.OpenCheckin(ctx, organiser, "PPL7", &deadline); err != nil {
		t.Fatal(err)
	}
	t.Run("TheWindowIsAnnounced", func(t *testing.T) {
		want := fmt.Sprintf("Check-in for PPL7 is open until <t:%d:F>", deadline.Unix())
		for end := time.Now().Add(5 * time.Second); ch.find(want) != 1; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("not announced: %q", ch.posts)
			}
		}
	})
	t.Run("APlayerChecksIn", func(t *testing.T) {
		wantText(t, say(t, &r, player, false, "!checkin"), "You are checked in for PPL7.", "/tournament?tab=reg")
		wantText(t, say(t, &r, player, false, "!checkin"), "You are checked in for PPL7 already.")
		if out := embedText(say(t, &r, player, false, "!profile")); !strings.Contains(out, "Registered for PPLS-6.0 · checked in") {
			t.Fatal(out)
		}
	})

	// The matches: team A's first match in an hour's time.
	if _, err := s.App.Server.Tournaments.OpenCheckin(ctx, organiser, "PPL7", nil); err != nil {
		t.Fatal(err)
	}
	advance()
	b, err := s.App.Server.Matches.Generate(ctx, organiser, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	var match int64
	for _, m := range b.Rounds[0].Matches {
		if m.Side("A") != nil {
			match = m.ID
		}
	}
	t.Run("ErrACaptainsMatchHasNoTime", func(t *testing.T) {
		wantText(t, say(t, &r, captainA, false, "!checkin"), fmt.Sprintf("Match %d has no time yet", match))
	})
	at := time.Now().Add(40 * time.Minute).Truncate(time.Minute)
	if _, err := s.App.Server.Matches.SetTime(ctx, organiser, match, &at); err != nil {
		t.Fatal(err)
	}
	t.Run("ACaptainChecksInForTheNextMatch", func(t *testing.T) {
		wantText(t, say(t, &r, captainA, false, "!checkin"), fmt.Sprintf("Team A is checked in for match #%d", match), fmt.Sprintf("/matches/%d", match))
		m, err := s.App.Server.Matches.Match(ctx, organiser, match)
		if err != nil || m.CheckedIn["A"].IsZero() {
			t.Fatalf("%+v %v", m.CheckedIn, err)
		}
	})
	t.Run("ErrAPlayerOnceTheMatchesAreOn", func(t *testing.T) {
		wantText(t, say(t, &r, player, false, "!checkin"), "Check-in for PPL7 is over: it is in its matches phase.")
	})
}
