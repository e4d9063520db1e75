package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/testkit"
)

// channel records what is posted to the announcement channel.
type channel struct {
	mu    sync.Mutex
	posts []string
}

func (c *channel) Post(_ context.Context, r bot.Reply) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts = append(c.posts, r.Text)
	return nil
}

func (c *channel) find(part string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, p := range c.posts {
		if strings.Contains(p, part) {
			n++
		}
	}
	return n
}

// demoLeague is the demo league, registering, in a database of its own (the
// demo loads into an empty one), served by the real app; advance takes it
// to its matches phase through the league's services (the auction's sales
// are published live like any other change).
func demoLeague(t *testing.T) (s *testkit.Server, advance func()) {
	t.Helper()
	ctx := context.Background()
	db := pgtest.Fresh(t)
	if _, err := demo.Load(ctx, db, demo.Options{Players: 48, Captains: true}); err != nil {
		t.Fatal(err)
	}
	s = testkit.NewServer(t, db, testkit.Options{Admins: []string{demo.AdminEmail}})
	return s, func() {
		if err := demo.Advance(ctx, db, "PPL7", "matches"); err != nil {
			t.Fatal(err)
		}
	}
}

func embedText(rep bot.Reply) string { return bot.Render(rep) }

// TestLeagueCommands runs every league command's success and refusal on
// the demo league, as its organiser, a captain, a player and a stranger.
func TestLeagueCommands(t *testing.T) {
	s, advance := demoLeague(t)
	ch := &channel{}
	r := *s.App.Bot
	r.Channel = ch
	admin := bot.Member{ID: demo.AdminDiscordID, Username: "league.organiser"}
	captainA := bot.Member{ID: demo.PlayerDiscordID(1), Username: "captain.a"}
	stranger := bot.Member{ID: "123456789012345678", Username: "stranger"}

	// The announcer follows the hub as the bot does, into the same channel.
	actx, stop := context.WithCancel(context.Background())
	defer stop()
	ann := &bot.Announcer{Feed: s.App.Hub, Claims: postgres.Bot{DB: s.DB}, Channel: ch}
	go ann.Run(actx)
	time.Sleep(100 * time.Millisecond) // following before the first event
	advance()                          // the auction's sales are announced

	t.Run("Help", func(t *testing.T) {
		rep := say(t, &r, stranger, false, "!help")
		for _, c := range []string{"!register", "!verify", "!profile", "!matches", "!bracket", "!admin"} {
			wantText(t, rep, c)
		}
	})
	t.Run("BracketBeforeFixtures", func(t *testing.T) {
		if out := embedText(say(t, &r, stranger, false, "!bracket")); !strings.Contains(out, "No fixtures yet") {
			t.Fatal(out)
		}
	})
	t.Run("ErrAdminIsForOrganisers", func(t *testing.T) {
		wantText(t, say(t, &r, captainA, false, "!admin status matches"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, captainA, false, "!admin pause"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, captainA, false, "!admin undo"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, stranger, false, "!admin status matches"), "Link your Discord first")
		wantText(t, say(t, &r, captainA, false, "!admin announce hi"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, captainA, false, "!admin bracket"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, captainA, false, "!admin resolve 1 A"), core.MsgAdminsOnly)
		wantText(t, say(t, &r, captainA, false, "!admin captain A <@"+demo.PlayerDiscordID(9)+">"), core.MsgAdminsOnly)
	})
	t.Run("ErrAdminUsage", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin"), "Usage: `!admin status")
		wantText(t, say(t, &r, admin, false, "!admin frobnicate"), "Usage: `!admin status")
		wantText(t, say(t, &r, admin, false, "!admin resolve x A"), "Usage: `!admin status")
		wantText(t, say(t, &r, admin, false, "!admin status nowhere"), "Status must be")
	})
	t.Run("AdminStatus", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin status matches"), "PPL7 is in its matches phase already.")
		wantText(t, say(t, &r, admin, false, "!admin status auction"), "PPL7 is now in the **auction** phase")
		wantText(t, say(t, &r, admin, false, "!admin status matches"), "PPL7 is now in the **matches** phase")
	})
	t.Run("AdminBracket", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin bracket single_elimination"), "Fixtures made for PPL7")
		out := embedText(say(t, &r, stranger, false, "!bracket"))
		if !strings.Contains(out, "single elimination") || !strings.Contains(out, "0 of") || !strings.Contains(out, "/tournament") {
			t.Fatal(out)
		}
	})
	var next matches.Match
	t.Run("Matches", func(t *testing.T) {
		out := embedText(say(t, &r, captainA, false, "!matches"))
		if !strings.Contains(out, "Team A") || !strings.Contains(out, "Next match") || !strings.Contains(out, "Room:") {
			t.Fatal(out)
		}
		list, err := s.App.Server.Matches.Matches(context.Background(), core.System, "PPL7", "A")
		if err != nil || len(list) == 0 {
			t.Fatal(list, err)
		}
		next = list[0]

		// A time set on the match shows in every member's own time zone (Discord's timestamps),
		// and its reminder is announced.
		at := time.Now().Add(3 * time.Hour).Truncate(time.Minute)
		organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
		if _, err := s.App.Server.Matches.SetTime(context.Background(), organiser, next.ID, &at); err != nil {
			t.Fatal(err)
		}
		if out := embedText(say(t, &r, captainA, false, "!matches")); !strings.Contains(out, fmt.Sprintf("Time: <t:%d:F>", at.Unix())) {
			t.Fatal(out)
		}
		if err := s.App.Server.Matches.RemindDue(context.Background(), matches.Remind{Match: next.ID, At: at}); err != nil {
			t.Fatal(err)
		}
		if err := s.App.Server.Matches.RemindDue(context.Background(), matches.Remind{Match: next.ID, At: at, Late: true}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for ch.find(fmt.Sprintf("match #%d starts <t:%d:R>", next.ID, at.Unix())) != 1 ||
			ch.find(fmt.Sprintf("match #%d was due <t:%d:R> and has no result yet", next.ID, at.Unix())) != 1 {
			if time.Now().After(deadline) {
				t.Fatalf("no reminder or overdue notice announced: %q", ch.posts)
			}
			time.Sleep(50 * time.Millisecond)
		}

		wantText(t, say(t, &r, stranger, false, "!matches"), "Link your Discord first")
		wantText(t, say(t, &r, admin, false, "!matches"), "not on a team")
		wantText(t, say(t, &r, captainA, false, "!matches now"), "Usage: `!matches`")
	})
	t.Run("RoomCodeOnlyInPrivate", func(t *testing.T) {
		// The home captain posts the room; captain A's side plays in it.
		ctx := context.Background()
		teams, err := s.App.Server.Auction.Teams(ctx, "PPL7")
		if err != nil {
			t.Fatal(err)
		}
		var home core.Actor
		for _, tm := range teams.Teams {
			if tm.ID == next.Team1.ID && tm.Captain != nil {
				u, err := s.App.Server.Accounts.Store.FindUserByID(ctx, tm.Captain.UserID)
				if err != nil {
					t.Fatal(err)
				}
				if home, err = s.App.Server.Accounts.Actor(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
		}
		const room = "PPLROOM-4417"
		if _, err := s.App.Server.Matches.PostRoom(ctx, home, next.ID, room); err != nil {
			t.Fatal(err)
		}

		// In a guild channel everyone reads the answer: everything but the code, and where to get it.
		rep := sayIn(t, &r, captainA, bot.InChannel, "!matches")
		if out := embedText(rep); strings.Contains(out, room) || !strings.Contains(out, "Next match") ||
			!strings.Contains(out, "direct message") || !strings.Contains(out, "/matches") {
			t.Fatalf("in a channel:\n%s", out)
		}
		// A DM and the console are the member's own.
		if out := embedText(sayIn(t, &r, captainA, bot.InDM, "!matches")); !strings.Contains(out, "Room: `"+room+"`") {
			t.Fatalf("in a DM:\n%s", out)
		}
		var console strings.Builder
		if err := bot.Console(ctx, &r, captainA, strings.NewReader("matches\n"), &console, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(console.String(), room) {
			t.Fatalf("on the console:\n%s", console.String())
		}
		// A slash command's answer with the code is for the member alone (ephemeral).
		rep = sayIn(t, &r, captainA, bot.InSlash, "!matches")
		if out := embedText(rep); !strings.Contains(out, room) || !rep.Private {
			t.Fatalf("slash command (private %v):\n%s", rep.Private, out)
		}
		// Without a code to hide, nothing changes in a channel.
		if out := embedText(sayIn(t, &r, admin, bot.InChannel, "!matches")); !strings.Contains(out, "not on a team") {
			t.Fatal(out)
		}
	})
	t.Run("AdminResolve", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin resolve 999999 A"), "")
		if rep := say(t, &r, admin, false, "!admin resolve 999999 A"); strings.Contains(rep.Text, "resolved") {
			t.Fatal(rep.Text)
		}
		wantText(t, say(t, &r, admin, false, fmt.Sprintf("!admin resolve %d Z", next.ID)), "The winner must be team")
		wantText(t, say(t, &r, admin, false, fmt.Sprintf("!admin resolve %d A", next.ID)), fmt.Sprintf("Match #%d resolved: Team A wins", next.ID))
		out := embedText(say(t, &r, captainA, false, "!matches"))
		if !strings.Contains(out, "Last match") || !strings.Contains(out, "winner Team A") {
			t.Fatal(out)
		}
	})
	t.Run("AdminAuctionFlowAfterTheAuction", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin pause"), "The auction is paused only while it runs: PPL7 is in its matches phase.")
		wantText(t, say(t, &r, admin, false, "!admin undo"), "A sale can be undone only while the auction runs")
	})
	t.Run("AdminCaptain", func(t *testing.T) {
		rep := say(t, &r, admin, false, "!admin captain A <@"+stranger.ID+">")
		wantText(t, rep, "has not linked a Pitlane account")
		rep = say(t, &r, admin, false, "!admin captain Z <@"+demo.PlayerDiscordID(9)+">")
		if strings.Contains(rep.Text, "now captains") || rep.Text == "" {
			t.Fatal(rep.Text)
		}
	})
	t.Run("AdminAnnounce", func(t *testing.T) {
		wantText(t, say(t, &r, admin, false, "!admin announce Round 2 starts at 20:00!"), "Announced.")
		if ch.find("📣 Round 2 starts at 20:00!") != 1 {
			t.Fatalf("posts: %q", ch.posts)
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = 'bot.announce'`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		noChannel := *s.App.Bot
		wantText(t, say(t, &noChannel, admin, false, "!admin announce hi"), "No announcement channel")
	})
	t.Run("Profile", func(t *testing.T) {
		out := embedText(say(t, &r, captainA, false, "!profile"))
		for _, want := range []string{"Level:", "Kills:", "Deaths:", "K/D:", "Games:", "Tier:", "Registered for PPLS-6.0", "Team A", "(captain)", "Season 3 Winner", "verified"} {
			if !strings.Contains(out, want) {
				t.Fatalf("profile lacks %q:\n%s", want, out)
			}
		}
		other := embedText(say(t, &r, stranger, false, "!profile <@"+demo.PlayerDiscordID(12)+">"))
		if !strings.Contains(other, "Registered for PPLS-6.0") || !strings.Contains(other, "Team ") {
			t.Fatal(other)
		}
		wantText(t, say(t, &r, admin, false, "!profile <@"+stranger.ID+">"), "has not linked a Pitlane account")
		wantText(t, say(t, &r, admin, false, "!profile nobody"), "Usage: `!profile")

		// A hidden profile is its name and registration to others, whole
		// to its player.
		var (
			id int64
			kd float64
		)
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT u.id, s.kd::float8 FROM users u JOIN stats s ON s.user_id = u.id
			WHERE u.discord_id = $1`, demo.PlayerDiscordID(12)).Scan(&id, &kd); err != nil || kd == 0 {
			t.Fatal(kd, err)
		}
		if err := s.App.Server.Records.SetHidden(context.Background(), core.Actor{UserID: id}, true); err != nil {
			t.Fatal(err)
		}
		for _, asker := range []bot.Member{stranger, admin} {
			hidden := embedText(say(t, &r, asker, false, "!profile <@"+demo.PlayerDiscordID(12)+">"))
			if !strings.Contains(hidden, "profile is hidden") || !strings.Contains(hidden, "Registered for PPLS-6.0") || strings.Contains(hidden, "K/D") {
				t.Fatalf("a hidden profile to %s:\n%s", asker.Username, hidden)
			}
		}
		own := embedText(say(t, &r, bot.Member{ID: demo.PlayerDiscordID(12), Username: "twelve"}, false, "!profile"))
		if !strings.Contains(own, fmt.Sprintf("K/D: %.2f", kd)) || !strings.Contains(own, "Registered for PPLS-6.0") {
			t.Fatalf("a hidden profile to its player:\n%s", own)
		}
	})
	t.Run("RegisterClosed", func(t *testing.T) {
		wantText(t, say(t, &r, captainA, false, "!register"), "Registration for PPL7 is closed")
	})
	t.Run("Announcements", func(t *testing.T) {
		deadline := time.Now().Add(5 * time.Second)
		for ch.find("beat") == 0 || ch.find("sold to Team") == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("no result or Red Cap announced: %q", ch.posts)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	t.Run("AnnouncedOnceAcrossInstances", func(t *testing.T) {
		// A second instance's announcer sees the same events: none is posted twice.
		other := &channel{}
		second := &bot.Announcer{Claims: postgres.Bot{DB: s.DB}, Channel: other}
		data, _ := json.Marshal(map[string]any{"tournament": "PPL7", "player": map[string]any{"name": "Dup", "kd": 1.5}})
		d := core.Delivery{Topic: core.TopicRegistrations, Seq: 424242, Event: "player.registered", Data: data}
		if err := ann.Announce(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if err := second.Announce(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if ch.find("**Dup** registered") != 1 || other.find("Dup") != 0 {
			t.Fatalf("first %q, second %q", ch.posts, other.posts)
		}
	})
	t.Run("RedCapHolder", func(t *testing.T) {
		standings := func(seq int64, id int64, name string, kills int) core.Delivery {
			data, _ := json.Marshal(map[string]any{"tournament": "PPL7", "red_cap": map[string]any{
				"rows": []map[string]any{{"user_id": id, "name": name, "kills": kills}}}})
			return core.Delivery{Topic: core.TopicBracket, Seq: seq, Event: "standings.updated", Data: data}
		}
		for i, d := range []core.Delivery{standings(900001, 7, "Ace", 30), standings(900002, 7, "Ace", 35),
			standings(900003, 8, "Blaze", 40), standings(900003, 8, "Blaze", 40)} {
			if err := ann.Announce(context.Background(), d); err != nil {
				t.Fatal(i, err)
			}
		}
		if ch.find("New Red Cap holder in PPL7: **Ace**") != 1 || ch.find("New Red Cap holder in PPL7: **Blaze** with 40 kills") != 1 {
			t.Fatalf("posts: %q", ch.posts)
		}
	})
	t.Run("AnnouncementsNameTheSeasonByItsDisplayName", func(t *testing.T) {
		named := &channel{}
		withSeasons := &bot.Announcer{Claims: postgres.Bot{DB: s.DB}, Channel: named, Seasons: s.App.Server.Tournaments}
		data, _ := json.Marshal(map[string]any{"tournament": "PPL7", "player": map[string]any{"name": "Newcomer", "kd": 1.25}})
		if err := withSeasons.Announce(context.Background(), core.Delivery{Topic: core.TopicRegistrations, Seq: 434343,
			Event: "player.registered", Data: data}); err != nil {
			t.Fatal(err)
		}
		if named.find("**Newcomer** registered for PPLS-6.0 (K/D 1.25).") != 1 {
			t.Fatalf("posts: %q", named.posts)
		}
	})
	t.Run("ErrRateLimited", func(t *testing.T) {
		tight := *s.App.Bot
		tight.Limits = ratelimit.New(nil, "t:", []byte("x"), 1, nil, ratelimit.Bot...)
		for i := 0; i < ratelimit.BotMember.Limit; i++ {
			say(t, &tight, captainA, false, "!help")
		}
		rep := say(t, &tight, captainA, false, "!help")
		wantText(t, rep, "Slow down")
		wantText(t, say(t, &tight, admin, false, "!help"), "Pitlane bot") // per member
	})
}

// The formats in Discord: `!admin bracket` takes a Swiss stage's rounds and
// cut (and a double elimination's reset), !bracket names the rounds being
// played and shows the Swiss standings, and a result is announced with its
// round's name.
func TestBracketFormatCommands(t *testing.T) {
	s, advance := demoLeague(t)
	advance()
	ch := &channel{}
	r := *s.App.Bot
	admin := bot.Member{ID: demo.AdminDiscordID, Username: "league.organiser"}
	stranger := bot.Member{ID: "123456789012345678", Username: "stranger"}

	wantText(t, say(t, &r, admin, false, "!admin bracket swiss rounds=three"), "Usage: `!admin status")
	wantText(t, say(t, &r, admin, false, "!admin bracket swiss reset=maybe"), "Usage: `!admin status")
	wantText(t, say(t, &r, admin, false, "!admin bracket swiss rounds=9"), "8 teams play 1 to 7 Swiss rounds")
	wantText(t, say(t, &r, admin, false, "!admin bracket swiss reset=on"), "A grand final reset (grand_final_reset) is a double elimination's option")
	wantText(t, say(t, &r, admin, false, "!admin bracket swiss rounds=3 cut=4"), "Fixtures made for PPL7: swiss, 3 rounds, top 4 cut")
	out := embedText(say(t, &r, stranger, false, "!bracket"))
	for _, want := range []string{"Swiss round 1", "Swiss standings", "1. ", "Buchholz"} {
		if !strings.Contains(out, want) {
			t.Fatalf("!bracket does not say %q:\n%s", want, out)
		}
	}

	ctx := context.Background()
	b, err := s.App.Server.Matches.Bracket(ctx, core.System, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.App.Server.Matches.Match(ctx, core.System, b.Rounds[0].Matches[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
	ruling := matches.Report{Winner: m.Team1.ID, Players: []matches.PlayerLine{{UserID: m.Members[m.Team1.ID][0].UserID, Kills: 7}}}
	if m, err = s.App.Server.Matches.Resolve(ctx, organiser, m.ID, ruling); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"tournament": "PPL7", "match": m})
	ann := &bot.Announcer{Claims: postgres.Bot{DB: s.DB}, Channel: ch}
	if err := ann.Announce(ctx, core.Delivery{Topic: core.TopicBracket, Seq: 9191, Event: "match.updated", Data: data}); err != nil {
		t.Fatal(err)
	}
	if ch.find(fmt.Sprintf("match #%d, swiss round 1.", m.ID)) != 1 {
		t.Fatalf("announced %q", ch.posts)
	}
}
