// The auction's flow: pausing and resuming its clocks, and the captains'
// nomination turns (docs/league.md, "The auction's flow"). The rules here
// are pure; pause.go and turns.go apply them.

package auction

import (
	"strings"
	"time"
)

// Flow is how the auction of a tournament runs: paused or not, and whose
// turn it is to nominate when captains nominate in turn.
type Flow struct {
	Paused   bool       `json:"paused"`
	PausedAt *time.Time `json:"paused_at"`
	// TurnSeconds is how long a captain has to nominate; 0 while
	// organisers open every lot.
	TurnSeconds int `json:"turn_seconds"`
	// Turn is the letter of the team whose turn it is, or "" (turns off,
	// or no team left with a captain and a free slot).
	Turn string `json:"turn"`
	// TurnEndsAt is when the turn runs out; nil while a lot is open (the
	// turn waits for it) and while paused (TurnLeftMs keeps its time).
	TurnEndsAt *time.Time `json:"turn_ends_at"`
	TurnLeftMs *int64     `json:"turn_left_ms"`
}

// Turns says whether captains nominate in turn.
func (f Flow) Turns() bool { return f.TurnSeconds > 0 }

// The nomination turns' figures.
const (
	TurnTime    = 30 * time.Second // a captain's time to nominate, unless the organiser sets another
	MinTurnTime = 5 * time.Second
	MaxTurnTime = 10 * time.Minute
)

// TurnFrom is the team whose turn comes at or after letter start, in
// letter order and round again from A: the first with a captain and a
// free slot, or "" when no team has both. Every team's turn comes once a
// round, the same order every round (round robin: in an auction every
// team bids on every lot, so nominating first is no edge to balance with
// a snake order).
func TurnFrom(teams []Team, start string) string {
	from := strings.Index(Letters, start)
	if from < 0 {
		from = 0
	}
	for i := range len(Letters) {
		letter := string(Letters[(from+i)%len(Letters)])
		if t, ok := teamOf(teams, letter); ok && t.Captain != nil && t.FreeSlots > 0 {
			return letter
		}
	}
	return ""
}

// After is the letter after letter, round again from A.
func After(letter string) string {
	i := strings.Index(Letters, letter)
	return string(Letters[(i+1)%len(Letters)])
}

// TimeLeft is what is left of a countdown ending at endsAt, at now.
func TimeLeft(endsAt, now time.Time) time.Duration {
	return max(endsAt.Sub(now), 0)
}

// Strongest is the player the league nominates for a captain out of time:
// the pool's first (Store.Pool lists it strongest tier first).
func Strongest(pool []PlayerRef) (PlayerRef, bool) {
	if len(pool) == 0 {
		return PlayerRef{}, false
	}
	return pool[0], true
}

// ms is d in milliseconds, as the flow stores a paused countdown.
func ms(d time.Duration) *int64 {
	v := d.Milliseconds()
	return &v
}

// Messages of the auction flow's refusals.
const (
	MsgPaused      = "The auction is paused: bids and new lots wait until an organiser resumes it."
	MsgNotPaused   = "The auction is not paused."
	MsgCaptainsNom = "Only captains nominate."
)
