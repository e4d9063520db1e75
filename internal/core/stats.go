package core

import (
	"math"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/errs"
)

// Stats is a player's Smash Karts record as Pitlane keeps it: the figures of
// the in-game stats screen and what the player says of themselves. The
// screenshot reader, the save and the API all go through this one model and
// its one validator.
type Stats struct {
	PlayerName    string  `json:"player_name"`
	SkID          string  `json:"sk_id"`
	Level         int     `json:"level"`
	Kills         int     `json:"kills"`
	Deaths        int     `json:"deaths"`
	GamesPlayed   int     `json:"games_played"`
	KD            float64 `json:"kd"`
	CartImage     *string `json:"cart_image"` // a /api/images URL or null
	Description   string  `json:"description"`
	Category      int     `json:"category"` // the player's tier, 1 (strongest) to 4
	PreferredRole string  `json:"preferred_role"`
	Verified      bool    `json:"verified"` // read from a screenshot, not typed
	// Source is how the figures were taken (the funnel's breakdown):
	// SourceTyped, SourceGemini, SourceOffline or SourceConfirmed.
	Source    string    `json:"-"`
	UpdatedAt time.Time `json:"updated_at"`
}

// How a record's figures were taken: typed by the player, read from a
// screenshot by Gemini or by the offline reader, or read, held for the
// player (a doubtful figure) and confirmed by their save.
const (
	SourceTyped     = "typed"
	SourceGemini    = "gemini"
	SourceOffline   = "offline"
	SourceConfirmed = "confirmed"
)

// Limits of a record. A real player stays far inside them (levels run in
// the hundreds, the keenest count kills in the hundreds of thousands), and
// every stored value fits its column: K/D is at most the kills (no deaths),
// kept as numeric(10,2).
const (
	MaxLevel       = 10_000
	MaxCount       = 10_000_000 // kills, deaths, games
	MaxKD          = MaxCount
	MaxPlayerName  = 40
	MaxSkID        = 32
	MaxDescription = 500
	MaxRole        = 32
)

var skIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)

// Validate checks a record, however it was made. Errors are errs.Invalid
// and name the field.
func (s Stats) Validate() error {
	switch {
	case s.Level < 0 || s.Level > MaxLevel:
		return errs.E(errs.Invalid, "Level must be between 0 and %d", MaxLevel)
	case s.Kills < 0 || s.Kills > MaxCount, s.Deaths < 0 || s.Deaths > MaxCount, s.GamesPlayed < 0 || s.GamesPlayed > MaxCount:
		return errs.E(errs.Invalid, "Kills, deaths and games played must be whole numbers from 0 to %d", MaxCount)
	case math.IsNaN(s.KD) || s.KD < 0 || s.KD > MaxKD:
		return errs.E(errs.Invalid, "K/D ratio must be between 0 and %d", MaxKD)
	case (s.Kills > 0 || s.Deaths > 0) && !KDMatches(s.KD, s.Kills, s.Deaths):
		return errs.E(errs.Invalid, "K/D ratio %.2f does not match %d kills and %d deaths", s.KD, s.Kills, s.Deaths)
	case s.Category < 1 || s.Category > 4:
		return errs.E(errs.Invalid, "Category must be between 1 and 4")
	case utf8.RuneCountInString(s.Description) > MaxDescription:
		return errs.E(errs.Invalid, "Description must be at most %d characters", MaxDescription)
	case utf8.RuneCountInString(s.PlayerName) > MaxPlayerName:
		return errs.E(errs.Invalid, "Player name must be at most %d characters", MaxPlayerName)
	case utf8.RuneCountInString(s.PreferredRole) > MaxRole:
		return errs.E(errs.Invalid, "Preferred role must be at most %d characters", MaxRole)
	case len(s.SkID) > MaxSkID || !skIDPattern.MatchString(s.SkID):
		return errs.E(errs.Invalid, "SK id must be up to %d letters and digits", MaxSkID)
	}
	for _, r := range s.PlayerName + s.PreferredRole {
		if !unicode.IsPrint(r) {
			return errs.E(errs.Invalid, "Stats contain control characters")
		}
	}
	for _, r := range s.Description {
		if r < 0x20 && r != '\n' {
			return errs.E(errs.Invalid, "Stats contain control characters")
		}
	}
	return nil
}

// KD is kills per death rounded to two places; with no deaths the game
// shows the kills themselves.
func KD(kills, deaths int) float64 {
	if deaths == 0 {
		return float64(kills)
	}
	return math.Round(float64(kills)/float64(deaths)*100) / 100
}

// KDMatches tells whether a shown K/D fits kills and deaths. Screens round or
// truncate to two places, so a hundredth either way is allowed.
func KDMatches(kd float64, kills, deaths int) bool {
	return math.Abs(kd-KD(kills, deaths)) <= 0.0101 ||
		(deaths > 0 && math.Abs(kd-float64(kills)/float64(deaths)) <= 0.0101)
}

// DeriveKillsDeaths is the seed's card rule for records without kills and
// deaths: kills = round(kd*games/(1+kd)), deaths = games - kills.
func DeriveKillsDeaths(kd float64, games int) (kills, deaths int) {
	kills = int(math.Round(kd * float64(games) / (1 + kd)))
	return kills, games - kills
}

// NormalizeSkID trims "#" and spaces; "N/A" and empty stay empty.
func NormalizeSkID(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "#"))
	if strings.EqualFold(s, "N/A") {
		return ""
	}
	return s
}
