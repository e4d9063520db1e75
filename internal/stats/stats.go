// Package stats holds the rules of a player's Smash Karts stats: saving a
// typed or read record (core.Stats, checked by its one validator), reading
// one from a screenshot, and telling the league when a card changed.
package stats

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Messages of the seed.
const (
	MsgLoginToSave = "Please login to save your stats"
	MsgSaveFailed  = "Failed to save stats"
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
func (in SaveInput) Record(verified bool) (core.Stats, error) {
	s := core.Stats{
		PlayerName:    strings.TrimSpace(in.PlayerName),
		SkID:          core.NormalizeSkID(string(in.SkID)),
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
	if s.PreferredRole == "" {
		s.PreferredRole = "Player"
	}
	if s.KD == 0 && (s.Kills > 0 || s.Deaths > 0) {
		s.KD = core.KD(s.Kills, s.Deaths)
	}
	s.KD = math.Round(s.KD*100) / 100
	// The card's category is the player's tier, the server's to work out
	// (the seed's random pick is ignored, though still accepted).
	if in.Category != 0 && (in.Category < 1 || in.Category > core.Tiers) {
		return s, errs.E(errs.Invalid, "Category must be between 1 and %d", core.Tiers)
	}
	s.Category = core.TierOf(s)
	return s, s.Validate()
}

// Store is what the stats rules need from the database.
type Store interface {
	SaveStats(ctx context.Context, userID int64, s core.Stats) (core.Stats, error)
	FindStats(ctx context.Context, userID int64) (*core.Stats, error)
	// DeleteStats removes the record; Conflict while the user is registered.
	DeleteStats(ctx context.Context, userID int64) error
	// HoldReading notes that reader's reading was held for the player to
	// confirm; TakeHeld answers the reader of one held since since, and
	// forgets it ("" for none).
	HoldReading(ctx context.Context, userID int64, reader string) error
	TakeHeld(ctx context.Context, userID int64, since time.Time) (string, error)
}
