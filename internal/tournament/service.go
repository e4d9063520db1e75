package tournament

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Events on the registrations topic.
const (
	EventRegistered   = "player.registered"
	EventUnregistered = "player.unregistered"
	EventStatsUpdated = "stats.updated"
	EventStatus       = "tournament.status"
)

// Service applies the registration rules. Each change commits with its
// audit entry and its live event (core.Transactor, core.Outbox).
type Service struct {
	Store  Store
	Tx     core.Transactor
	Events core.Outbox
	Audit  core.AuditLog
	// Jobs closes check-in windows at their deadlines (CheckinDeadline).
	Jobs    core.Scheduler
	Default string // DEFAULT_TOURNAMENT
	// Now is the clock (time.Now).
	Now func() time.Time
	// OnComplete runs in the transaction that completes a tournament (the
	// season's awards); its refusal keeps the tournament open.
	OnComplete func(ctx context.Context, a core.Actor, t Tournament) error
	// OnAuction runs in the transaction that moves a tournament into its
	// auction phase (the captains' nomination turns start).
	OnAuction func(ctx context.Context, t Tournament) error
	// Images keeps the seasons' banners.
	Images Images
	// Staff keeps the tournaments' co-organisers.
	Staff StaffStore
	// OnWithdraw runs in the transaction that withdraws a player once the
	// registration is over: it frees their slot on a team (giving it to
	// replacement, when not 0) and names the team ("" for none).
	OnWithdraw func(ctx context.Context, a core.Actor, t Tournament, userID, replacement int64) (string, error)
	// Sanctions refuses the players a ban keeps out of a tournament
	// (internal/moderation); nil: none are.
	Sanctions core.Sanctions
}

func (s *Service) name(n string) string {
	if n == "" {
		return s.Default
	}
	return n
}

// Find returns the named tournament (the current one for "").
func (s *Service) Find(ctx context.Context, name string) (Tournament, error) {
	if name == "" {
		if t, err := s.Current(ctx); err == nil {
			return t, nil
		}
	}
	return s.Store.FindTournament(ctx, s.name(name))
}

// FindByID returns the tournament with id.
func (s *Service) FindByID(ctx context.Context, id int64) (Tournament, error) {
	return s.Store.FindTournamentByID(ctx, id)
}

// Register puts the signed-in player on the tournament's list: confirmed
// while it has a place and its check-in has not closed, else on its
// waitlist (Admission).
func (s *Service) Register(ctx context.Context, a core.Actor, name string) (Entry, error) {
	if err := a.MustBeUser(); err != nil {
		return Entry{}, err
	}
	var e Entry
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, places, err := s.lockRoster(ctx, a, name, Register)
		if err != nil {
			return err
		}
		if err := s.Store.Register(ctx, t.ID, a.UserID, Admission(t, places.Confirmed), s.now()); err != nil {
			return err
		}
		var p Player
		if p, e, err = s.cardAndEntry(ctx, t, a.UserID); err != nil {
			return err
		}
		switch {
		case e.Status == Confirmed:
			e.Message = MsgRegistered
		case t.Checkin.ClosedAt != nil:
			e.Message = fmt.Sprintf(MsgWaitlistAfter, t.Name, e.Place)
		default:
			e.Message = fmt.Sprintf(MsgWaitlistFull, t.Name, e.Place)
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventRegistered, map[string]any{"tournament": t.Name, "player": p})
		return err
	})
	return e, err
}

// Unregister takes the signed-in player off the list while registration
// is open; a confirmed place it frees goes to the first waiting player
// (PromotesInOrder).
func (s *Service) Unregister(ctx context.Context, a core.Actor, name string) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.lockRoster(ctx, a, name, Unregister)
		if err != nil {
			return err
		}
		was, err := s.Store.Unregister(ctx, t.ID, a.UserID)
		if err != nil {
			return err
		}
		if _, err = s.Events.Emit(ctx, core.TopicRegistrations, EventUnregistered, map[string]any{"tournament": t.Name, "id": a.UserID}); err != nil {
			return err
		}
		if was != Confirmed {
			return nil
		}
		return s.promoteInOrder(ctx, t)
	})
}

// IsRegistered reports the signed-in player's registration.
func (s *Service) IsRegistered(ctx context.Context, a core.Actor, name string) (bool, error) {
	if err := a.MustBeUser(); err != nil {
		return false, err
	}
	t, err := s.Find(ctx, name)
	if err != nil {
		return false, err
	}
	return s.Store.IsRegistered(ctx, t.ID, a.UserID)
}

// Roster is the public list of a tournament at one moment: every player on
// it (Count), confirmed or waiting, and its places.
type Roster struct {
	Tournament string   `json:"tournament"`
	Count      int      `json:"count"`
	Seq        int64    `json:"seq"`
	Players    []Player `json:"players"`
	Places
}

// Registrations reads the public list and the registrations topic's seq in
// one snapshot: a client that follows the topic from Seq misses nothing and
// sees nothing twice.
func (s *Service) Registrations(ctx context.Context, t Tournament) (Roster, error) {
	r := Roster{Tournament: t.Name}
	err := s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if r.Seq, err = s.Events.Seq(ctx, core.TopicRegistrations); err != nil {
			return err
		}
		if r.Players, err = s.Store.Registrations(ctx, t.ID); err != nil {
			return err
		}
		r.Places, err = s.Store.Places(ctx, t)
		return err
	})
	r.Count = len(r.Players)
	r.CheckinState = t.Checkin.State(s.now())
	return r, err
}

// Info is a tournament's public summary: its identity, Count players on its
// list, and its places.
type Info struct {
	Name             string `json:"name"`
	Status           string `json:"status"`
	RegistrationOpen bool   `json:"registration_open"`
	Count            int    `json:"count"`
	Identity
	Places
}

// Info summarises the named tournament.
func (s *Service) Info(ctx context.Context, name string) (Info, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return Info{}, err
	}
	places, err := s.Store.Places(ctx, t)
	places.CheckinState = t.Checkin.State(s.now())
	return Info{Name: t.Name, Status: t.Status, RegistrationOpen: t.RegistrationOpen(),
		Count: places.Confirmed + places.Waitlisted, Identity: t.Identity(), Places: places}, err
}

// Teams lists the tournament's teams.
func (s *Service) Teams(ctx context.Context, name string) (Tournament, []Team, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return t, nil, err
	}
	teams, err := s.Store.Teams(ctx, t.ID)
	return t, teams, err
}

// SetStatus moves a tournament to status (organisers only), as Moves
// allow: a move that would leave things incomplete (Verdict.Warnings) is
// made only with force, and its audit entry records the problems overridden.
func (s *Service) SetStatus(ctx context.Context, a core.Actor, name, status string, force bool) (Tournament, error) {
	if err := MayOrganise(a); err != nil {
		return Tournament{}, err
	}
	if !ValidStatus(status) {
		return Tournament{}, errs.E(errs.Invalid, "Status must be registration, auction, matches or completed")
	}
	var t Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		found, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := a.MustOrganise(found.ID); err != nil {
			return err
		}
		// Locked first, so a lot or a fixture made meanwhile waits for the move
		// and then sees the new phase.
		before, facts, err := s.Store.LockForMove(ctx, found.ID)
		if err != nil {
			return err
		}
		v, err := CheckMove(before, status, facts, force)
		if err != nil {
			return err
		}
		if t, err = s.Store.SetStatus(ctx, before.Name, status); err != nil {
			return err
		}
		if status == StatusCompleted && before.Status != StatusCompleted && s.OnComplete != nil {
			if err := s.OnComplete(ctx, a, t); err != nil {
				return err
			}
		}
		if status == StatusAuction && s.OnAuction != nil {
			if err := s.OnAuction(ctx, t); err != nil {
				return err
			}
		}
		data := map[string]any{"from": before.Status, "to": t.Status}
		if len(v.Warnings) > 0 {
			data["force"], data["problems"] = true, v.Warnings
		}
		if err := s.Audit.Record(ctx, a, core.ActionTournamentStatus, t.ID, t.Name, data); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventStatus,
			map[string]any{"tournament": t.Name, "status": t.Status, "registration_open": t.RegistrationOpen()})
		return err
	})
	return t, err
}

// Phase is where a season stands and the moves it could make now, each
// with what it would meet: the organisers' page offers a move only when
// the server would take it, and says why (or what forcing it overrides).
type Phase struct {
	Tournament string       `json:"tournament"`
	Status     string       `json:"status"`
	Moves      []MoveOption `json:"moves"`
}

// PhaseMoves is the named tournament's phase and its possible moves
// (organisers only), read at one moment.
func (s *Service) PhaseMoves(ctx context.Context, a core.Actor, name string) (Phase, error) {
	if err := MayOrganise(a); err != nil {
		return Phase{}, err
	}
	var p Phase
	err := s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		t, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return err
		}
		f, err := s.Store.MoveFacts(ctx, t)
		if err != nil {
			return err
		}
		p = Phase{Tournament: t.Name, Status: t.Status, Moves: Options(t, f)}
		return nil
	})
	return p, err
}

// PlayerChanged tells every list the player is on that their card changed
// (their stats or their Discord name). It joins the caller's transaction.
func (s *Service) PlayerChanged(ctx context.Context, userID int64) error {
	names, err := s.Store.TournamentsOf(ctx, userID)
	if err != nil {
		return err
	}
	for _, n := range names {
		t, err := s.Store.FindTournament(ctx, n)
		if err != nil {
			return err
		}
		p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if _, err := s.Events.Emit(ctx, core.TopicRegistrations, EventStatsUpdated, map[string]any{"tournament": t.Name, "player": p}); err != nil {
			return err
		}
	}
	return nil
}

// Summary is a tournament as the list of seasons shows it, with its
// identity.
type Summary struct {
	Tournament
	Identity
	Current bool `json:"current"`
}

// Tournaments lists every tournament, newest first, marking the current one.
func (s *Service) Tournaments(ctx context.Context) ([]Summary, error) {
	all, err := s.Store.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	cur := current(all, s.Default)
	out := make([]Summary, len(all))
	for i, t := range all {
		out[i] = Summary{Tournament: t, Identity: t.Identity(), Current: t.ID == cur.ID}
	}
	return out, nil
}

// Current is the tournament the site is about: DEFAULT_TOURNAMENT until it
// is completed, then the newest one not completed, else the newest.
func (s *Service) Current(ctx context.Context) (Tournament, error) {
	all, err := s.Store.Tournaments(ctx)
	if err != nil {
		return Tournament{}, err
	}
	if len(all) == 0 {
		return Tournament{}, ErrUnknown(s.Default)
	}
	return current(all, s.Default), nil
}

func current(all []Tournament, preferred string) Tournament {
	for _, t := range all {
		if t.Name == preferred && t.Status != StatusCompleted {
			return t
		}
	}
	for _, t := range all {
		if t.Status != StatusCompleted {
			return t
		}
	}
	if len(all) == 0 {
		return Tournament{}
	}
	return all[0]
}

// NewTournament is what an organiser gives to open a season.
type NewTournament struct {
	Name   string `json:"name"`
	Season int    `json:"season"`
	Purse  int    `json:"purse"`
}

// Create opens a new tournament for registration (organisers).
func (s *Service) Create(ctx context.Context, a core.Actor, in NewTournament) (Tournament, error) {
	if err := a.MustBeAdmin(); err != nil {
		return Tournament{}, err
	}
	name := strings.TrimSpace(in.Name)
	if !validName.MatchString(name) {
		return Tournament{}, errs.E(errs.Invalid, "A tournament's name is 2 to 24 letters, digits, dots or dashes (e.g. PPL8).")
	}
	if in.Purse == 0 {
		in.Purse = DefaultPurse
	}
	if in.Purse < 5500 || in.Purse > 100_000 {
		return Tournament{}, errs.E(errs.Invalid, "A purse is from 5500 (five players at 1100) to 100000 credits.")
	}
	if in.Season < 0 || in.Season > 10_000 {
		return Tournament{}, errs.E(errs.Invalid, "A season is a number from 1 to 10000.")
	}
	var t Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if t, err = s.Store.CreateTournament(ctx, Tournament{Name: name, Season: in.Season, Purse: in.Purse}); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionTournamentCreate, t.ID, t.Name,
			map[string]any{"season": t.Season, "purse": t.Purse}); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventStatus,
			map[string]any{"tournament": t.Name, "status": t.Status, "registration_open": t.RegistrationOpen()})
		return err
	})
	return t, err
}

// DefaultPurse is each team's credits unless an organiser says otherwise.
const DefaultPurse = 12_000

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]{1,23}$`)
