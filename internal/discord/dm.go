package discord

import (
	"context"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/notify"
)

// DMs sends the notifications players chose to Discord as DMs from the bot,
// over the REST API alone: any instance can, the gateway's leader or not.
type DMs struct {
	Session *discordgo.Session
}

var _ notify.DMer = DMs{}

// NewDMs sends DMs as the bot with token, through client (HTTPClient).
func NewDMs(token string, client *http.Client) (DMs, error) {
	s, err := NewSession(token, client)
	return DMs{Session: s}, err
}

// DM implements notify.DMer: it opens (or finds) the DM channel with the
// account and posts the notice there.
func (d DMs) DM(ctx context.Context, discordID string, m notify.Message) error {
	ch, err := d.Session.UserChannelCreate(discordID, discordgo.WithContext(ctx))
	if err != nil {
		return err
	}
	_, err = d.Session.ChannelMessageSendComplex(ch.ID, message(bot.NoticeReply(m)), discordgo.WithContext(ctx))
	return err
}
