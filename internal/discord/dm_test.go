package discord_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/notify"
)

// A notification by DM: the bot opens the DM channel with the player's
// Discord account and posts the notice there, with its page and the link
// that turns its kind off.
func TestNotificationByDM(t *testing.T) {
	f := newFakeDiscord(t)
	client, err := discord.HTTPClient(f.URL + "/api")
	if err != nil {
		t.Fatal(err)
	}
	dms, err := discord.NewDMs("bot-token", client)
	if err != nil {
		t.Fatal(err)
	}
	m := notify.Message{Kind: notify.KindReportWaiting, Title: "Match 3: Alpha v Bravo", Body: "Team B reported the result.",
		URL: "https://league.example/matches/3", Unsubscribe: "https://league.example/notifications/off?token=7.report_waiting.x"}
	if err := dms.DM(context.Background(), "123456789", m); err != nil {
		t.Fatal(err)
	}
	open := f.waitFor(t, "the DM channel opened", func(c recorded) bool { return c.Path == "/users/@me/channels" })
	if open.Body["recipient_id"] != "123456789" || open.Auth != "Bot bot-token" {
		t.Fatalf("DM channel request %+v", open)
	}
	post := f.waitFor(t, "the DM posted", func(c recorded) bool { return c.Path == "/channels/dm-channel/messages" })
	embed := post.Body["embeds"].([]any)[0].(map[string]any)
	fields := embed["fields"].([]any)
	if embed["title"] != m.Title || embed["description"] != m.Body || embed["url"] != m.URL ||
		!strings.Contains(fields[0].(map[string]any)["value"].(string), m.Unsubscribe) {
		t.Fatalf("DM %+v", post.Body)
	}
}
