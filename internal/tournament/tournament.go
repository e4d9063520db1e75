// Package tournament holds tournaments and their registrations: who may
// register, the registration cap and its waitlist, the check-in before the
// auction, the public list of registered players, teams, and the events
// every open client is told of.
package tournament

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// A season's phases, in order (Moves says how it goes from one to another);
// only the first takes registrations.
const (
	StatusRegistration = "registration"
	StatusAuction      = "auction"
	StatusMatches      = "matches"
	StatusCompleted    = "completed"
)

// ValidStatus reports whether s is a tournament status.
func ValidStatus(s string) bool {
	switch s {
	case StatusRegistration, StatusAuction, StatusMatches, StatusCompleted:
		return true
	}
	return false
}

// Messages of the seed.
const (
	MsgNoStats           = "Please upload your SK stats first before registering for the tournament!"
	MsgAlreadyRegistered = "You are already registered for the tournament!"
	MsgRegistered        = "Successfully registered for the tournament!"
	MsgUnregistered      = "Successfully unregistered from the tournament."
	MsgNotRegistered     = "You are not registered for the tournament."
	// Ours: the seed's flow links Discord before stats and registration.
	MsgNoDiscord = "Please link your Discord username before registering for the tournament!"
)

// Tournament is one league season.
type Tournament struct {
	ID     int64  `json:"-"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Purse  int    `json:"purse"` // each team's credits for the auction
	Season int    `json:"season,omitempty"`
	Format string `json:"format,omitempty"` // the fixtures' format, once made
	// Options are the format's (a Swiss stage's rounds and top cut, the
	// grand final's reset), once the fixtures are made.
	Options bracket.Options `json:"-"`
	// SeedsByHand: an organiser set the seeds' order (else: by strength).
	SeedsByHand bool `json:"-"`
	// Scoring is the Points Table's: points per win and loss, and kill points.
	Scoring       bracket.Scoring `json:"scoring"`
	CreatedAt     time.Time       `json:"created_at"`
	RosterVersion int64           `json:"-"`
	// Cap is the most confirmed registrations (0: no cap); Checkin the
	// check-in window. Both are stated by Places.
	Cap     int     `json:"-"`
	Checkin Checkin `json:"-"`
	// Look is the season's own identity (season.go).
	Look Look `json:"-"`
}

// RegistrationOpen reports whether players may register or unregister.
func (t Tournament) RegistrationOpen() bool { return t.Status == StatusRegistration }

// Badge is an award shown on a player's card.
type Badge struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Icon  string `json:"icon"`
	Color string `json:"color"`
}

// Player is a registered player's public card: never an e-mail.
type Player struct {
	ID                int64     `json:"id"`
	Name              string    `json:"name"`
	Image             *string   `json:"image"`
	SID               string    `json:"s_id"`
	KD                float64   `json:"kd"`
	Kills             int       `json:"kills"`
	Deaths            int       `json:"deaths"`
	GamesPlayed       int       `json:"games_played"`
	Level             int       `json:"level"`
	Description       string    `json:"description"`
	DiscordID         string    `json:"discord_id"`
	IsDiscordVerified bool      `json:"is_discord_verified"`
	CartImage         *string   `json:"cart_image"`
	Category          int       `json:"category"`
	Verified          bool      `json:"stats_verified"`
	Badges            []Badge   `json:"badges"`
	CreatedAt         time.Time `json:"created_at"`
	// Status is confirmed or waitlisted; WaitlistedAt orders the waitlist
	// (then CreatedAt); CheckedInAt is when the player checked in.
	Status       string     `json:"status"`
	CheckedInAt  *time.Time `json:"checked_in_at"`
	WaitlistedAt *time.Time `json:"waitlisted_at"`
	// Place is where a waiting player waits, from 1, on a sorted page of
	// the list (SortedRoster); 0 elsewhere.
	Place int `json:"place,omitempty"`
	// Hidden: the player hid their profile; the card is then their name
	// and their registration (core.ShowCard).
	Hidden bool `json:"hidden,omitempty"`
}

// Whose implements core.Card.
func (p *Player) Whose() (int64, bool) { return p.ID, p.Hidden }

// NameOnly implements core.Card: the name, the tier and the registration
// stay.
func (p *Player) NameOnly() {
	*p = Player{ID: p.ID, Name: p.Name, SID: "N/A", Category: p.Category, Badges: []Badge{}, CreatedAt: p.CreatedAt,
		Status: p.Status, CheckedInAt: p.CheckedInAt, WaitlistedAt: p.WaitlistedAt, Place: p.Place, Hidden: true}
}

// Finish fills what a card derives: the seed's kills/deaths from K/D and
// games for records without extracted counts, and "N/A" for no SK id.
func (p *Player) Finish() {
	if p.Kills == 0 && p.Deaths == 0 && p.GamesPlayed > 0 {
		p.Kills, p.Deaths = core.DeriveKillsDeaths(p.KD, p.GamesPlayed)
	}
	if p.SID == "" {
		p.SID = "N/A"
	}
	if p.Badges == nil {
		p.Badges = []Badge{}
	}
}

// TeamPlayer is one roster slot.
type TeamPlayer struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	Image   *string `json:"image"`
	Credits int     `json:"credits"`
	// Substitute: signed after the auction, beside the five.
	Substitute bool `json:"substitute,omitempty"`
	Hidden     bool `json:"hidden,omitempty"` // the profile is hidden: no picture
}

// Whose implements core.Card.
func (p *TeamPlayer) Whose() (int64, bool) { return p.ID, p.Hidden }

// NameOnly implements core.Card.
func (p *TeamPlayer) NameOnly() { p.Image = nil }

// Captain is a team's captain as the public sees them.
type Captain struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	Image  *string `json:"image"`
	Hidden bool    `json:"hidden,omitempty"` // the profile is hidden: no picture
}

// Whose implements core.Card.
func (c *Captain) Whose() (int64, bool) { return c.ID, c.Hidden }

// NameOnly implements core.Card.
func (c *Captain) NameOnly() { c.Image = nil }

// Team is one of the eight teams A to H.
type Team struct {
	ID      int64        `json:"id"`
	Letter  string       `json:"letter"`
	Name    string       `json:"name"`
	Logo    string       `json:"logo"`
	Captain *Captain     `json:"captain"`
	Players []TeamPlayer `json:"players"`
	Credits int          `json:"credits_spent"`
}

// Store is what the tournament rules need from the database.
type Store interface {
	FindTournament(ctx context.Context, name string) (Tournament, error)
	FindTournamentByID(ctx context.Context, id int64) (Tournament, error)
	// Register adds the user (who must have stats) to an open tournament,
	// confirmed or waitlisted (status) from at; the database's key makes a
	// second registration a Conflict.
	Register(ctx context.Context, tournamentID, userID int64, status string, at time.Time) error
	// Unregister takes the user off an open tournament's list and says
	// whether they were confirmed or waitlisted.
	Unregister(ctx context.Context, tournamentID, userID int64) (string, error)
	// Withdraw takes the user off the tournament's list whatever its phase
	// (an organiser's withdrawal) and says whether they were confirmed or
	// waitlisted.
	Withdraw(ctx context.Context, tournamentID, userID int64) (string, error)
	IsRegistered(ctx context.Context, tournamentID, userID int64) (bool, error)
	// DropUnsold takes a registered player who is on no team off a
	// tournament's list whatever its phase, and says whether they were.
	DropUnsold(ctx context.Context, tournamentID, userID int64) (bool, error)
	Registrations(ctx context.Context, tournamentID int64) ([]Player, error)
	// RegisteredPlayer is one card, or NotFound when not registered.
	RegisteredPlayer(ctx context.Context, tournamentID, userID int64) (Player, error)
	// LockRoster locks the tournament's row against every other change of
	// its list and phase, and reads it with its places.
	LockRoster(ctx context.Context, id int64) (Tournament, Places, error)
	// Places counts the tournament's registrations.
	Places(ctx context.Context, t Tournament) (Places, error)
	// Waiting lists the waitlisted players in order.
	Waiting(ctx context.Context, tournamentID int64) ([]int64, error)
	// Cards are the registered players' cards of ids.
	Cards(ctx context.Context, tournamentID int64, ids []int64) ([]Player, error)
	// CheckIn records that a registered player checked in and says whether
	// they had not already; NotFound when not registered.
	CheckIn(ctx context.Context, tournamentID, userID int64) (bool, error)
	// Promote confirms a waitlisted player, checked in with it when
	// checkIn.
	Promote(ctx context.Context, tournamentID, userID int64, checkIn bool) error
	SetCap(ctx context.Context, tournamentID int64, cap int) error
	// SetCheckin opens the check-in until deadline (again, when it had
	// closed), moves its deadline, or with nil takes the window away.
	SetCheckin(ctx context.Context, tournamentID int64, deadline *time.Time) error
	// CloseCheckin closes the window at: the confirmed players who did not
	// check in, captains aside, go to the waitlist (their ids returned).
	CloseCheckin(ctx context.Context, tournamentID int64, at time.Time) ([]int64, error)
	// TournamentsOf lists the tournaments the user is registered in.
	TournamentsOf(ctx context.Context, userID int64) ([]string, error)
	Teams(ctx context.Context, tournamentID int64) ([]Team, error)
	SetStatus(ctx context.Context, name, status string) (Tournament, error)
	// LockForMove locks the tournament's row against every other change of
	// its phase, lots and fixtures, then reads it with the facts a phase
	// change depends on.
	LockForMove(ctx context.Context, id int64) (Tournament, Facts, error)
	// MoveFacts reads the facts a phase change of t depends on, locking
	// nothing.
	MoveFacts(ctx context.Context, t Tournament) (Facts, error)
	// CreateTournament makes a tournament, open for registration, with its
	// eight teams; Conflict when the name is taken.
	CreateTournament(ctx context.Context, t Tournament) (Tournament, error)
	// Tournaments lists every tournament, newest first.
	Tournaments(ctx context.Context) ([]Tournament, error)
	IdentityStore
}

// ErrUnknown is the answer for a tournament that does not exist.
func ErrUnknown(name string) error {
	return errs.E(errs.NotFound, "Tournament %s not found", errs.Echo(name))
}
