package discord

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/pitlane/pitlane/internal/bot"
)

// Intents the bot needs: guild messages and DMs, and their text (the
// privileged MESSAGE_CONTENT intent, for prefix commands).
const Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages |
	discordgo.IntentsMessageContent

// NewSession is a discordgo session for the bot token whose REST calls go
// through client (see HTTPClient).
func NewSession(token string, client *http.Client) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, err
	}
	if client != nil {
		s.Client = client
	}
	s.Identify.Intents = Intents
	s.ShouldRetryOnRateLimit = true
	s.MaxRestRetries = 2
	return s, nil
}

// Bot connects the command router to Discord: messages and slash commands
// in, replies out, and the announcer's posts to the channel.
type Bot struct {
	Session *discordgo.Session
	Router  *bot.Router // copied: its Channel is set to Channel's poster
	// Channel is the announcement channel's id ("" for none).
	Channel string
	// Announcer, when set, runs while the bot does (its Channel is set here).
	Announcer *bot.Announcer
	// MatchChannel is where each match gets its thread ("" for none);
	// Threads, when set with it, keeps them while the bot runs.
	MatchChannel string
	Threads      *bot.MatchThreads
	Log          *slog.Logger

	router *bot.Router
}

// ChannelPoster posts to one channel (bot.Poster).
type ChannelPoster struct {
	Session   *discordgo.Session
	ChannelID string
}

// Post implements bot.Poster.
func (p ChannelPoster) Post(ctx context.Context, r bot.Reply) error {
	_, err := p.Session.ChannelMessageSendComplex(p.ChannelID, message(r), discordgo.WithContext(ctx))
	return err
}

// Prepare wires the handlers without connecting (tests call them directly).
func (b *Bot) Prepare() {
	if b.Log == nil {
		b.Log = slog.New(slog.DiscardHandler)
	}
	r := *b.Router
	if b.Channel != "" {
		r.Channel = ChannelPoster{Session: b.Session, ChannelID: b.Channel}
	}
	b.router = &r
	if b.Announcer != nil && b.Channel != "" {
		b.Announcer.Channel = r.Channel
	}
	if b.Threads != nil && b.MatchChannel != "" {
		b.Threads.Threads = MatchThreads{Session: b.Session, ChannelID: b.MatchChannel}
	}
	b.Session.AddHandler(b.OnMessage)
	b.Session.AddHandler(b.OnInteraction)
}

// Run connects, registers the slash commands and answers until ctx ends.
func (b *Bot) Run(ctx context.Context) error {
	b.Prepare()
	if err := b.Session.Open(); err != nil {
		return fmt.Errorf("discord: connecting the bot: %w", err)
	}
	defer b.Session.Close()
	if err := b.RegisterCommands(ctx); err != nil {
		b.Log.Warn("discord: registering the slash commands failed", slog.Any("err", err))
	}
	if st := b.Session.State; st != nil && st.User != nil {
		b.Log.Info("discord: bot connected", slog.String("user", st.User.Username))
	}
	if b.Announcer != nil && b.Channel != "" {
		go b.Announcer.Run(ctx)
	}
	if b.Threads != nil && b.MatchChannel != "" {
		go b.Threads.Run(ctx)
	}
	<-ctx.Done()
	return nil
}

// Commands are the slash commands: the prefix commands with options.
var Commands = []*discordgo.ApplicationCommand{
	{Name: "help", Description: "What the Pitlane bot can do"},
	{Name: "register", Description: "Link your Discord to Pitlane (a code is mailed to you), then register for the tournament",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "email", Description: "Your Pitlane account's e-mail"}}},
	{Name: "verify", Description: "Give back the 6-digit code mailed to you",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "code", Description: "The code", Required: true}}},
	{Name: "checkin", Description: "Check in for the tournament while its check-in is open (a captain: for the next match, in the hour before it)"},
	{Name: "profile", Description: "A player's stats card",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionUser, Name: "member", Description: "Whose card (yours if empty)"}}},
	{Name: "matches", Description: "Your team's next and last matches"},
	{Name: "bracket", Description: "Where the tournament stands"},
	{Name: "admin", Description: "Organisers: status <phase> [force] | resolve | bracket | reset [force] | withdraw <team>",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "command", Description: "e.g. status matches", Required: true}}},
}

// RegisterCommands puts the slash commands on the application (globally).
func (b *Bot) RegisterCommands(ctx context.Context) error {
	appID := ""
	if b.Session.State != nil && b.Session.State.User != nil {
		appID = b.Session.State.User.ID
	}
	if appID == "" {
		return fmt.Errorf("discord: no application id yet")
	}
	_, err := b.Session.ApplicationCommandBulkOverwrite(appID, "", Commands, discordgo.WithContext(ctx))
	return err
}

func (b *Bot) handle(member bot.Member, text string, where bot.Place) bot.Reply {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return b.router.Handle(ctx, bot.Request{Member: member, Text: text, Where: where})
}

// OnMessage answers a prefix command in a channel or a DM.
func (b *Bot) OnMessage(s *discordgo.Session, m *discordgo.MessageCreate) {
	if m.Author == nil || m.Author.Bot || !bot.IsCommand(m.Content) {
		return
	}
	where := bot.InChannel
	if m.GuildID == "" {
		where = bot.InDM
	}
	rep := b.handle(bot.Member{ID: m.Author.ID, Username: m.Author.Username}, m.Content, where)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if rep.Private && where == bot.InChannel {
		// The answer is the member's alone: in a DM, with a pointer here.
		if err := b.dm(ctx, s, m.Author.ID, rep); err == nil {
			rep = bot.Reply{Text: "I have answered you in a direct message."}
		} else {
			b.Log.Warn("discord: DM failed", slog.Any("err", err))
			rep = bot.Reply{Text: "I could not send you a direct message: allow DMs from this server's members, then try again."}
		}
	}
	msg := message(rep)
	msg.Reference = &discordgo.MessageReference{MessageID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID}
	if _, err := s.ChannelMessageSendComplex(m.ChannelID, msg, discordgo.WithContext(ctx)); err != nil {
		b.Log.Warn("discord: reply failed", slog.Any("err", err))
	}
}

func (b *Bot) dm(ctx context.Context, s *discordgo.Session, userID string, rep bot.Reply) error {
	ch, err := s.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err != nil {
		return err
	}
	_, err = s.ChannelMessageSendComplex(ch.ID, message(rep), discordgo.WithContext(ctx))
	return err
}

// OnInteraction answers a slash command. Only the member sees an
// interaction's options, so codes are accepted; replies that are the
// member's alone (a room code among them) are ephemeral, the rest public.
func (b *Bot) OnInteraction(s *discordgo.Session, i *discordgo.InteractionCreate) {
	if i.Type != discordgo.InteractionApplicationCommand {
		return
	}
	data := i.ApplicationCommandData()
	user := i.User
	if i.Member != nil && i.Member.User != nil {
		user = i.Member.User
	}
	if user == nil {
		return
	}
	text := bot.Prefix + data.Name
	for _, o := range data.Options {
		switch o.Type {
		case discordgo.ApplicationCommandOptionUser:
			text += " <@" + fmt.Sprint(o.Value) + ">"
		default:
			text += " " + o.StringValue()
		}
	}
	rep := b.handle(bot.Member{ID: user.ID, Username: user.Username}, text, bot.InSlash)
	msg := message(rep)
	resp := &discordgo.InteractionResponseData{Content: msg.Content, Embeds: msg.Embeds, AllowedMentions: msg.AllowedMentions}
	if rep.Private || data.Name == "register" || data.Name == "verify" {
		resp.Flags = discordgo.MessageFlagsEphemeral
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource, Data: resp}, discordgo.WithContext(ctx))
	if err != nil {
		b.Log.Warn("discord: interaction reply failed", slog.Any("err", err))
	}
}

// message turns a reply into Discord's message; mentions in it ping only
// the users the reply names in Mentions.
func message(r bot.Reply) *discordgo.MessageSend {
	m := &discordgo.MessageSend{Content: r.Text, AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{},
		Users: r.Mentions}}
	if e := r.Embed; e != nil {
		me := &discordgo.MessageEmbed{Title: e.Title, Description: e.Description, URL: e.URL, Color: e.Color}
		for _, f := range e.Fields {
			v := f.Value
			if strings.TrimSpace(v) == "" {
				v = "—"
			}
			me.Fields = append(me.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: v, Inline: f.Inline})
		}
		if e.Footer != "" {
			me.Footer = &discordgo.MessageEmbedFooter{Text: e.Footer}
		}
		m.Embeds = []*discordgo.MessageEmbed{me}
	}
	return m
}
