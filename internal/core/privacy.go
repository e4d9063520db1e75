package core

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
)

// A player may hide their profile. Hidden means the name alone wherever
// anyone but the player reads them: every list and page of the league (the
// registrations of every season and their search, the auction, the rosters,
// the team pages, the boards, the bot's answers) and every live event,
// those the live layer replays included. The league's own record of them
// stays beside the name: their registration (its status and check-in), the
// tier the league gave them (it sets their auction's prices), their team,
// their price and their match lines. Organisers see what everyone sees:
// the league's pages are shown on streams, and running a season takes the
// name and the tier, not the figures behind them. Only the player sees the
// rest, on their own pages.

// Card is a player as a read or a live event shows them.
type Card interface {
	// Whose is the player's account and whether their profile is hidden.
	Whose() (userID int64, hidden bool)
	// NameOnly leaves the card its name and the league's own record.
	NameOnly()
}

// Public is who reads what is the same for everyone: the public lists and
// pages, cached once for all, and the live events.
var Public = Actor{}

// ShowCard leaves c as viewer may see it: whole when its profile is shown
// or it is the viewer's own, else its name alone.
func ShowCard(viewer Actor, c Card) {
	if id, hidden := c.Whose(); hidden && (id == 0 || viewer.UserID != id) {
		c.NameOnly()
	}
}

// ShowCards is ShowCard for every card of cs.
func ShowCards[T any, P interface {
	*T
	Card
}](viewer Actor, cs []T) {
	for i := range cs {
		ShowCard(viewer, P(&cs[i]))
	}
}

// What the live layer keeps of the past: the outbox keeps each event a day
// after its delivery, and the live layer replays the last of each topic to
// a client that comes back. A profile hidden or an account erased is
// redacted from both: in the outbox at once, and the live layer forgets
// the events from before (a client behind them reloads the pages, which
// show the card as it is now).

// EventHistory redacts a player from the events kept.
type EventHistory interface {
	// Redact rewrites player userID's cards in the kept events as
	// RedactEvent does, in the caller's transaction, and has the live
	// layer forget its history up to now once it is delivered. With a
	// pseudonym (an erased account) the name goes too, and so do the
	// events of the player's own topic.
	Redact(ctx context.Context, userID int64, pseudonym string) error
}

// HistoryKeeper is the live layer's bounded history of each topic.
type HistoryKeeper interface {
	// Forget drops the topic's events up to seq through; the topic's seq
	// stays, so a client behind them is told to reload.
	Forget(ctx context.Context, topic string, through int64) error
}

// RedactEvent rewrites, in a live event's data, every card of player
// userID as its NameOnly leaves it, and with a pseudonym puts that in
// place of the name too. A card is an object that names the player by
// "user_id", or a registration card (it has an "s_id") by "id". It
// reports whether anything changed.
func RedactEvent(data []byte, userID int64, pseudonym string) ([]byte, bool, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return data, false, err
	}
	r := redactor{id: json.Number(strconv.FormatInt(userID, 10)), pseudonym: pseudonym}
	r.walk(v)
	if !r.changed {
		return data, false, nil
	}
	out, err := json.Marshal(v)
	return out, err == nil, err
}

type redactor struct {
	id        json.Number
	pseudonym string
	changed   bool
}

// The keys each card shape keeps out of a hidden card, and the value
// NameOnly leaves in them (TestRedactEventIsNameOnly holds the two alike).
var (
	registrationCard = map[string]any{"image": nil, "cart_image": nil, "s_id": "N/A", "kd": 0, "kills": 0, "deaths": 0,
		"games_played": 0, "level": 0, "description": "", "discord_id": "", "is_discord_verified": false,
		"stats_verified": false, "badges": []any{}}
	auctionCard = map[string]any{"image": nil, "kd": 0, "games_played": 0, "level": 0}
	rosterCard  = map[string]any{"image": nil}
)

func (r *redactor) walk(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			r.walk(x)
		}
	case map[string]any:
		for _, x := range v {
			r.walk(x)
		}
		_, registration := v["s_id"]
		if v["user_id"] != r.id && !(registration && v["id"] == r.id) {
			return
		}
		var drop map[string]any
		switch _, auction := v["kd"]; {
		case registration:
			drop = registrationCard
		case auction:
			drop = auctionCard
		default:
			if _, pictured := v["image"]; pictured {
				drop = rosterCard
			}
		}
		for k, zero := range drop {
			if _, ok := v[k]; ok {
				v[k] = zero
			}
		}
		if drop != nil {
			v["hidden"] = true
			r.changed = true
		}
		if r.pseudonym != "" {
			for _, k := range []string{"name", "author"} {
				if _, ok := v[k]; ok {
					v[k] = r.pseudonym
					r.changed = true
				}
			}
		}
	}
}
