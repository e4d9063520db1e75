package core

import (
	"github.com/pitlane/pitlane/internal/errs"
)

// Roles, as Actor.Role names them (docs/league.md, "Who may do what").
const (
	RoleUser    = "user"
	RoleCaptain = "captain"
	RoleAdmin   = "admin"
	RoleStaff   = "staff"
)

// Captaincy is a team a user captains in a tournament.
type Captaincy struct {
	TournamentID int64
	Tournament   string
	Team         string // A to H
}

// StaffGrant is a tournament a user helps run as a co-organiser: an
// organiser (ADMIN_EMAILS) granted it for that tournament alone.
type StaffGrant struct {
	TournamentID int64
	Tournament   string
}

// Actor is who is acting: anonymous (the zero Actor), a signed-in user with
// the roles NewActor worked out for them, or the system (scheduled jobs).
// Every service takes the Actor and decides what it may do, so the web, the
// bot and the command line share one set of rules.
type Actor struct {
	UserID int64
	// Name is what the audit log shows (a Discord or display name, never an
	// e-mail address).
	Name     string
	Admin    bool
	Captains []Captaincy
	// Staff are the tournaments the user co-organises: there they may do
	// what an organiser may, and nowhere else.
	Staff  []StaffGrant
	System bool
}

// System is the actor of scheduled work (a lot closing when its countdown
// ends): it may do what an organiser may.
var System = Actor{Name: "system", Admin: true, System: true}

// NewActor is the one place roles are worked out: admin from the
// organisers' list (ADMIN_EMAILS) for a verified address, captain from the
// teams the user captains.
func NewActor(userID int64, name string, admin bool, captains []Captaincy) Actor {
	return Actor{UserID: userID, Name: name, Admin: admin, Captains: captains}
}

// WithStaff is a with the tournaments it co-organises.
func (a Actor) WithStaff(staff []StaffGrant) Actor {
	a.Staff = staff
	return a
}

// Organises tells whether the actor may act as an organiser in the
// tournament: an organiser everywhere, its staff there.
func (a Actor) Organises(tournamentID int64) bool {
	if a.Admin {
		return true
	}
	for _, g := range a.Staff {
		if g.TournamentID == tournamentID {
			return true
		}
	}
	return false
}

// OrganisesAny tells an organiser, or the staff of any tournament, from
// everyone else: an action for organisers may be theirs once the
// tournament is known (MustOrganise).
func (a Actor) OrganisesAny() bool { return a.Admin || len(a.Staff) > 0 }

// MsgNotYourTournament refuses a co-organiser outside the tournaments
// they were granted.
const MsgNotYourTournament = "You help run another tournament: only its organisers can do this here"

// MustOrganise refuses everyone but the organisers and the tournament's
// staff.
func (a Actor) MustOrganise(tournamentID int64) error {
	if a.Organises(tournamentID) {
		return nil
	}
	if !a.SignedIn() {
		return ErrUnauthenticated
	}
	if len(a.Staff) > 0 {
		return errs.E(errs.Forbidden, MsgNotYourTournament)
	}
	return errs.E(errs.Forbidden, MsgAdminsOnly)
}

// SignedIn tells a user (or the system) from an anonymous caller.
func (a Actor) SignedIn() bool { return a.UserID != 0 || a.System }

// Role is the actor's highest role: admin, staff (a co-organiser of a
// tournament), captain, user, or "" when anonymous.
func (a Actor) Role() string {
	switch {
	case a.Admin:
		return RoleAdmin
	case len(a.Staff) > 0:
		return RoleStaff
	case len(a.Captains) > 0:
		return RoleCaptain
	case a.SignedIn():
		return RoleUser
	}
	return ""
}

// CaptainOf is the team the actor captains in the tournament, if any.
func (a Actor) CaptainOf(tournamentID int64) (team string, ok bool) {
	for _, c := range a.Captains {
		if c.TournamentID == tournamentID {
			return c.Team, true
		}
	}
	return "", false
}

// InCaptainsRoom tells whether the actor may be in the named tournament's
// captains room: its captains and the organisers.
func (a Actor) InCaptainsRoom(tournament string) bool {
	if a.Admin {
		return true
	}
	for _, g := range a.Staff {
		if g.Tournament == tournament {
			return true
		}
	}
	for _, c := range a.Captains {
		if c.Tournament == tournament {
			return true
		}
	}
	return false
}

// SameRights tells whether b may do exactly what a may: the same user with
// the same organiser role and the same captaincies. A live session whose
// rights changed is ended, so rooms it may no longer hear are not kept.
func (a Actor) SameRights(b Actor) bool {
	if a.UserID != b.UserID || a.Admin != b.Admin || len(a.Captains) != len(b.Captains) || len(a.Staff) != len(b.Staff) {
		return false
	}
	for _, c := range a.Captains {
		if t, ok := b.CaptainOf(c.TournamentID); !ok || t != c.Team {
			return false
		}
	}
	for _, g := range a.Staff {
		if !b.Organises(g.TournamentID) {
			return false
		}
	}
	return true
}

// ErrUnauthenticated answers an anonymous caller where a user is needed.
var ErrUnauthenticated = errs.E(errs.Unauthorized, "Please login to continue")

// MustSignIn refuses anonymous callers.
func (a Actor) MustSignIn() error {
	if !a.SignedIn() {
		return ErrUnauthenticated
	}
	return nil
}

// MustBeUser refuses anonymous callers and the system: what follows acts
// on the caller's own account.
func (a Actor) MustBeUser() error {
	if a.UserID == 0 {
		return ErrUnauthenticated
	}
	return nil
}

// MsgAdminsOnly is the refusal of an organiser's action to anyone else.
const MsgAdminsOnly = "Only organisers can do this"

// MustBeAdmin refuses everyone but organisers.
func (a Actor) MustBeAdmin() error {
	if a.Admin {
		return nil
	}
	if !a.SignedIn() {
		return ErrUnauthenticated
	}
	return errs.E(errs.Forbidden, MsgAdminsOnly)
}

// MustCaptain refuses everyone but the captain of team in the tournament
// (and organisers, who may act for any team).
func (a Actor) MustCaptain(tournamentID int64, team string) error {
	if a.Organises(tournamentID) {
		return nil
	}
	if !a.SignedIn() {
		return ErrUnauthenticated
	}
	if t, ok := a.CaptainOf(tournamentID); ok && t == team {
		return nil
	}
	return errs.E(errs.Forbidden, "Only the captain of team %s can do this", errs.Echo(team))
}

// MayFollow tells whether the actor may follow a public topic live, and
// which internal topic that is.
func (a Actor) MayFollow(public string) (topic string, err error) {
	switch public {
	case TopicRegistrations, TopicTeams, TopicBracket, TopicDeck, TopicStreams:
		return public, nil
	case TopicUser:
		if a.UserID == 0 {
			return "", ErrUnauthenticated
		}
		return UserTopic(a.UserID), nil
	}
	if RoomOfTopic(public) != 0 {
		return public, a.MustBeUser() // members only: the hub's Guard asks the rooms
	}
	if name := TournamentOfCaptainsTopic(public); name != "" {
		if !a.SignedIn() {
			return "", ErrUnauthenticated
		}
		if !a.InCaptainsRoom(name) {
			return "", errs.E(errs.Forbidden, "topic %s: only the captains of %s and organisers may subscribe", errs.Echo(public), errs.Echo(name))
		}
		return public, nil
	}
	if public == "captains" {
		return "", errs.E(errs.NotFound, "topic captains: name the tournament's room, e.g. %s", CaptainsTopic("PPL7"))
	}
	return "", errs.E(errs.NotFound, "unknown topic: %q", errs.Echo(public))
}
