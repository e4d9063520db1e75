// Package stats holds a player's Smash Karts stats: the saved record, the
// rules a hand-entered or extracted record must pass, and the service that
// stores them.
package stats

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/errs"
)

// Messages of the seed.
const (
	MsgLoginToSave = "Please login to save your stats"
	MsgSaveFailed  = "Failed to save stats"
)

// Stats is a player's saved record (the seed's saved stats payload).
type Stats struct {
	PlayerName    string    `json:"player_name"`
	SkID          string    `json:"sk_id"`
	Level         int       `json:"level"`
	Kills         int       `json:"kills"`
	Deaths        int       `json:"deaths"`
	GamesPlayed   int       `json:"games_played"`
	KD            float64   `json:"kd"`
	CartImage     *string   `json:"cart_image"` // a /api/images URL or null
	Description   string    `json:"description"`
	Category      int       `json:"category"`
	PreferredRole string    `json:"preferred_role"`
	Verified      bool      `json:"verified"` // read from a screenshot, not typed
	UpdatedAt     time.Time `json:"updated_at"`
}

// Limits of plausible values; anything beyond is a typo or an attack.
const (
	maxLevel       = 10_000
	maxCount       = 100_000_000
	maxKD          = 1000
	maxDescription = 500
	maxName        = 40
	maxSkID        = 32
)

// SaveInput is the body of POST /api/stats/save.
type SaveInput struct {
	PlayerName    string     `json:"player_name"`
	SkID          FlexString `json:"sk_id"`
	Level         int        `json:"level"`
	Kills         int        `json:"kills"`
	Deaths        int        `json:"deaths"`
	GamesPlayed   int        `json:"games_played"`
	KD            float64    `json:"kd"`
	CartImage     *string    `json:"cart_image"`
	Description   string     `json:"description"`
	Category      int        `json:"category"`
	PreferredRole string     `json:"preferred_role"`
}

// FlexString accepts a JSON string or number (the seed sends sk_id as an
// integer, extraction gives "N/A" or "#12345").
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *FlexString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = FlexString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("must be a string or a number")
	}
	*f = FlexString(n.String())
	return nil
}

// Record validates in and returns the Stats to store (without the cart image,
// which the service resolves).
func (in SaveInput) Record(verified bool) (Stats, error) {
	s := Stats{
		PlayerName:    strings.TrimSpace(in.PlayerName),
		SkID:          NormalizeSkID(string(in.SkID)),
		Level:         in.Level,
		Kills:         in.Kills,
		Deaths:        in.Deaths,
		GamesPlayed:   in.GamesPlayed,
		KD:            in.KD,
		Description:   strings.TrimSpace(in.Description),
		Category:      in.Category,
		PreferredRole: strings.TrimSpace(in.PreferredRole),
		Verified:      verified,
	}
	if s.Category == 0 {
		s.Category = randomCategory()
	}
	if s.PreferredRole == "" {
		s.PreferredRole = "Player"
	}
	if s.KD == 0 && s.Deaths > 0 {
		s.KD = KD(s.Kills, s.Deaths)
	}
	s.KD = math.Round(s.KD*100) / 100
	return s, s.Validate()
}

// randomCategory is the seed's category for a new record: 1 to 4 at random.
func randomCategory() int { return 1 + rand.IntN(4) }

// Validate checks a record, whether typed or extracted.
func (s Stats) Validate() error {
	switch {
	case s.Level < 0 || s.Level > maxLevel:
		return errs.E(errs.Invalid, "Level must be between 0 and %d", maxLevel)
	case s.Kills < 0 || s.Kills > maxCount, s.Deaths < 0 || s.Deaths > maxCount, s.GamesPlayed < 0 || s.GamesPlayed > maxCount:
		return errs.E(errs.Invalid, "Kills, deaths and games played must be whole numbers from 0 to %d", maxCount)
	case math.IsNaN(s.KD) || s.KD < 0 || s.KD > maxKD:
		return errs.E(errs.Invalid, "K/D ratio must be between 0 and %d", maxKD)
	case s.Category < 1 || s.Category > 4:
		return errs.E(errs.Invalid, "Category must be between 1 and 4")
	case utf8.RuneCountInString(s.Description) > maxDescription:
		return errs.E(errs.Invalid, "Description must be at most %d characters", maxDescription)
	case utf8.RuneCountInString(s.PlayerName) > maxName:
		return errs.E(errs.Invalid, "Player name must be at most %d characters", maxName)
	case utf8.RuneCountInString(s.PreferredRole) > 32:
		return errs.E(errs.Invalid, "Preferred role must be at most 32 characters")
	case len(s.SkID) > maxSkID:
		return errs.E(errs.Invalid, "SK id must be at most %d characters", maxSkID)
	}
	for _, r := range s.PlayerName + s.SkID + s.Description {
		if r < 0x20 && r != '\n' {
			return errs.E(errs.Invalid, "Stats contain control characters")
		}
	}
	return nil
}

// KD is kills per death rounded to two places (kills when there are no deaths).
func KD(kills, deaths int) float64 {
	if deaths == 0 {
		return float64(kills)
	}
	return math.Round(float64(kills)/float64(deaths)*100) / 100
}

// DeriveKillsDeaths is the seed's card rule for records without extracted
// kills and deaths: kills = round(kd*games/(1+kd)), deaths = games - kills.
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

// Atoi parses an extracted numeric string: thousands separators allowed,
// anything unreadable is 0 (the seed's rule).
func Atoi(s string) int {
	s = strings.NewReplacer(",", "", " ", "", ".", "").Replace(strings.TrimSpace(s))
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Store is what the stats rules need from the database.
type Store interface {
	SaveStats(ctx context.Context, userID int64, s Stats) (Stats, error)
	FindStats(ctx context.Context, userID int64) (*Stats, error)
	// DeleteStats removes the record; Conflict while the user is registered.
	DeleteStats(ctx context.Context, userID int64) error
}
