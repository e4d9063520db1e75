// Package records is a league's memory as the public reads it: a player's
// profile (stats over time, seasons, matches, titles, Red Cap finishes),
// a team's page in a season, the search for players and teams by name,
// and the all-time leaderboards. A player may hide the profile: the
// league's own records (brackets, tables, rosters) keep the name shown in
// them, but the profile shows nothing more, and search does not list it.
// No answer here carries an e-mail.
package records

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/paging"
)

// Badge is a badge a player holds.
type Badge struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Icon  string `json:"icon"`
	Color string `json:"color"`
}

// Point is one saving of a player's stats: what that upload read.
type Point struct {
	At          time.Time `json:"at"`
	Level       int       `json:"level"`
	Kills       int       `json:"kills"`
	Deaths      int       `json:"deaths"`
	GamesPlayed int       `json:"games_played"`
	KD          float64   `json:"kd"`
}

// TeamRef names a team of a season.
type TeamRef struct {
	Tournament string `json:"tournament"`
	Letter     string `json:"letter"`
	Name       string `json:"name"`
}

// Season is a player's part in one season: the team, the tier and the
// price paid at the auction, and the season's figures.
type Season struct {
	Tournament  string   `json:"tournament"`
	DisplayName string   `json:"display_name"`
	Season      *int     `json:"season"`
	Status      string   `json:"status"`
	Team        *TeamRef `json:"team"`
	Captain     bool     `json:"captain"`
	Substitute  bool     `json:"substitute"`
	Tier        *int     `json:"tier"`
	Price       *int     `json:"price"`
	Champion    bool     `json:"champion"`
	Matches     int      `json:"matches"`
	Kills       int      `json:"kills"`
	Deaths      int      `json:"deaths"`
	// RedCap is the player's place in the season's Red Cap race (1: the
	// Red Cap), when the player has a completed match in it.
	RedCap *int `json:"red_cap"`
}

// MatchLine is a player's line of a completed match.
type MatchLine struct {
	MatchID    int64      `json:"match_id"`
	Tournament string     `json:"tournament"`
	Stage      string     `json:"stage"`
	Round      int        `json:"round_number"`
	Team       TeamRef    `json:"team"`
	Opponent   *TeamRef   `json:"opponent"`
	Won        bool       `json:"won"`
	Kills      int        `json:"kills"`
	Deaths     int        `json:"deaths"`
	Placement  int        `json:"placement"`
	PlayedAt   *time.Time `json:"played_at"`
}

// Profile is a player's public page.
type Profile struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Hidden bool   `json:"hidden"`
	// Player: the account saved its stats or is on a season's list. An
	// account that is no player (an organiser who never played) has no
	// public page.
	Player bool `json:"-"`
	// Details are left out of a hidden profile read by anyone but its owner.
	*Details
}

// Whose implements core.Card.
func (p *Profile) Whose() (int64, bool) { return p.ID, p.Hidden }

// NameOnly implements core.Card.
func (p *Profile) NameOnly() { p.Details = nil }

// Details are a profile's all but its name.
type Details struct {
	Avatar          *string     `json:"avatar,omitempty"`
	CartImage       *string     `json:"cart_image,omitempty"`
	Discord         string      `json:"discord,omitempty"`
	DiscordVerified bool        `json:"discord_verified"`
	Description     string      `json:"description,omitempty"`
	Level           int         `json:"level"`
	Kills           int         `json:"kills"`
	Deaths          int         `json:"deaths"`
	GamesPlayed     int         `json:"games_played"`
	KD              float64     `json:"kd"`
	Tier            int         `json:"tier"`
	StatsVerified   bool        `json:"stats_verified"`
	Titles          int         `json:"titles"`
	RedCaps         int         `json:"red_caps"`
	Badges          []Badge     `json:"badges"`
	History         []Point     `json:"history"`
	Seasons         []Season    `json:"seasons"`
	Matches         []MatchLine `json:"matches"`
}

// PlayerCard is a player as a search or a leaderboard lists them.
type PlayerCard struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Avatar    *string `json:"avatar"`
	CartImage *string `json:"cart_image"`
	Tier      int     `json:"tier"`
	KD        float64 `json:"kd"`
}

// TeamHit is a team a search found.
type TeamHit struct {
	TeamRef
	DisplayName string `json:"display_name"`
	Logo        string `json:"logo"`
}

// Found is a page of a search.
type Found struct {
	Players    []PlayerCard `json:"players"`
	Teams      []TeamHit    `json:"teams"` // on the first page of a search only
	NextCursor *string      `json:"next_cursor"`
}

// Member is a player on a team's roster.
type Member struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	Avatar     *string `json:"avatar"`
	Hidden     bool    `json:"hidden"` // no profile to link to, no picture
	Captain    bool    `json:"captain"`
	Substitute bool    `json:"substitute"`
	Tier       *int    `json:"tier"`
	Price      *int    `json:"price"`
	Matches    int     `json:"matches"`
	Kills      int     `json:"kills"`
	Deaths     int     `json:"deaths"`
}

// Whose implements core.Card.
func (m *Member) Whose() (int64, bool) { return m.ID, m.Hidden }

// NameOnly implements core.Card: the name and the season's figures stay.
func (m *Member) NameOnly() { m.Avatar = nil }

// Fixture is one of a team's matches.
type Fixture struct {
	ID          int64      `json:"id"`
	Stage       string     `json:"stage"`
	Round       int        `json:"round_number"`
	Opponent    *TeamRef   `json:"opponent"`
	Status      string     `json:"status"`
	Won         *bool      `json:"won"`
	Kills       int        `json:"kills"`
	OppKills    int        `json:"opponent_kills"`
	ScheduledAt *time.Time `json:"scheduled_at"`
	// BothIn is when the second side checked in (nil: not both); with the
	// time, it says when the match goes live (matches.LiveFrom).
	BothIn *time.Time `json:"-"`
}

// Team is a team's page in a season.
type Team struct {
	TeamRef
	DisplayName string            `json:"display_name"`
	Status      string            `json:"status"`
	Logo        string            `json:"logo"`
	Champion    bool              `json:"champion"`
	Captain     *Member           `json:"captain"`
	Roster      []Member          `json:"roster"`
	Fixtures    []Fixture         `json:"fixtures"`
	Standing    *matches.TableRow `json:"standing"`
	Position    int               `json:"position"` // in the table, from 1; 0 when not in it
}

// Store reads the records.
type Store interface {
	Profile(ctx context.Context, id int64) (Profile, bool, error) // the profile and whether its account is gone
	ProfileDetail(ctx context.Context, p *Profile) error
	SearchPlayers(ctx context.Context, q string, after int64, limit int) ([]PlayerCard, error)
	SearchTeams(ctx context.Context, q string, limit int) ([]TeamHit, error)
	Team(ctx context.Context, tournament, letter string) (Team, error)
	Board(ctx context.Context, kind Kind, min int, after *paging.Key, limit int) ([]Row, error)
	SetHidden(ctx context.Context, userID int64, hidden bool) error
	Meetings(ctx context.Context, a, b int64) ([]Meeting, error)
}

// Standings reads a season's Points Table.
type Standings interface {
	Standings(ctx context.Context, name string) (matches.Table, error)
}

// Service answers the public reads of the records.
type Service struct {
	Store     Store
	Standings Standings
	// Tx runs a hiding with what it tells: Changed tells the lists the
	// player is on (their card is their name alone from now on), History
	// redacts the live events told before. Nil ones are skipped.
	Tx      core.Transactor
	Changed func(ctx context.Context, userID int64) error
	History core.EventHistory
}

// Profile is player id's page as a reads it: a hidden profile shows its
// name alone to anyone but its owner; an erased account has none, and
// neither has an account that is no player, but to itself.
func (s *Service) Profile(ctx context.Context, a core.Actor, id int64) (Profile, error) {
	p, gone, err := s.Store.Profile(ctx, id)
	if err != nil {
		return p, err
	}
	if gone || !p.Player && a.UserID != id {
		return Profile{}, errs.E(errs.NotFound, "No such player")
	}
	if core.ShowCard(a, &p); p.Details == nil {
		return p, nil
	}
	err = s.Store.ProfileDetail(ctx, &p)
	return p, err
}

// SetHidden hides or shows the caller's own profile: everywhere others
// read them, their card is their name alone from the next read and event
// on (core.ShowCard), and the live events told before are redacted.
func (s *Service) SetHidden(ctx context.Context, a core.Actor, hidden bool) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	hide := func(ctx context.Context) error {
		if err := s.Store.SetHidden(ctx, a.UserID, hidden); err != nil {
			return err
		}
		if s.Changed != nil {
			if err := s.Changed(ctx, a.UserID); err != nil {
				return err
			}
		}
		if hidden && s.History != nil {
			return s.History.Redact(ctx, a.UserID, "")
		}
		return nil
	}
	if s.Tx == nil {
		return hide(ctx)
	}
	return s.Tx.Transact(ctx, hide)
}

// TeamsPerSearch is how many teams a search's first page lists.
const TeamsPerSearch = 10

// Search finds players whose name holds q (every visible player when q is
// empty), a page at a time in the order they joined, and on the first
// page the teams whose name holds q.
func (s *Service) Search(ctx context.Context, req paging.Request) (Found, error) {
	var after int64
	if req.After != nil {
		after = req.After.ID
	}
	players, err := s.Store.SearchPlayers(ctx, req.Q, after, req.Limit+1)
	if err != nil {
		return Found{}, err
	}
	f := Found{Players: players, Teams: []TeamHit{}}
	if len(players) > req.Limit {
		f.Players = players[:req.Limit]
		f.NextCursor = paging.Next(true, paging.Key{ID: f.Players[req.Limit-1].ID})
	}
	if req.Q != "" && req.After == nil {
		f.Teams, err = s.Store.SearchTeams(ctx, req.Q, TeamsPerSearch)
	}
	return f, err
}

// Team is a team's page: its roster with prices and substitutes, its
// fixtures and results, and its line of the Points Table.
func (s *Service) Team(ctx context.Context, tournament, letter string) (Team, error) {
	t, err := s.Store.Team(ctx, tournament, letter)
	if err != nil {
		return t, err
	}
	now := time.Now()
	for i, f := range t.Fixtures {
		t.Fixtures[i].Status = matches.ShownStatus(f.Status, matches.LiveFrom(f.ScheduledAt, f.BothIn), now)
	}
	table, err := s.Standings.Standings(ctx, t.Tournament)
	if err != nil {
		return t, err
	}
	for i, row := range table.Rows {
		if row.Team == t.Letter {
			row := row
			t.Standing, t.Position = &row, i+1
		}
	}
	return t, nil
}

// Meeting is a match two players played on opposite sides.
type Meeting struct {
	MatchID    int64   `json:"match_id"`
	Tournament string  `json:"tournament"`
	Round      int     `json:"round_number"`
	Team       TeamRef `json:"team"`     // the first player's
	Opponent   TeamRef `json:"opponent"` // the second's
	Kills      int     `json:"kills"`
	Deaths     int     `json:"deaths"`
	OppKills   int     `json:"opponent_kills"`
	OppDeaths  int     `json:"opponent_deaths"`
	Won        *bool   `json:"won"` // the first player's side; null without a winner
}

// Versus is two players' head-to-head: the matches they met in, latest
// first, and how often each side won.
type Versus struct {
	Player   PlayerRef `json:"player"`
	Opponent PlayerRef `json:"opponent"`
	Wins     int       `json:"wins"`
	Losses   int       `json:"losses"`
	Meetings []Meeting `json:"meetings"`
}

// PlayerRef names a player.
type PlayerRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Versus is the head-to-head of players a and b, under the names the
// league's records show (a hidden profile's too: the matches are the
// league's).
func (s *Service) Versus(ctx context.Context, a, b int64) (Versus, error) {
	if a == b {
		return Versus{}, errs.E(errs.Invalid, "A head-to-head is between two players")
	}
	v := Versus{Meetings: []Meeting{}}
	for _, x := range []struct {
		id  int64
		ref *PlayerRef
	}{{a, &v.Player}, {b, &v.Opponent}} {
		p, gone, err := s.Store.Profile(ctx, x.id)
		if err != nil {
			return v, err
		}
		if gone || !p.Player {
			return v, errs.E(errs.NotFound, "No such player")
		}
		*x.ref = PlayerRef{ID: p.ID, Name: p.Name}
	}
	ms, err := s.Store.Meetings(ctx, a, b)
	if err != nil {
		return v, err
	}
	v.Meetings = ms
	for _, m := range ms {
		if m.Won != nil && *m.Won {
			v.Wins++
		} else if m.Won != nil {
			v.Losses++
		}
	}
	return v, nil
}
