package matches

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Tournaments finds tournaments.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	FindByID(ctx context.Context, id int64) (tournament.Tournament, error)
}

// Images keeps the end-of-match screenshots.
type Images interface {
	SaveImage(ctx context.Context, contentType string, data []byte) (string, error)
}

// Service runs the matches. Each change commits with its audit entry and
// its live events on the bracket topic.
type Service struct {
	Store       Store
	Images      Images
	Tournaments Tournaments
	Tx          core.Transactor
	Events      core.Outbox
	Audit       core.AuditLog
	Jobs        core.Scheduler
	// Now is the clock (time.Now); ConfirmAfter defaults to the rules'.
	Now          func() time.Time
	ConfirmAfter time.Duration
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) confirmAfter() time.Duration {
	if s.ConfirmAfter > 0 {
		return s.ConfirmAfter
	}
	return ConfirmAfter
}

// shown is m as a sees it at now: the room hidden from everyone but the two
// sides and organisers, and an open match's status by the live rule
// (Match.LiveAt), with the time it goes live.
func shown(m Match, a core.Actor, now time.Time) Match {
	m.RoomSet = m.Room != ""
	m.LiveFrom = m.StartsAt()
	m.Status = ShownStatus(m.Status, m.LiveFrom, now)
	if !a.Organises(m.TournamentID) {
		team, ok := a.CaptainOf(m.TournamentID)
		member := ok && m.Side(team) != nil
		for letter, members := range m.Members {
			for _, p := range members {
				if p.UserID == a.UserID && a.UserID != 0 && m.Side(letter) != nil {
					member = true
				}
			}
		}
		if !member {
			m.Room = ""
		}
	}
	return m
}

// Matches lists the tournament's matches, of one team when team is given:
// upcoming first (those with a time soonest first), then the played ones,
// the last first.
func (s *Service) Matches(ctx context.Context, a core.Actor, name, team string) ([]Match, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return nil, err
	}
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	team = strings.ToUpper(strings.TrimSpace(team))
	out := []Match{}
	for _, m := range all {
		if team == "" || m.Side(team) != nil {
			out = append(out, shown(m, a, s.now()))
		}
	}
	done := func(m Match) bool { return m.Status == StatusCompleted || m.Status == StatusCancelled }
	slices.SortStableFunc(out, func(x, y Match) int {
		switch {
		case done(x) != done(y):
			if done(x) {
				return 1
			}
			return -1
		case done(x):
			return y.Round - x.Round // the last played first
		case (x.ScheduledAt == nil) != (y.ScheduledAt == nil):
			if x.ScheduledAt == nil {
				return 1
			}
			return -1
		case x.ScheduledAt != nil:
			return x.ScheduledAt.Compare(*y.ScheduledAt) // the soonest first
		}
		return 0
	})
	return out, nil
}

// Match is one match, as a may see it.
func (s *Service) Match(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.Store.FindMatch(ctx, id)
	return shown(m, a, s.now()), err
}

// change runs fn on the locked match once the rules (MatchRules) let a do
// act to it, with the side a acts for, and tells everyone of the match
// after. The tournament's phase is held meanwhile, so a season completing
// waits for the change and then counts it.
func (s *Service) change(ctx context.Context, a core.Actor, act Action, id int64, fn func(ctx context.Context, m Match, side *TeamRef) error) (Match, error) {
	if slices.Equal(MatchRules[act].Who, []Party{Organiser}) {
		// Before the match is read: its existence is not news. A
		// co-organiser's tournament is checked once it is (PartiesOf).
		if err := tournament.MayOrganise(a); err != nil {
			return Match{}, err
		}
	}
	var out Match
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		side, err := s.may(ctx, act, a, m)
		if err != nil {
			return err
		}
		if err := fn(ctx, m, side); err != nil {
			return err
		}
		if out, err = s.Store.FindMatch(ctx, id); err != nil {
			return err
		}
		return s.emitMatch(ctx, EventMatch, out)
	})
	return out, err
}

// may reads m's tournament, holding its phase, and checks the rules.
func (s *Service) may(ctx context.Context, act Action, a core.Actor, m Match) (*TeamRef, error) {
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return nil, err
	}
	if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
		return nil, err
	}
	return may(act, a, m, t)
}

// emitMatch tells the bracket topic of m as the public sees it.
func (s *Service) emitMatch(ctx context.Context, event string, m Match) error {
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicBracket, event, map[string]any{"tournament": t.Name, "match": shown(m, core.Actor{}, s.now())})
	return err
}

func letterOf(t *TeamRef) string {
	if t == nil {
		return "?"
	}
	return t.ID
}

func matchTarget(m Match) string {
	return fmt.Sprintf("match %d (%s v %s)", m.ID, letterOf(m.Team1), letterOf(m.Team2))
}
