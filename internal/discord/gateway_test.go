package discord_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

func decodeJSON(t *testing.T, res *http.Response, v any) {
	t.Helper()
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// gatewayBot is the bot wired to the real router, its REST calls going to
// the fake Discord through the session's http.Client (discordgo's endpoint
// variables are fixed at start, so the transport rewrites them).
func gatewayBot(t *testing.T) (*discord.Bot, *fakeDiscord) {
	return botOf(t, testkit.NewServer(t, pgtest.DB(t), testkit.Options{}))
}

// botOf is gatewayBot on the server s.
func botOf(t *testing.T, s *testkit.Server) (*discord.Bot, *fakeDiscord) {
	return botWith(t, s, func(b *discord.Bot) { b.Channel = "777" })
}

// botWith is the bot on the server s as set wants it (its channels, its
// match threads), prepared after set has run.
func botWith(t *testing.T, s *testkit.Server, set func(*discord.Bot)) (*discord.Bot, *fakeDiscord) {
	f := newFakeDiscord(t)
	client, err := discord.HTTPClient(f.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := discord.NewSession("bot-token", client)
	if err != nil {
		t.Fatal(err)
	}
	b := &discord.Bot{Session: sess, Router: s.App.Bot}
	set(b)
	b.Prepare()
	return b, f
}

// matchesServer is a server on a demo league of 48 players moved to its
// matches phase (no fixtures yet).
func matchesServer(t *testing.T) *testkit.Server {
	ctx := context.Background()
	db := pgtest.Fresh(t)
	if _, err := demo.Load(ctx, db, demo.Options{Players: 48, Captains: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, db, "PPL7", "matches"); err != nil {
		t.Fatal(err)
	}
	return testkit.NewServer(t, db, testkit.Options{})
}

func TestGatewayREST(t *testing.T) {
	b, f := gatewayBot(t)
	author := &discordgo.User{ID: "300000000000000001", Username: "guild.member"}

	t.Run("Intents", func(t *testing.T) {
		want := discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentsMessageContent
		if b.Session.Identify.Intents&want != want {
			t.Fatalf("intents %b", b.Session.Identify.Intents)
		}
	})
	t.Run("AnnouncementChannel", func(t *testing.T) {
		f.reset()
		p := discord.ChannelPoster{Session: b.Session, ChannelID: "777"}
		if err := p.Post(context.Background(), bot.Reply{Text: "🏁 news"}); err != nil {
			t.Fatal(err)
		}
		c := f.calls()
		if len(c) != 1 || c[0].Method != "POST" || c[0].Path != "/channels/777/messages" || c[0].Body["content"] != "🏁 news" ||
			c[0].Auth != "Bot bot-token" {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("MessageInAChannel", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ID: "m9", ChannelID: "55", GuildID: "g1",
			Content: "!help", Author: author}})
		c := f.calls()
		if len(c) != 1 || c[0].Path != "/channels/55/messages" || !strings.Contains(c[0].Body["content"].(string), "Pitlane bot") {
			t.Fatalf("%+v", c)
		}
		if ref, _ := c[0].Body["message_reference"].(map[string]any); ref["message_id"] != "m9" {
			t.Fatalf("not a reply: %+v", c[0].Body)
		}
		if am, _ := c[0].Body["allowed_mentions"].(map[string]any); am == nil {
			t.Fatalf("mentions could ping: %+v", c[0].Body)
		}
	})
	t.Run("PrivateAnswerGoesToDM", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ID: "m10", ChannelID: "55", GuildID: "g1",
			Content: "!register someone@example.com", Author: author}})
		c := f.calls()
		if len(c) != 3 || c[0].Path != "/users/@me/channels" || c[0].Body["recipient_id"] != author.ID ||
			c[1].Path != "/channels/dm-channel/messages" || !strings.Contains(c[1].Body["content"].(string), "code is on its way") ||
			c[2].Path != "/channels/55/messages" || !strings.Contains(c[2].Body["content"].(string), "direct message") {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("EmbedsAreEmbeds", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ID: "m11", ChannelID: "", GuildID: "",
			Content: "!bracket", Author: author}})
		c := f.calls()
		if len(c) != 1 {
			t.Fatalf("%+v", c)
		}
		embeds, _ := c[0].Body["embeds"].([]any)
		if len(embeds) != 1 || !strings.Contains(embeds[0].(map[string]any)["title"].(string), "bracket") {
			t.Fatalf("%+v", c[0].Body)
		}
	})
	t.Run("IgnoresBotsAndChat", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ChannelID: "55", Content: "!help",
			Author: &discordgo.User{ID: "1", Bot: true}}})
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ChannelID: "55", Content: "gg all", Author: author}})
		if c := f.calls(); len(c) != 0 {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("SlashCommand", func(t *testing.T) {
		f.reset()
		b.OnInteraction(b.Session, &discordgo.InteractionCreate{Interaction: &discordgo.Interaction{
			ID: "i1", Token: "tok1", Type: discordgo.InteractionApplicationCommand, GuildID: "g1",
			Member: &discordgo.Member{User: author},
			Data: discordgo.ApplicationCommandInteractionData{Name: "verify", Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "code", Type: discordgo.ApplicationCommandOptionString, Value: "123456"}}},
		}})
		c := f.calls()
		if len(c) != 1 || c[0].Path != "/interactions/i1/tok1/callback" {
			t.Fatalf("%+v", c)
		}
		data, _ := c[0].Body["data"].(map[string]any)
		// An interaction is private: the code is tried (and is wrong), and the answer is ephemeral.
		if !strings.Contains(data["content"].(string), "Invalid or expired code") || data["flags"] != float64(discordgo.MessageFlagsEphemeral) {
			t.Fatalf("%+v", c[0].Body)
		}
	})
	t.Run("RegistersSlashCommands", func(t *testing.T) {
		f.reset()
		b.Session.State.User = &discordgo.User{ID: "app-1"}
		if err := b.RegisterCommands(context.Background()); err != nil {
			t.Fatal(err)
		}
		c := f.calls()
		if len(c) != 1 || c[0].Method != "PUT" || c[0].Path != "/applications/app-1/commands" {
			t.Fatalf("%+v", c)
		}
	})
}

// A match's room code lets whoever reads it into the match: the bot shows
// it where the member alone reads the answer (a DM, an ephemeral slash
// reply), and in a guild channel everything else, with where to ask.
func TestRoomCodeOnlyInPrivateAnswers(t *testing.T) {
	ctx := context.Background()
	s := matchesServer(t)
	b, f := botOf(t, s)

	// Fixtures, and the room of team A's first match posted by its home captain.
	srv := s.App.Server
	if _, err := srv.Matches.Generate(ctx, core.System, "PPL7", ""); err != nil {
		t.Fatal(err)
	}
	list, err := srv.Matches.Matches(ctx, core.System, "PPL7", "A")
	if err != nil || len(list) == 0 {
		t.Fatal(list, err)
	}
	home := captainOf(t, s, list[0].Team1.ID)
	const room = "PPLROOM-9921"
	if _, err := srv.Matches.PostRoom(ctx, home, list[0].ID, room); err != nil {
		t.Fatal(err)
	}
	captainA := &discordgo.User{ID: demo.PlayerDiscordID(1), Username: "captain.a"}
	sent := func(c recorded) string { b, _ := json.Marshal(c.Body); return string(b) }

	t.Run("GuildChannelGetsNoCode", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ID: "m20", ChannelID: "55", GuildID: "g1",
			Content: "!matches", Author: captainA}})
		c := f.calls()
		if len(c) != 1 || c[0].Path != "/channels/55/messages" {
			t.Fatalf("%+v", c)
		}
		if out := sent(c[0]); strings.Contains(out, room) || !strings.Contains(out, "Next match") || !strings.Contains(out, "/matches") {
			t.Fatalf("in the channel: %s", out)
		}
	})
	t.Run("DMGetsTheCode", func(t *testing.T) {
		f.reset()
		b.OnMessage(b.Session, &discordgo.MessageCreate{Message: &discordgo.Message{ID: "m21", ChannelID: "dm-channel",
			Content: "!matches", Author: captainA}})
		c := f.calls()
		if len(c) != 1 || c[0].Path != "/channels/dm-channel/messages" || !strings.Contains(sent(c[0]), room) {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("SlashCommandGetsTheCodeEphemeral", func(t *testing.T) {
		f.reset()
		b.OnInteraction(b.Session, &discordgo.InteractionCreate{Interaction: &discordgo.Interaction{
			ID: "i2", Token: "tok2", Type: discordgo.InteractionApplicationCommand, GuildID: "g1",
			Member: &discordgo.Member{User: captainA}, Data: discordgo.ApplicationCommandInteractionData{Name: "matches"},
		}})
		c := f.calls()
		if len(c) != 1 || c[0].Path != "/interactions/i2/tok2/callback" {
			t.Fatalf("%+v", c)
		}
		data, _ := c[0].Body["data"].(map[string]any)
		if !strings.Contains(sent(c[0]), room) || data["flags"] != float64(discordgo.MessageFlagsEphemeral) {
			t.Fatalf("%+v", c[0].Body)
		}
	})
}

// TestBotEndToEnd runs the bot as serve does (App.RunBot: the leader lock,
// the gateway session, the slash commands, the announcer) against the fake
// Discord: a message in a channel is answered, and a registration on the
// site is announced.
func TestBotEndToEnd(t *testing.T) {
	f := newFakeDiscord(t)
	s := testkit.NewServer(t, pgtest.DB(t), testkit.Options{Configure: func(c *config.Config) {
		c.DiscordBotToken, c.DiscordAPIURL, c.DiscordChannel = "bot-token", f.URL+"/api", "777"
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.App.RunBot(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	f.waitFor(t, "slash command registration", func(c recorded) bool {
		return c.Method == "PUT" && c.Path == "/applications/app-1/commands"
	})
	id := f.identified()
	if id["token"] != "Bot bot-token" || int(id["intents"].(float64))&int(discord.Intents) != int(discord.Intents) {
		t.Fatalf("identify: %v", id)
	}
	f.events <- `{"op":0,"s":2,"t":"MESSAGE_CREATE","d":{"id":"m1","channel_id":"55","guild_id":"g1","content":"!help",` +
		`"author":{"id":"300000000000000009","username":"someone"}}}`
	f.waitFor(t, "an answer to !help", func(c recorded) bool {
		content, _ := c.Body["content"].(string)
		return c.Path == "/channels/55/messages" && strings.Contains(content, "Pitlane bot")
	})
	time.Sleep(200 * time.Millisecond) // the announcer follows the hub by now
	tok := s.SignUp(t, testkit.UniqueEmail("announced"), "announced_racer")
	s.SaveStats(t, tok)
	if r := s.Do(t, "POST", "/api/tournament/register", tok, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	f.waitFor(t, "the registration announced", func(c recorded) bool {
		content, _ := c.Body["content"].(string)
		return c.Path == "/channels/777/messages" && strings.Contains(content, "registered for PPLS-6.0")
	})
}

// Every command the bot answers is also a slash command.
func TestEveryCommandIsASlashCommand(t *testing.T) {
	for _, name := range bot.Names() {
		if !slices.ContainsFunc(discord.Commands, func(c *discordgo.ApplicationCommand) bool { return c.Name == name }) {
			t.Errorf("!%s has no slash command", name)
		}
	}
}
