package metrics

import "time"

// Steps of the funnel, in the order a player takes them: an account, its
// e-mail verified (a code, or Google), a Discord username (typed or
// proven), stats (read from a screenshot or typed), registered for the
// tournament, checked in (when its check-in window opened).
const (
	StepSignedUp   = "signed_up"
	StepVerified   = "verified"
	StepDiscord    = "discord"
	StepStats      = "stats"
	StepRegistered = "registered"
	StepCheckedIn  = "checked_in"
)

// StepLabels are the steps as the dashboard names them, in order.
var StepLabels = []struct{ Step, Label string }{
	{StepSignedUp, "Signed up"},
	{StepVerified, "E-mail verified"},
	{StepDiscord, "Discord linked"},
	{StepStats, "Stats uploaded"},
	{StepRegistered, "Registered"},
	{StepCheckedIn, "Checked in"},
}

// FunnelQuery is whose funnel is read: the accounts made since Since (not
// deleted, not organisers'), against one tournament's registrations.
type FunnelQuery struct {
	TournamentID int64
	Since        time.Time
	// Organisers are the organisers' addresses (ADMIN_EMAILS): their
	// accounts run the league, they are not its players.
	Organisers []string
	// CheckinOpened: the tournament opened a check-in window, so a
	// confirmed player who has not checked in is stuck there.
	CheckinOpened bool
}

// FunnelStep is one step: how many accounts have taken it, how many stopped
// just before it (took every step before, not this one), how long it took
// them from the step before (the median, in seconds), and a breakdown
// (Discord: typed or proven; stats: how they were taken; registered:
// confirmed or waitlisted).
type FunnelStep struct {
	Step          string         `json:"step"`
	Label         string         `json:"label"`
	Count         int            `json:"count"`
	Stuck         int            `json:"stuck"`
	MedianSeconds *float64       `json:"median_seconds"`
	Detail        map[string]int `json:"detail,omitempty"`
	Open          bool           `json:"open"` // false: the step does not apply yet (no check-in window)
}

// Funnel is the read funnel, Steps in order, with the accounts of the same
// window deleted since, counted apart (they are in no step).
type Funnel struct {
	Steps   []FunnelStep `json:"steps"`
	Deleted int          `json:"deleted"`
}

// Step is the named step, or nil.
func (f Funnel) Step(name string) *FunnelStep {
	for i := range f.Steps {
		if f.Steps[i].Step == name {
			return &f.Steps[i]
		}
	}
	return nil
}

// Count is the named step's count (0 when absent).
func (f Funnel) Count(name string) int {
	if s := f.Step(name); s != nil {
		return s.Count
	}
	return 0
}

// FunnelDay is how many accounts took each step on one day (UTC).
type FunnelDay struct {
	Day   string         `json:"day"` // 2026-11-28
	Steps map[string]int `json:"steps"`
}

// StuckPlayer is an account stopped before a step: named as the league
// names players (a proven Discord username, else the account's own name,
// which the page marks unverified), never by e-mail.
type StuckPlayer struct {
	UserID          int64      `json:"user_id"`
	Name            string     `json:"name"`
	DiscordVerified bool       `json:"discord_verified"`
	Since           time.Time  `json:"since"` // when they took the step before
	Reach           []string   `json:"reach"` // the channels a reminder would take (empty: none reaches them)
	RemindedAt      *time.Time `json:"reminded_at"`
}

// MaxStuckListed bounds the players listed per step (the oldest first).
const MaxStuckListed = 50
