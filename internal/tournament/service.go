package tournament

import (
	"context"

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
	Store   Store
	Tx      core.Transactor
	Events  core.Outbox
	Audit   core.AuditLog
	Default string // DEFAULT_TOURNAMENT
}

func (s *Service) name(n string) string {
	if n == "" {
		return s.Default
	}
	return n
}

// Find returns the named tournament (the default for "").
func (s *Service) Find(ctx context.Context, name string) (Tournament, error) {
	return s.Store.FindTournament(ctx, s.name(name))
}

// FindByID returns the tournament with id.
func (s *Service) FindByID(ctx context.Context, id int64) (Tournament, error) {
	return s.Store.FindTournamentByID(ctx, id)
}

// Register puts the signed-in player on the tournament's list.
func (s *Service) Register(ctx context.Context, a core.Actor, name string) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		if !t.RegistrationOpen() {
			return errs.E(errs.Conflict, "Registration for %s is closed.", t.Name)
		}
		if err := s.Store.Register(ctx, t.ID, a.UserID); err != nil {
			return err
		}
		p, err := s.Store.RegisteredPlayer(ctx, t.ID, a.UserID)
		if err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventRegistered, map[string]any{"tournament": t.Name, "player": p})
		return err
	})
}

// Unregister takes the signed-in player off the list while registration is open.
func (s *Service) Unregister(ctx context.Context, a core.Actor, name string) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		if !t.RegistrationOpen() {
			return errs.E(errs.Conflict, "Registration for %s is closed; ask an organiser to withdraw you.", t.Name)
		}
		if err := s.Store.Unregister(ctx, t.ID, a.UserID); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventUnregistered, map[string]any{"tournament": t.Name, "id": a.UserID})
		return err
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

// Roster is the public list of a tournament at one moment.
type Roster struct {
	Tournament string   `json:"tournament"`
	Count      int      `json:"count"`
	Seq        int64    `json:"seq"`
	Players    []Player `json:"players"`
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
		r.Players, err = s.Store.Registrations(ctx, t.ID)
		return err
	})
	r.Count = len(r.Players)
	return r, err
}

// Info is a tournament's public summary.
type Info struct {
	Name             string `json:"name"`
	Status           string `json:"status"`
	RegistrationOpen bool   `json:"registration_open"`
	Count            int    `json:"count"`
}

// Info summarises the named tournament.
func (s *Service) Info(ctx context.Context, name string) (Info, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return Info{}, err
	}
	n, err := s.Store.CountRegistrations(ctx, t.ID)
	return Info{Name: t.Name, Status: t.Status, RegistrationOpen: t.RegistrationOpen(), Count: n}, err
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

// SetStatus moves a tournament to status (organisers only).
func (s *Service) SetStatus(ctx context.Context, a core.Actor, name, status string) (Tournament, error) {
	if err := a.MustBeAdmin(); err != nil {
		return Tournament{}, err
	}
	if !ValidStatus(status) {
		return Tournament{}, errs.E(errs.Invalid, "Status must be registration, auction, matches or completed")
	}
	var t Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		before, err := s.Find(ctx, name)
		if err != nil {
			return err
		}
		if t, err = s.Store.SetStatus(ctx, before.Name, status); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionTournamentStatus, t.ID, t.Name,
			map[string]string{"from": before.Status, "to": t.Status}); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventStatus,
			map[string]any{"tournament": t.Name, "status": t.Status, "registration_open": t.RegistrationOpen()})
		return err
	})
	return t, err
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
