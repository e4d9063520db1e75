// Package chat holds the team rooms: a private room per team per season
// (its captain, its players and the tournament's staff) and a room per
// match (both sides' captains and the staff). Messages are plain text, kept
// in PostgreSQL and pushed live on the room's topic (core.RoomTopic), which
// only members may follow. Who is a member is read from the teams and
// matches as they are now, so a withdrawn player is out of the room at
// once. Not to be confused with package room, the captains room of a
// whole tournament.
package chat

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Limits of the rooms.
const (
	MaxLength  = 1000            // characters a message
	PageSize   = 50              // messages a page of history
	EditWindow = 5 * time.Minute // an author edits or deletes their own message this long
	// Burst messages per Window per member (ratelimit.ChatUser), besides a
	// room's slow mode.
	Burst  = 10
	Window = 10 * time.Second
)

// Live events on a room's topic. An edit is sent as EventMessage again,
// with edited_at set: clients replace the message of that id.
const (
	EventMessage = "room.message"
	EventDeleted = "room.message.deleted"
)

// Room kinds.
const (
	TeamRoom  = "team"
	MatchRoom = "match"
)

// Action is a thing done in a room.
type Action string

// The actions of a room.
const (
	Read Action = "read"
	Post Action = "post"
)

// phases are, per action, the tournament phases it may run in: a room
// opens with its teams (the auction names them) and falls silent once the
// season is completed, its history still readable.
var phases = map[Action][]string{
	Read: {tournament.StatusAuction, tournament.StatusMatches, tournament.StatusCompleted},
	Post: {tournament.StatusAuction, tournament.StatusMatches},
}

// allows refuses act in a tournament's phase it may not run in.
func allows(act Action, status string) error {
	if slices.Contains(phases[act], status) {
		return nil
	}
	if act == Post && status == tournament.StatusCompleted {
		return errs.E(errs.Conflict, "The season is over: its rooms are closed.")
	}
	return errs.E(errs.Conflict, "The rooms open with the teams, at the auction.")
}

// Room is one room as its member sees it.
type Room struct {
	ID           int64      `json:"id"`
	Kind         string     `json:"kind"`
	Tournament   string     `json:"tournament"`
	Title        string     `json:"title"`
	Team         string     `json:"team,omitempty"` // a team room's letter
	MatchID      int64      `json:"match_id,omitempty"`
	SlowSeconds  int        `json:"slow_seconds"`
	Unread       int        `json:"unread"`
	LastAt       *time.Time `json:"last_at"`
	Status       string     `json:"-"` // the tournament's phase
	TournamentID int64      `json:"-"`
}

// Message is one message of a room. A deleted one is not shown.
type Message struct {
	ID       int64      `json:"id"`
	RoomID   int64      `json:"room_id"`
	UserID   *int64     `json:"user_id"` // nil once the author's account is deleted
	Author   string     `json:"author"`
	Text     string     `json:"text"`
	At       time.Time  `json:"at"`
	EditedAt *time.Time `json:"edited_at"`
}

// clean checks a message's text: plain text (links are shown as text,
// never as HTML), not empty, at most MaxLength characters.
func clean(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", errs.E(errs.Invalid, "Say something: the message is empty.")
	case utf8.RuneCountInString(text) > MaxLength:
		return "", errs.E(errs.Invalid, "A message is at most %d characters.", MaxLength)
	case strings.IndexFunc(text, func(r rune) bool { return !unicode.IsPrint(r) && r != '\n' }) >= 0:
		return "", errs.E(errs.Invalid, "Messages are plain text.")
	}
	return text, nil
}

// Mentions are the names text mentions (@name), lower-cased, each once.
func Mentions(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ':' || r == ';' || r == '!' || r == '?'
	}) {
		name, ok := strings.CutPrefix(f, "@")
		name = strings.ToLower(strings.TrimRight(name, "."))
		if ok && name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
