package tournament

import (
	"context"
	"log/slog"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/hub"
)

// Events on the registrations topic.
const (
	EventRegistered   = "player.registered"
	EventUnregistered = "player.unregistered"
	EventStatsUpdated = "stats.updated"
)

// Service applies the registration rules and publishes their events.
type Service struct {
	Store   Store
	Pub     hub.Publisher
	Default string // DEFAULT_TOURNAMENT
	Log     *slog.Logger
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

// Register puts the user on the tournament's list.
func (s *Service) Register(ctx context.Context, userID int64, name string) error {
	t, err := s.Find(ctx, name)
	if err != nil {
		return err
	}
	if !t.RegistrationOpen() {
		return errs.E(errs.Conflict, "Registration for %s is closed.", t.Name)
	}
	if err := s.Store.Register(ctx, t.ID, userID); err != nil {
		return err
	}
	if p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID); err == nil {
		s.publish(ctx, EventRegistered, map[string]any{"tournament": t.Name, "player": p})
	}
	return nil
}

// Unregister takes the user off the list while registration is open.
func (s *Service) Unregister(ctx context.Context, userID int64, name string) error {
	t, err := s.Find(ctx, name)
	if err != nil {
		return err
	}
	if !t.RegistrationOpen() {
		return errs.E(errs.Conflict, "Registration for %s is closed; ask an organiser to withdraw you.", t.Name)
	}
	if err := s.Store.Unregister(ctx, t.ID, userID); err != nil {
		return err
	}
	s.publish(ctx, EventUnregistered, map[string]any{"tournament": t.Name, "id": userID})
	return nil
}

// IsRegistered reports the user's registration.
func (s *Service) IsRegistered(ctx context.Context, userID int64, name string) (bool, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return false, err
	}
	return s.Store.IsRegistered(ctx, t.ID, userID)
}

// Roster is the public list of a tournament at one moment.
type Roster struct {
	Tournament string   `json:"tournament"`
	Count      int      `json:"count"`
	Seq        int64    `json:"seq"`
	Players    []Player `json:"players"`
}

// Registrations reads the public list. The live seq is read first, so a
// client that subscribes with since=Seq misses no later change.
func (s *Service) Registrations(ctx context.Context, t Tournament) (Roster, error) {
	seq, err := s.Pub.Seq(ctx, hub.TopicRegistrations)
	if err != nil {
		// Without the hub the list is still right; clients resync on connect.
		s.Log.Warn("reading registrations seq failed", slog.Any("err", err))
	}
	players, err := s.Store.Registrations(ctx, t.ID)
	if err != nil {
		return Roster{}, err
	}
	return Roster{Tournament: t.Name, Count: len(players), Seq: seq, Players: players}, nil
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

// SetStatus moves a tournament to status (admins only; checked by the caller's route).
func (s *Service) SetStatus(ctx context.Context, name, status string) (Tournament, error) {
	if !ValidStatus(status) {
		return Tournament{}, errs.E(errs.Invalid, "Status must be registration, auction, matches or completed")
	}
	return s.Store.SetStatus(ctx, s.name(name), status)
}

// PlayerChanged republishes a registered player's card after their stats or
// profile changed (stats.Service.Changed).
func (s *Service) PlayerChanged(ctx context.Context, userID int64) {
	names, err := s.Store.TournamentsOf(ctx, userID)
	if err != nil {
		s.Log.Warn("listing tournaments of a player failed", slog.Any("err", err))
		return
	}
	for _, n := range names {
		t, err := s.Store.FindTournament(ctx, n)
		if err != nil {
			continue
		}
		if p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID); err == nil {
			s.publish(ctx, EventStatsUpdated, map[string]any{"tournament": t.Name, "player": p})
		}
	}
}

// publish tells every client; the change is committed already, so a hub
// failure is logged and clients catch up through resync.
func (s *Service) publish(ctx context.Context, event string, data any) {
	if err := s.Pub.Publish(context.WithoutCancel(ctx), hub.TopicRegistrations, event, data); err != nil {
		s.Log.Warn("publishing failed", slog.String("event", event), slog.Any("err", err))
	}
}
