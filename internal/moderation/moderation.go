// Package moderation holds what lets the staff keep the community clean:
// reports (any player points at a message, a profile or a team name, with
// a reason, into a queue its tournament's staff read) and sanctions (a
// mute, a ban from one tournament or all of them, a ban from the site),
// each audited with who gave it and why, shown to its player with its end,
// lifted early by staff, and held against the player's sign-in identities
// (identity.go), so neither a new name, a new address nor a deleted account
// is a way out.
package moderation

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

// Sanction kinds.
const (
	Mute          = "mute"           // no messages (rooms), for a time
	TournamentBan = "tournament_ban" // no registration, bids, check-in or rooms in a tournament (or every one)
	SiteBan       = "site_ban"       // no sign-in at all
)

// Sanction states: in force, run out at its end, or lifted early.
const (
	Active = "active"
	Ended  = "ended"
	Lifted = "lifted"
)

// Report kinds: what a player may report.
const (
	ReportMessage = "message" // a message in a room (its id)
	ReportProfile = "profile" // a player's name or kart image (the player's id)
	ReportTeam    = "team"    // a team's name (the team's id)
)

// Report states.
const (
	Open      = "open"
	Resolved  = "resolved"
	Dismissed = "dismissed"
)

// Action is a thing done to a sanction or a report.
type Action string

// The actions whose states are written below, once.
const (
	Enforce    Action = "enforce" // a sanction refuses what it covers
	Lift       Action = "lift"    // staff end a sanction early
	CloseQueue Action = "close"   // staff settle a report
)

// states is, for each action, the states it may run in.
var states = map[Action][]string{
	Enforce:    {Active},
	Lift:       {Active},
	CloseQueue: {Open},
}

// allows tells whether act may run in state.
func allows(act Action, state string) bool { return slices.Contains(states[act], state) }

// Limits of what a player or staff member writes.
const (
	MinReason = 3
	MaxReason = 500
	// MaxTerm is the longest a sanction with an end may run; longer is
	// "until lifted" (no end).
	MaxTerm = 10 * 365 * 24 * time.Hour
	// MinTerm keeps a sanction from ending before anyone sees it.
	MinTerm = time.Minute
)

// Sanction is one sanction as staff and its player see it. UserID is nil
// once the account is deleted (the sanction stays, on its identities).
type Sanction struct {
	ID         int64      `json:"id"`
	UserID     *int64     `json:"user_id"`
	Kind       string     `json:"kind"`
	Tournament string     `json:"tournament,omitempty"` // "": every tournament (a mute, a ban) or the site
	Reason     string     `json:"reason"`
	CreatedAt  time.Time  `json:"created_at"`
	EndsAt     *time.Time `json:"ends_at"` // nil: until lifted
	LiftedAt   *time.Time `json:"lifted_at,omitempty"`
	LiftReason string     `json:"lift_reason,omitempty"`
	State      string     `json:"state"`

	tournamentID int64
}

// StateAt is the sanction's state at now.
func (s Sanction) StateAt(now time.Time) string {
	switch {
	case s.LiftedAt != nil:
		return Lifted
	case s.EndsAt != nil && !now.Before(*s.EndsAt):
		return Ended
	}
	return Active
}

// Covers tells whether the sanction, active at now, refuses an action of
// kind's sphere in the tournament (0: none in particular).
func (s Sanction) covers(tournamentID int64) bool {
	return s.tournamentID == 0 || s.tournamentID == tournamentID
}

// until says when a sanction ends, for its refusals.
func (s Sanction) until() string {
	if s.EndsAt == nil {
		return "until an organiser lifts it"
	}
	return "until " + s.EndsAt.UTC().Format("2 Jan 2006 15:04 UTC")
}

// Refusal is the error a sanction answers an action it covers with: the
// reason and the end, so the player knows why and for how long.
func (s Sanction) Refusal() error {
	switch s.Kind {
	case SiteBan:
		return errs.E(errs.Forbidden, "This account is banned from the site %s. Reason: %s", s.until(), s.Reason)
	case Mute:
		return errs.E(errs.Forbidden, "You are muted %s. Reason: %s", s.until(), s.Reason)
	}
	where := "every tournament of the site"
	if s.Tournament != "" {
		where = s.Tournament
	}
	return errs.E(errs.Forbidden, "You are banned from %s %s. Reason: %s", where, s.until(), s.Reason)
}

// Report is one report as the staff's queue shows it.
type Report struct {
	ID         int64          `json:"id"`
	Kind       string         `json:"kind"`
	SubjectID  int64          `json:"id_reported"`
	UserID     *int64         `json:"user_id"` // the player it is about, when one
	Tournament string         `json:"tournament,omitempty"`
	Reason     string         `json:"reason"`
	Context    map[string]any `json:"context"`
	Status     string         `json:"status"`
	CreatedAt  time.Time      `json:"created_at"`
	Reporter   *int64         `json:"reporter_id"`
}

// Subject is what a report points at, as the store finds it: whom it is
// about, whose staff see it, and what it said then (the context).
type Subject struct {
	UserID       int64 // 0: no one player (a team's name)
	TournamentID int64 // 0: the site's organisers only
	Tournament   string
	Context      map[string]any
}

// ErrNotFound answers a report or sanction that is not there (or not the
// caller's to see).
func errNotFound(what string, id int64) error {
	return errs.E(errs.NotFound, "%s %d not found", what, id)
}

// refuse is the 409 of an action in a state that does not allow it.
func refuse(act Action, what string, state string) error {
	return errs.E(errs.Conflict, "%s", fmt.Sprintf("This %s is %s: it cannot be %s.", what, state, pastTense[act]))
}

var pastTense = map[Action]string{Lift: "lifted", CloseQueue: "closed", Enforce: "enforced"}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TournamentID is the tournament the sanction covers, 0 for every one.
func (s Sanction) TournamentID() int64 { return s.tournamentID }

// WithTournamentID is s covering the tournament id (for its store).
func (s Sanction) WithTournamentID(id int64) Sanction {
	s.tournamentID = id
	return s
}
