package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/pitlane/pitlane/internal/bot"
)

// ThreadArchiveAfter is how long a quiet match thread stays open before
// Discord archives it by itself (minutes: a week).
const ThreadArchiveAfter = 10080

// MatchThreads opens the matches' threads in one channel (bot.Threads).
type MatchThreads struct {
	Session   *discordgo.Session
	ChannelID string
}

// Open implements bot.Threads: a public thread, then its first message.
func (t MatchThreads) Open(ctx context.Context, name string, first bot.Reply) (string, error) {
	ch, err := t.Session.ThreadStart(t.ChannelID, name, discordgo.ChannelTypeGuildPublicThread, ThreadArchiveAfter, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	return ch.ID, t.Post(ctx, ch.ID, first)
}

// Post implements bot.Threads.
func (t MatchThreads) Post(ctx context.Context, threadID string, r bot.Reply) error {
	_, err := t.Session.ChannelMessageSendComplex(threadID, message(r), discordgo.WithContext(ctx))
	return err
}

// Archive implements bot.Threads.
func (t MatchThreads) Archive(ctx context.Context, threadID string) error {
	archived := true
	_, err := t.Session.ChannelEditComplex(threadID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(ctx))
	return err
}
