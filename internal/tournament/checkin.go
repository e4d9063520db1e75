package tournament

import (
	"fmt"
	"time"
)

// Registration statuses: a confirmed player counts against the cap and may
// be put up in the auction; a waitlisted one waits for a place.
const (
	Confirmed  = "confirmed"
	Waitlisted = "waitlisted"
)

// Limits of the registration's settings.
const (
	MaxCap = 1000
	// CheckinAhead is how far ahead a check-in's deadline may be set.
	CheckinAhead = 14 * 24 * time.Hour
)

// Checkin is a season's check-in window: opened by an organiser before the
// auction with a deadline, closed at the deadline (CloseCheckin), when the
// players who did not check in go to the waitlist.
type Checkin struct {
	OpenedAt *time.Time `json:"opened_at"`
	Deadline *time.Time `json:"deadline"`
	ClosedAt *time.Time `json:"closed_at"`
}

// States of a check-in window.
const (
	CheckinNone    = "none"    // no window
	CheckinOpen    = "open"    // players check in until the deadline
	CheckinClosing = "closing" // past its deadline, its job about to close it
	CheckinClosed  = "closed"  // closed: the no-shows are on the waitlist
)

// State is the window's state at now.
func (c Checkin) State(now time.Time) string {
	switch {
	case c.ClosedAt != nil:
		return CheckinClosed
	case c.Deadline == nil:
		return CheckinNone
	case now.Before(*c.Deadline):
		return CheckinOpen
	}
	return CheckinClosing
}

// Pending tells a window that has a deadline and has not closed yet.
func (c Checkin) Pending() bool { return c.Deadline != nil && c.ClosedAt == nil }

// Places is a season's registration at one moment: its cap (0: none), its
// confirmed and waiting players, how many checked in, and its check-in.
type Places struct {
	Cap        int     `json:"cap"`
	Confirmed  int     `json:"confirmed"`
	Waitlisted int     `json:"waitlisted"`
	CheckedIn  int     `json:"checked_in"`
	Checkin    Checkin `json:"checkin"`
	// CheckinState is Checkin's state when the places were read.
	CheckinState string `json:"checkin_state"`
}

// Admission is where a new registration goes: confirmed while the season
// has a place and its check-in has not closed, else the waitlist.
func Admission(t Tournament, confirmed int) string {
	if t.Checkin.ClosedAt != nil || !HasPlace(t, confirmed) {
		return Waitlisted
	}
	return Confirmed
}

// HasPlace tells whether one more player may be confirmed.
func HasPlace(t Tournament, confirmed int) bool { return t.Cap == 0 || confirmed < t.Cap }

// PromotesInOrder tells whether the waitlist moves up by itself as places
// free (an unregistration, a higher cap): under a cap, until the check-in
// has closed. After it, the confirmed list is the organisers' to complete,
// by hand, from the players who turn up.
func PromotesInOrder(t Tournament) bool { return t.Cap > 0 && t.Checkin.ClosedAt == nil }

// PromotionChecksIn tells whether a player promoted now counts as checked
// in: once the check-in has closed, the organiser's promotion is their
// check-in.
func PromotionChecksIn(t Tournament) bool { return t.Checkin.ClosedAt != nil }

// When is a moment as messages give it, in UTC: "Sat 28 Nov 19:30 UTC".
func When(at time.Time) string { return at.UTC().Format("Mon 2 Jan 15:04 UTC") }

// Entry is one player's registration: confirmed or on the waitlist (Place
// from 1), and their check-in.
type Entry struct {
	Tournament  string     `json:"tournament"`
	Registered  bool       `json:"registered"`
	Status      string     `json:"status,omitempty"`
	Place       int        `json:"waitlist_place,omitempty"`
	CheckedInAt *time.Time `json:"checked_in_at,omitempty"`
	Message     string     `json:"message,omitempty"`
}

// Messages of the waitlist and the check-in.
const (
	MsgWaitlistFull     = "%s is full: you are on the waitlist, place %d. You move up in order when a place frees."
	MsgWaitlistAfter    = "Check-in for %s has closed: you are on the waitlist, place %d; an organiser may promote you."
	MsgCheckedIn        = "You are checked in for %s."
	MsgCheckedInAlready = "You are checked in for %s already."
	MsgCheckedInWaiting = "You are checked in for %s, on the waitlist at place %d: an organiser may promote you."
	MsgCheckinNotOpen   = "Check-in for %s is not open."
	MsgCheckinClosed    = "Check-in for %s closed at %s."
)

// checkinRefusal says why nobody may check in to t at now, or "".
func checkinRefusal(t Tournament, now time.Time) string {
	switch t.Checkin.State(now) {
	case CheckinOpen:
		return ""
	case CheckinNone:
		return fmt.Sprintf(MsgCheckinNotOpen, t.Name)
	}
	return fmt.Sprintf(MsgCheckinClosed, t.Name, When(*t.Checkin.Deadline))
}
