// Package calendar serves each player's and each team's matches as an
// iCalendar feed at a secret address: the address carries an HMAC of the
// feed and its generation, so it can be shown again at any time and a
// reset (a new generation) turns the old one off.
package calendar

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
)

// Kind is whose matches a feed lists.
type Kind string

// The feeds: a player's matches (those of every team they play for, captain
// or player) and a team's.
const (
	Player Kind = "player"
	Team   Kind = "team"
)

// Feed is one calendar: a player's (ID a user) or a team's (ID a team).
type Feed struct {
	Kind Kind
	ID   int64
}

// MatchLength is how long a match's event lasts in a calendar.
const MatchLength = time.Hour

// Match is a match with a time, as a feed lists it.
type Match struct {
	ID         int64
	Tournament string
	Stage      string
	Round      int
	Home, Away string // the sides' names
	Status     string
	Winner     string // the winning side's name, once completed
	At         time.Time
	// Changes is how many times its time changed; Modified is when the
	// match last changed.
	Changes  int
	Modified time.Time
}

// TeamInfo is a team as its feed's rights need it.
type TeamInfo struct {
	ID           int64
	TournamentID int64
	Tournament   string
	Letter, Name string
	// Members are its captain and players (substitutes too).
	Members []int64
}

// Store is what the feeds need from the database.
type Store interface {
	// Generation is the feed's current generation (1 before any reset).
	Generation(ctx context.Context, f Feed) (int, error)
	// Reset moves the feed to a new generation and returns it.
	Reset(ctx context.Context, f Feed) (int, error)
	// Matches are the feed's matches that have a time, soonest first.
	Matches(ctx context.Context, f Feed) ([]Match, error)
	// Match is one match with its time: NotFound when it has none yet.
	Match(ctx context.Context, id int64) (Match, error)
	// Team finds the tournament's team by letter.
	Team(ctx context.Context, tournament, letter string) (TeamInfo, error)
	// TeamByID finds a team.
	TeamByID(ctx context.Context, id int64) (TeamInfo, error)
}

// Service gives the feeds' addresses to those they belong to and serves
// the feeds to whoever holds an address.
type Service struct {
	Store Store
	// Key signs the addresses; PublicURL is the site's address, which
	// starts them and names the events' UIDs.
	Key       []byte
	PublicURL string
}

// Link is the address of a's own feed, or, with a team, of that team's
// feed: its members and organisers see it.
func (s *Service) Link(ctx context.Context, a core.Actor, tournament, letter string) (string, error) {
	f, err := s.feedOf(ctx, a, tournament, letter, false)
	if err != nil {
		return "", err
	}
	return s.link(ctx, f)
}

// ResetLink gives the feed a new address; the old one answers 404 from
// then on. A player resets their own; a team's captain or an organiser
// resets a team's.
func (s *Service) ResetLink(ctx context.Context, a core.Actor, tournament, letter string) (string, error) {
	f, err := s.feedOf(ctx, a, tournament, letter, true)
	if err != nil {
		return "", err
	}
	if _, err := s.Store.Reset(ctx, f); err != nil {
		return "", err
	}
	return s.link(ctx, f)
}

// feedOf is the feed a asks for, once a may have it (reset: change it).
func (s *Service) feedOf(ctx context.Context, a core.Actor, tournament, letter string, reset bool) (Feed, error) {
	if err := a.MustBeUser(); err != nil {
		return Feed{}, err
	}
	if letter == "" {
		return Feed{Kind: Player, ID: a.UserID}, nil
	}
	t, err := s.Store.Team(ctx, tournament, strings.ToUpper(letter))
	if err != nil {
		return Feed{}, err
	}
	captain, _ := a.CaptainOf(t.TournamentID)
	member := false
	for _, id := range t.Members {
		member = member || id == a.UserID
	}
	switch {
	case a.Organises(t.TournamentID), captain == t.Letter:
	case member && !reset:
	case member:
		return Feed{}, errs.E(errs.Forbidden, "Only team %s's captain or an organiser can reset its calendar link.", t.Letter)
	default:
		return Feed{}, errs.E(errs.Forbidden, "Team %s's calendar is its members' and organisers'.", t.Letter)
	}
	return Feed{Kind: Team, ID: t.ID}, nil
}

func (s *Service) link(ctx context.Context, f Feed) (string, error) {
	gen, err := s.Store.Generation(ctx, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/api/calendar/%s/%d/%s.ics", s.PublicURL, f.Kind, f.ID, s.token(f, gen)), nil
}

// token signs the feed at its generation.
func (s *Service) token(f Feed, gen int) string {
	m := hmac.New(sha256.New, s.Key)
	fmt.Fprintf(m, "calendar|%s|%d|%d", f.Kind, f.ID, gen)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:24])
}

// Render is the feed at an address: 404 for an address never given or
// reset since, so an address tells nothing unless it is the feed's own.
func (s *Service) Render(ctx context.Context, kind string, id int64, token string) ([]byte, error) {
	f := Feed{Kind: Kind(kind), ID: id}
	missing := errs.E(errs.NotFound, "Calendar not found")
	if f.Kind != Player && f.Kind != Team {
		return nil, missing
	}
	gen, err := s.Store.Generation(ctx, f)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(token), []byte(s.token(f, gen))) {
		return nil, missing
	}
	name := "Pitlane: my matches"
	if f.Kind == Team {
		t, err := s.Store.TeamByID(ctx, f.ID)
		if err != nil {
			return nil, err
		}
		name = fmt.Sprintf("Pitlane: %s (%s)", t.Name, t.Tournament)
	}
	ms, err := s.Store.Matches(ctx, f)
	if err != nil {
		return nil, err
	}
	events := make([]Event, len(ms))
	for i, m := range ms {
		events[i] = s.event(m)
	}
	return Encode(name, events), nil
}

// MatchFile is one match as a calendar file, for "Add to calendar" on its
// page: anyone may read it (the match page is public), and its event has
// the feeds' UID, so a calendar that has both keeps one event.
func (s *Service) MatchFile(ctx context.Context, id int64) ([]byte, error) {
	m, err := s.Store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	return Encode(fmt.Sprintf("Pitlane: match %d", m.ID), []Event{s.event(m)}), nil
}

// event is a match's VEVENT: its UID stays the match's, its SEQUENCE
// counts the time's changes, and one more for a cancellation.
func (s *Service) event(m Match) Event {
	host := strings.TrimPrefix(strings.TrimPrefix(s.PublicURL, "https://"), "http://")
	e := Event{
		UID:      fmt.Sprintf("match-%d@%s", m.ID, host),
		Summary:  fmt.Sprintf("%s: %s v %s (%s)", m.Tournament, m.Home, m.Away, matches.RoundName(m.Stage, m.Round)),
		URL:      fmt.Sprintf("%s/matches/%d", s.PublicURL, m.ID),
		Start:    m.At,
		Duration: MatchLength,
		Sequence: m.Changes,
		Modified: m.Modified,
	}
	switch m.Status {
	case matches.StatusCancelled:
		e.Cancelled = true
		e.Sequence++
		e.Description = "Cancelled."
	case matches.StatusCompleted:
		e.Description = "Won by " + m.Winner + "."
	default:
		e.Description = "Smash Karts, " + m.Home + " (home) v " + m.Away + ". The room is posted on the match page: " + e.URL
	}
	return e
}
