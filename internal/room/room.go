// Package room holds the captains room: a chat for the captains and
// organisers of a tournament, kept with its history, pushed live on the
// tournament's captains topic (core.CaptainsTopic), limited in length and rate.
package room

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Limits of the room.
const (
	MaxLength = 500 // characters a message
	History   = 100 // messages a newcomer is shown
	// Burst messages at most per Window per member.
	Burst  = 5
	Window = 10 * time.Second
)

// EventMessage is emitted on the tournament's captains topic.
const EventMessage = "room.message"

// Message is one line of the room.
type Message struct {
	ID     int64     `json:"id"`
	Author string    `json:"author"`
	UserID int64     `json:"user_id"`
	Role   string    `json:"role"` // captain (with team) or admin
	Team   string    `json:"team,omitempty"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// Store keeps the room's messages.
type Store interface {
	AddMessage(ctx context.Context, tournamentID int64, m Message) (Message, error)
	// Messages are the newest n, oldest first.
	Messages(ctx context.Context, tournamentID int64, n int) ([]Message, error)
}

// Tournaments finds a tournament by name.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Service runs the room.
type Service struct {
	Store       Store
	Tournaments Tournaments
	Tx          core.Transactor
	Events      core.Outbox
	// Pace counts a member's message against Burst per Window, shared by
	// every instance (the rate limits' counters), and says how long to wait
	// when it is over; nil: no limit.
	Pace func(ctx context.Context, userID int64) (wait time.Duration)
	// Sanctions refuses a muted or banned member (internal/moderation);
	// nil: none are.
	Sanctions core.Sanctions
}

// View is the room's history at its topic's seq.
type View struct {
	Tournament string    `json:"tournament"`
	Seq        int64     `json:"seq"`
	Messages   []Message `json:"messages"`
}

// member checks the actor may be in the room of t: its captains and the
// organisers.
func member(a core.Actor, t tournament.Tournament) (role, team string, err error) {
	if err := a.MustBeUser(); err != nil {
		return "", "", err
	}
	if a.Organises(t.ID) {
		return core.RoleAdmin, "", nil
	}
	if team, ok := a.CaptainOf(t.ID); ok {
		return core.RoleCaptain, team, nil
	}
	return "", "", errs.E(errs.Forbidden, "The captains room is for the captains and organisers of %s.", t.Name)
}

// History returns the newest messages, for a member joining the room.
func (s *Service) History(ctx context.Context, a core.Actor, name string) (View, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return View{}, err
	}
	if _, _, err := member(a, t); err != nil {
		return View{}, err
	}
	v := View{Tournament: t.Name}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if v.Seq, err = s.Events.Seq(ctx, core.CaptainsTopic(t.Name)); err != nil {
			return err
		}
		v.Messages, err = s.Store.Messages(ctx, t.ID, History)
		return err
	})
	return v, err
}

// Post says text in the room: plain text, at most MaxLength characters,
// at most Burst messages per Window per member.
func (s *Service) Post(ctx context.Context, a core.Actor, name, text string) (Message, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Message{}, err
	}
	role, team, err := member(a, t)
	if err != nil {
		return Message{}, err
	}
	if err := t.Allows(tournament.TalkInRoom); err != nil {
		return Message{}, err
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return Message{}, errs.E(errs.Invalid, "Say something: the message is empty.")
	case utf8.RuneCountInString(text) > MaxLength:
		return Message{}, errs.E(errs.Invalid, "A message is at most %d characters.", MaxLength)
	case strings.IndexFunc(text, func(r rune) bool { return !unicode.IsPrint(r) && r != '\n' }) >= 0:
		return Message{}, errs.E(errs.Invalid, "Messages are plain text.")
	}
	if s.Sanctions != nil {
		if err := s.Sanctions.MaySpeak(ctx, a.UserID, t.ID); err != nil {
			return Message{}, err
		}
	}
	if wait := s.pace(ctx, a.UserID); wait > 0 {
		secs := int(wait/time.Second) + 1
		return Message{}, errs.Limited(secs, "Slow down: at most %d messages every %d seconds.", Burst, int(Window.Seconds()))
	}
	var m Message
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		m, err = s.Store.AddMessage(ctx, t.ID, Message{Author: a.Name, UserID: a.UserID, Role: role, Team: team, Text: text})
		if err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.CaptainsTopic(t.Name), EventMessage, map[string]any{"tournament": t.Name, "message": m})
		return err
	})
	return m, err
}

func (s *Service) pace(ctx context.Context, userID int64) time.Duration {
	if s.Pace == nil {
		return 0
	}
	return s.Pace(ctx, userID)
}
