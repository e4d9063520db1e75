package chat

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
)

// ActionDeleteMessage is audited when staff delete another's message.
const ActionDeleteMessage = "room.message_deleted"

// ActionSlowMode is audited when staff set a room's slow mode.
const ActionSlowMode = "room.slow_mode"

// MaxSlow is the longest slow mode, in seconds.
const MaxSlow = 3600

// Store keeps the rooms (postgres.Chat).
type Store interface {
	// Rooms are userID's rooms as a player or captain, and every room of
	// the tournaments in staffOf (all running ones when admin), with the
	// messages userID has not read; at most 200.
	Rooms(ctx context.Context, userID int64, staffOf []int64, admin bool) ([]Room, error)
	// Room is room id, NotFound when there is none.
	Room(ctx context.Context, id int64) (Room, error)
	// IsMember tells a player or captain of the room (the staff aside).
	IsMember(ctx context.Context, roomID, userID int64) (bool, error)
	// Messages are the room's messages older than before (0: the newest),
	// newest first, at most limit.
	Messages(ctx context.Context, roomID, before int64, limit int) ([]Message, error)
	AddMessage(ctx context.Context, m Message) (Message, error)
	// LockMessage reads a message of the room for a change; NotFound when
	// there is none (or it was deleted).
	LockMessage(ctx context.Context, roomID, id int64) (Message, error)
	EditMessage(ctx context.Context, id int64, text string) (Message, error)
	DeleteMessage(ctx context.Context, id, by int64) error
	MarkRead(ctx context.Context, roomID, userID, lastID int64) error
	// LastPost is when userID last posted in the room (zero: never).
	LastPost(ctx context.Context, roomID, userID int64) (time.Time, error)
	SetSlowMode(ctx context.Context, roomID int64, seconds int) error
	// MembersNamed are the room's players and captains shown under one of
	// names (lower-case), for mentions.
	MembersNamed(ctx context.Context, roomID int64, names []string) ([]int64, error)
}

// Service runs the rooms.
type Service struct {
	Store  Store
	Tx     core.Transactor
	Events core.Outbox
	Audit  core.AuditLog
	// Sanctions refuses muted and banned players (nil: none are).
	Sanctions core.Sanctions
	// Pace counts a member's message against Burst per Window across
	// instances; nil: no limit.
	Pace func(ctx context.Context, userID int64) time.Duration
	// Mentioned tells a member they were mentioned, by the channels they
	// chose (internal/notify), in the message's transaction; nil: nobody is.
	Mentioned func(ctx context.Context, userID int64, key, title, body, path string) error
	// Now is the clock (time.Now).
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// staffOf are the tournaments a co-organises.
func staffOf(a core.Actor) []int64 {
	ids := make([]int64, 0, len(a.Staff))
	for _, g := range a.Staff {
		ids = append(ids, g.TournamentID)
	}
	return ids
}

// Rooms are the caller's rooms with their unread counts.
func (s *Service) Rooms(ctx context.Context, a core.Actor) ([]Room, error) {
	if err := a.MustBeUser(); err != nil {
		return nil, err
	}
	return s.Store.Rooms(ctx, a.UserID, staffOf(a), a.Admin)
}

// MsgNotMember refuses the room to whoever is not in it.
const MsgNotMember = "This room is for its team's players (a match room: both captains) and the tournament's staff."

// member is the room if a may be in it (as a player or captain, or staff:
// staff says which) for act.
func (s *Service) member(ctx context.Context, a core.Actor, id int64, act Action) (r Room, staff bool, err error) {
	if err := a.MustBeUser(); err != nil {
		return r, false, err
	}
	if r, err = s.Store.Room(ctx, id); err != nil {
		return r, false, err
	}
	staff = a.Organises(r.TournamentID)
	if !staff {
		ok, err := s.Store.IsMember(ctx, id, a.UserID)
		if err != nil {
			return r, false, err
		}
		if !ok {
			return r, false, errs.E(errs.Forbidden, MsgNotMember)
		}
	}
	return r, staff, allows(act, r.Status)
}

// Guard lets the live layer refuse a room's topic to whoever is not in it.
func (s *Service) Guard(ctx context.Context, a core.Actor, topic string) error {
	id := core.RoomOfTopic(topic)
	if id == 0 {
		return nil
	}
	_, _, err := s.member(ctx, a, id, Read)
	return err
}

// Page is a page of a room's history, newest first, at the topic's Seq
// (follow the topic from it to miss nothing); Next is the cursor of older
// messages, "" at the start of the room.
type Page struct {
	Room     Room      `json:"room"`
	Seq      int64     `json:"seq"`
	Messages []Message `json:"messages"`
	Next     string    `json:"next,omitempty"`
}

// History reads a page of the room; the first page marks the room read.
func (s *Service) History(ctx context.Context, a core.Actor, id int64, cursor string) (Page, error) {
	r, _, err := s.member(ctx, a, id, Read)
	if err != nil {
		return Page{}, err
	}
	key, err := paging.Decode(cursor)
	if err != nil {
		return Page{}, err
	}
	var before int64
	if key != nil {
		before = key.ID
	}
	p := Page{Room: r}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if p.Seq, err = s.Events.Seq(ctx, core.RoomTopic(id)); err != nil {
			return err
		}
		p.Messages, err = s.Store.Messages(ctx, id, before, PageSize+1)
		return err
	})
	if err != nil {
		return Page{}, err
	}
	if len(p.Messages) > PageSize {
		p.Messages = p.Messages[:PageSize]
		p.Next = paging.Key{ID: p.Messages[PageSize-1].ID}.Encode()
	}
	if before == 0 && len(p.Messages) > 0 {
		if err := s.Store.MarkRead(ctx, id, a.UserID, p.Messages[0].ID); err != nil {
			return Page{}, err
		}
		p.Room.Unread = 0
	}
	return p, nil
}

// Post says text in the room: a member, not muted or banned there, within
// the room's pace and slow mode. Members mentioned (@name) are told.
func (s *Service) Post(ctx context.Context, a core.Actor, id int64, text string) (Message, error) {
	r, staff, err := s.member(ctx, a, id, Post)
	if err != nil {
		return Message{}, err
	}
	if text, err = clean(text); err != nil {
		return Message{}, err
	}
	if s.Sanctions != nil {
		if err := s.Sanctions.MaySpeak(ctx, a.UserID, r.TournamentID); err != nil {
			return Message{}, err
		}
	}
	if r.SlowSeconds > 0 && !staff {
		last, err := s.Store.LastPost(ctx, id, a.UserID)
		if err != nil {
			return Message{}, err
		}
		if wait := last.Add(time.Duration(r.SlowSeconds) * time.Second).Sub(s.now()); wait > 0 {
			return Message{}, errs.Limited(int(wait/time.Second)+1, "Slow mode: one message every %d seconds in this room.", r.SlowSeconds)
		}
	}
	if s.Pace != nil {
		if wait := s.Pace(ctx, a.UserID); wait > 0 {
			return Message{}, errs.Limited(int(wait/time.Second)+1, "Slow down: at most %d messages every %d seconds.", Burst, int(Window.Seconds()))
		}
	}
	uid := a.UserID
	var m Message
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if m, err = s.Store.AddMessage(ctx, Message{RoomID: id, UserID: &uid, Author: a.Name, Text: text}); err != nil {
			return err
		}
		if _, err := s.Events.Emit(ctx, core.RoomTopic(id), EventMessage, map[string]any{"room": id, "message": m}); err != nil {
			return err
		}
		if err := s.Store.MarkRead(ctx, id, a.UserID, m.ID); err != nil {
			return err
		}
		return s.mention(ctx, a, r, m)
	})
	return m, err
}

// mention tells the members m names, but its author.
func (s *Service) mention(ctx context.Context, a core.Actor, r Room, m Message) error {
	names := Mentions(m.Text)
	if s.Mentioned == nil || len(names) == 0 {
		return nil
	}
	users, err := s.Store.MembersNamed(ctx, r.ID, names)
	if err != nil {
		return err
	}
	for _, u := range users {
		if u == a.UserID {
			continue
		}
		key := "mention:" + strconv.FormatInt(m.ID, 10)
		title := fmt.Sprintf("%s mentioned you in %s", a.Name, r.Title)
		if err := s.Mentioned(ctx, u, key, title, m.Text, "/rooms/"+strconv.FormatInt(r.ID, 10)); err != nil {
			return err
		}
	}
	return nil
}

// own refuses a change to m by anyone but its author within EditWindow.
func (s *Service) own(a core.Actor, m Message, what string) error {
	if m.UserID == nil || *m.UserID != a.UserID {
		return errs.E(errs.Forbidden, "Only its author may %s a message.", what)
	}
	if s.now().Sub(m.At) > EditWindow {
		return errs.E(errs.Forbidden, "Your messages may be changed or deleted within %d minutes of being sent.", int(EditWindow.Minutes()))
	}
	return nil
}

// Edit changes the caller's own message within EditWindow; the change is
// sent again as EventMessage.
func (s *Service) Edit(ctx context.Context, a core.Actor, id, mid int64, text string) (Message, error) {
	if _, _, err := s.member(ctx, a, id, Post); err != nil {
		return Message{}, err
	}
	text, err := clean(text)
	if err != nil {
		return Message{}, err
	}
	var m Message
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		cur, err := s.Store.LockMessage(ctx, id, mid)
		if err != nil {
			return err
		}
		if err := s.own(a, cur, "edit"); err != nil {
			return err
		}
		if m, err = s.Store.EditMessage(ctx, mid, text); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.RoomTopic(id), EventMessage, map[string]any{"room": id, "message": m})
		return err
	})
	return m, err
}

// Delete takes a message out of the room: its author within EditWindow,
// the staff any time (audited).
func (s *Service) Delete(ctx context.Context, a core.Actor, id, mid int64) error {
	r, staff, err := s.member(ctx, a, id, Read)
	if err != nil {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		cur, err := s.Store.LockMessage(ctx, id, mid)
		if err != nil {
			return err
		}
		mine := cur.UserID != nil && *cur.UserID == a.UserID
		if !staff || mine {
			if err := s.own(a, cur, "delete"); err != nil {
				return err
			}
		}
		if err := s.Store.DeleteMessage(ctx, mid, a.UserID); err != nil {
			return err
		}
		if staff && !mine {
			data := map[string]any{"room": id, "message": mid, "text": cur.Text, "author": cur.UserID}
			if err := s.Audit.Record(ctx, a, ActionDeleteMessage, r.TournamentID, "room "+r.Title, data); err != nil {
				return err
			}
		}
		_, err = s.Events.Emit(ctx, core.RoomTopic(id), EventDeleted, map[string]any{"room": id, "id": mid})
		return err
	})
}

// SetSlowMode sets how long each member waits between two messages in the
// room (0: off); the staff's, audited.
func (s *Service) SetSlowMode(ctx context.Context, a core.Actor, id int64, seconds int) (Room, error) {
	r, staff, err := s.member(ctx, a, id, Read)
	if err != nil {
		return r, err
	}
	if !staff {
		return r, errs.E(errs.Forbidden, "Only the tournament's staff set a room's slow mode.")
	}
	if seconds < 0 || seconds > MaxSlow {
		return r, errs.E(errs.Invalid, "seconds must be from 0 (off) to %d", MaxSlow)
	}
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		if err := s.Store.SetSlowMode(ctx, id, seconds); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionSlowMode, r.TournamentID, "room "+r.Title, map[string]any{"room": id, "seconds": seconds})
	})
	r.SlowSeconds = seconds
	return r, err
}
