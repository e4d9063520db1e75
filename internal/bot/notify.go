// A notification a player chose, as the bot DMs it.

package bot

import "github.com/pitlane/pitlane/internal/notify"

// NoticeReply is m as a DM: an embed linking to the page it is about, and
// the link that turns its kind off.
func NoticeReply(m notify.Message) Reply {
	return Reply{Private: true, Embed: &Embed{
		Title:       m.Title,
		Description: m.Body,
		URL:         m.URL,
		Color:       0xE10600,
		Fields:      []Field{{Name: "Stop these", Value: "[Turn this kind of notification off](" + m.Unsubscribe + ")"}},
		Footer:      "You chose this notification on your Pitlane profile.",
	}}
}
