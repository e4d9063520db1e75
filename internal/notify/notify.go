// Package notify tells players of what concerns them, as each chose: per
// kind (their match set or moved, a report waiting for their answer, a
// dispute ruled, their lot up, outbid, bought) and per channel (Web Push to
// their browsers, a Discord DM from the bot). The league's events in the
// outbox are its source: an event a player may hear of schedules a Fanout
// with it (Outbox), the Fanout writes one delivery per player, channel and
// device under a key naming what it tells of (so a player hears of a thing
// once however often it is read), and each delivery is a Send job, retried
// with backoff until the channel takes it. Every message carries a link
// that turns its kind off without signing in.
package notify

import (
	"context"
	"errors"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// Kinds a player may choose.
const (
	KindMatchTime     = "match_time"     // a match of theirs ready, set or moved, and about to start
	KindReportWaiting = "report_waiting" // the other side reported: confirm or dispute
	KindDisputeRuled  = "dispute_ruled"  // an organiser ruled on a disputed match
	KindLotUp         = "lot_up"         // their own lot opened in the auction
	KindOutbid        = "outbid"         // a captain's high bid was beaten
	KindBought        = "bought"         // a team bought them
	// KindReminder is an organiser's reminder of a step left to take (its
	// e-mails are on until the player turns reminders off).
	KindReminder = "reminder"
	// KindMention is a member of a team or match room naming them (@name).
	KindMention = "mention"
)

// Kinds lists every kind, in the order the profile shows them, with its label.
var Kinds = []struct{ Kind, Label string }{
	{KindMatchTime, "My match is ready or rescheduled"},
	{KindReportWaiting, "A report waits for my confirmation"},
	{KindDisputeRuled, "A dispute of my match was ruled"},
	{KindLotUp, "My lot is up in the auction"},
	{KindOutbid, "I was outbid (captains)"},
	{KindBought, "A team bought me"},
	{KindReminder, "An organiser reminds me of a step left to take"},
	{KindMention, "Someone mentions me in a team or match room"},
}

// Channels a message goes by.
const (
	ChannelPush    = "push"
	ChannelDiscord = "discord"
)

func knownKind(kind string) bool {
	for _, k := range Kinds {
		if k.Kind == kind {
			return true
		}
	}
	return false
}

// Message is what a channel carries.
type Message struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the page it is about, on the site.
	URL string `json:"url"`
	// Tag lets a browser replace an older message about the same thing.
	Tag string `json:"tag"`
	// Unsubscribe turns this kind off for its player, without signing in.
	Unsubscribe string `json:"unsubscribe"`
}

// Device is one browser's push subscription.
type Device struct {
	ID       int64  `json:"-"`
	UserID   int64  `json:"-"`
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// ErrGone is a push service's answer that a subscription no longer exists
// (404 or 410): the device is forgotten, not retried.
var ErrGone = errors.New("notify: subscription gone")

// Pusher sends a Web Push message to a device (internal/push).
type Pusher interface {
	Push(ctx context.Context, d Device, m Message) error
}

// DMer sends a Discord DM to a Discord account (internal/discord).
type DMer interface {
	DM(ctx context.Context, discordID string, m Message) error
}

// Delivery is one message to one player on one channel (and device).
type Delivery struct {
	ID      int64
	Key     string
	UserID  int64
	Channel string
	Target  string // the push device's id, or the Discord account's id
	Kind    string
	Title   string
	Body    string
	URL     string
	SentAt  *time.Time
}

// Recipient is what a player chose for a kind and where they can be reached.
type Recipient struct {
	UserID    int64
	Push      bool
	Discord   bool
	DiscordID string  // "" when not linked
	Devices   []int64 // push devices' ids
}

// Store keeps choices, devices and deliveries (internal/postgres).
type Store interface {
	Choices(ctx context.Context, userID int64) (map[string]map[string]bool, error)
	SetChoices(ctx context.Context, userID int64, on map[string]map[string]bool) error
	// TurnOff turns kind off on every channel; for KindReminder, the
	// reminder e-mails too.
	TurnOff(ctx context.Context, userID int64, kind string) error
	DiscordID(ctx context.Context, userID int64) (string, error)
	CountDevices(ctx context.Context, userID int64) (int, error)
	// AddDevice keeps d, or updates the row of its endpoint when it is d's
	// user's or holds d's keys; Conflict when the endpoint is another
	// account's with other keys.
	AddDevice(ctx context.Context, d Device) error
	RemoveDevice(ctx context.Context, userID int64, endpoint string) error
	Device(ctx context.Context, id int64) (Device, error)
	DropDevice(ctx context.Context, id int64) error

	// Event is the outbox's event (false when pruned since).
	Event(ctx context.Context, topic string, seq int64) (core.Event, bool, error)
	Recipient(ctx context.Context, userID int64, kind string) (Recipient, error)
	// AddDelivery writes d unless its (key, player, channel, target) was
	// written before, and tells which.
	AddDelivery(ctx context.Context, d Delivery) (id int64, created bool, err error)
	Delivery(ctx context.Context, id int64) (Delivery, error)
	MarkSent(ctx context.Context, id int64) error
}

// Directory answers who a notice goes to (internal/postgres).
type Directory interface {
	// Captain is the user captaining team (a letter) in the tournament, or 0.
	Captain(ctx context.Context, tournament, team string) (int64, error)
	// BeatenTeam is the team whose bid on the lot was the highest below
	// amount, or "".
	BeatenTeam(ctx context.Context, lot int64, amount int) (string, error)
}
