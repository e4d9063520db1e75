package core

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field names one figure of a stats screen.
type Field string

// The figures a stats screen can show. Wins are read only to check games.
const (
	FieldName   Field = "name"
	FieldSkID   Field = "sk_id"
	FieldLevel  Field = "level"
	FieldKills  Field = "kills"
	FieldDeaths Field = "deaths"
	FieldGames  Field = "games"
	FieldKD     Field = "kd"
	FieldWins   Field = "wins"
	// FieldBotsKills is the game's "Bots Kills": kills of computer karts,
	// which are not kills. Read so that it is never taken for them.
	FieldBotsKills Field = "bots_kills"
)

// Reading is what a reader found on a stats screenshot: the figures it
// read (a screen need not show them all), and the ones it is unsure of.
type Reading struct {
	Name   string
	SkID   string
	Level  int
	Kills  int
	Deaths int
	Games  int
	Wins   int
	KD     float64
	// BotsKills is read only to be told apart from kills.
	BotsKills int

	// Found holds the fields the reader read; the others are zero.
	Found map[Field]bool
	// Doubt holds the fields a player must confirm, with the reason.
	Doubt map[Field]string
	// Confidence says, from 0 to 1, how sure the reader is of each field
	// it read; a reader that cannot tell (Gemini) leaves it empty.
	Confidence map[Field]float64
	// Proposed holds the figures the screen's arithmetic worked out
	// rather than the reader read (each is also in Doubt, with the reason):
	// never saved before the player confirms them.
	Proposed map[Field]bool

	// Reader is the reader that read it (SourceGemini or SourceOffline).
	Reader string

	// Photo says the figures were read off a photo of a screen (its panel
	// straightened and resampled): each is held unless read clearly.
	Photo bool

	// CartImage is the kart alone, when the reader could cut it out.
	CartImage     []byte
	CartImageType string
}

// MsgUnreadable answers a screenshot a reader broke on (a panic: a bug met
// on an image nobody foresaw): the player is told to type their stats
// instead of seeing an empty server error.
const MsgUnreadable = "We could not read this screenshot — please enter your stats"

// Has tells whether the reader read f.
func (r Reading) Has(f Field) bool { return r.Found[f] }

// Set records a value read for f.
func (r *Reading) Set(f Field, v int) {
	if p := r.count(f); p != nil {
		*p = v
		r.mark(f)
	}
}

// Count is the value of a count f (0 for the K/D and the texts).
func (r Reading) Count(f Field) int {
	if p := r.count(f); p != nil {
		return *p
	}
	return 0
}

// count is where r keeps the count f, nil for the K/D and the texts.
func (r *Reading) count(f Field) *int {
	switch f {
	case FieldLevel:
		return &r.Level
	case FieldKills:
		return &r.Kills
	case FieldDeaths:
		return &r.Deaths
	case FieldGames:
		return &r.Games
	case FieldWins:
		return &r.Wins
	case FieldBotsKills:
		return &r.BotsKills
	}
	return nil
}

// SetKD records the K/D read.
func (r *Reading) SetKD(kd float64) { r.KD = kd; r.mark(FieldKD) }

// SetText records the name or the SK id read.
func (r *Reading) SetText(f Field, s string) {
	switch f {
	case FieldName:
		r.Name = s
	case FieldSkID:
		r.SkID = s
	default:
		return
	}
	r.mark(f)
}

func (r *Reading) mark(f Field) {
	if r.Found == nil {
		r.Found = map[Field]bool{}
	}
	r.Found[f] = true
}

// SetConfidence records how sure the reader is of f, from 0 to 1.
func (r *Reading) SetConfidence(f Field, c float64) {
	if r.Confidence == nil {
		r.Confidence = map[Field]float64{}
	}
	r.Confidence[f] = math.Round(min(1, max(0, c))*100) / 100
}

// Doubts marks f as needing the player's confirmation.
func (r *Reading) Doubts(f Field, why string) {
	if r.Doubt == nil {
		r.Doubt = map[Field]string{}
	}
	if _, ok := r.Doubt[f]; !ok {
		r.Doubt[f] = why
	}
}

// Check applies the rules every reading must pass before it may be saved
// without the player's say: each figure within the limits of Stats, a K/D
// that is kills/deaths, no more wins than games. What fails is marked
// doubtful, not dropped: the player sees it and decides. The checks are the
// same whichever reader made the reading.
func (r *Reading) Check() {
	counts := []struct {
		f   Field
		v   int
		max int
	}{
		{FieldLevel, r.Level, MaxLevel}, {FieldKills, r.Kills, MaxCount}, {FieldDeaths, r.Deaths, MaxCount},
		{FieldGames, r.Games, MaxCount}, {FieldWins, r.Wins, MaxCount}, {FieldBotsKills, r.BotsKills, MaxCount},
	}
	for _, c := range counts {
		if r.Has(c.f) && (c.v < 0 || c.v > c.max) {
			r.Doubts(c.f, "out of range")
		}
	}
	if r.Has(FieldKD) && (math.IsNaN(r.KD) || r.KD < 0 || r.KD > MaxKD) {
		r.Doubts(FieldKD, "out of range")
	}
	misread := r.balance()
	if r.Has(FieldWins) && r.Has(FieldGames) && r.Wins > r.Games {
		r.Doubts(FieldWins, "more wins than games")
		r.Doubts(FieldGames, "more wins than games")
	}
	if r.Has(FieldName) && !plainName(r.Name) {
		r.Doubts(FieldName, "not a player name")
	}
	if r.Has(FieldSkID) && (len(r.SkID) > MaxSkID || !skIDPattern.MatchString(r.SkID)) {
		r.Doubts(FieldSkID, "not an SK id")
	}
	r.standTogether(misread)
}

// Figures reports whether any figure (not just a name or an id) was read.
func (r Reading) Figures() bool {
	for _, f := range []Field{FieldLevel, FieldKills, FieldDeaths, FieldGames, FieldKD} {
		if r.Has(f) {
			return true
		}
	}
	return false
}

// Stats turns the reading into a record: the K/D follows from kills and
// deaths when both were read, and what the screen did not show stays zero.
func (r Reading) Stats() Stats {
	s := Stats{
		PlayerName: strings.TrimSpace(r.Name), SkID: NormalizeSkID(r.SkID),
		Level: r.Level, Kills: r.Kills, Deaths: r.Deaths, GamesPlayed: r.Games, KD: r.KD,
	}
	if r.Has(FieldKills) && r.Has(FieldDeaths) {
		s.KD = KD(r.Kills, r.Deaths)
	}
	s.KD = math.Round(s.KD*100) / 100
	return s
}

func plainName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > MaxPlayerName || !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

// Defaults the seed gives the figures a screen did not show, in its
// answer to an upload.
const (
	DefaultName  = "Player"
	DefaultLevel = "1"
	DefaultCount = "0"
	DefaultSkID  = "N/A"
	DefaultKD    = "0.00"
)

// Extracted is the answer to an upload: the figures as strings, the
// seed's defaults for what was not read, the kart as a URL, and (ours) the
// fields the player must confirm before the stats are saved.
type Extracted struct {
	DiscordUsername string            `json:"discord_username"`
	Level           string            `json:"level"`
	Kills           string            `json:"kills"`
	Deaths          string            `json:"deaths"`
	TotalGames      string            `json:"total_games"`
	SkID            string            `json:"sk_id"`
	KDRatio         string            `json:"kd_ratio"`
	CartImage       *string           `json:"cart_image"`
	Doubtful        map[string]string `json:"doubtful,omitempty"`

	// Ours, beyond the seed: the screen's other figures, shown to the
	// player as they confirm (wins are not games, bots' kills are not
	// kills); how sure the reader is of each field (0 to 1), when it can
	// tell; and the fields the screen did not show, which the player may
	// type (their values above are the seed's defaults).
	Wins       string             `json:"wins,omitempty"`
	BotsKills  string             `json:"bots_kills,omitempty"`
	Confidence map[string]float64 `json:"confidence,omitempty"`
	Missing    []string           `json:"missing,omitempty"`
	// Proposed are the figures worked out from the others by the screen's
	// arithmetic rather than read (each is in Doubtful, with the reason).
	Proposed []string `json:"proposed,omitempty"`
}

// Extracted renders the reading as the seed's answer.
func (r Reading) Extracted(cartImage *string) Extracted {
	s := r.Stats()
	count := func(f Field, v int, def string) string {
		if !r.Has(f) {
			return def
		}
		return strconv.Itoa(v)
	}
	out := Extracted{
		DiscordUsername: DefaultName,
		Level:           count(FieldLevel, s.Level, DefaultLevel),
		Kills:           count(FieldKills, s.Kills, DefaultCount),
		Deaths:          count(FieldDeaths, s.Deaths, DefaultCount),
		TotalGames:      count(FieldGames, s.GamesPlayed, DefaultCount),
		SkID:            DefaultSkID,
		KDRatio:         DefaultKD,
		CartImage:       cartImage,
	}
	if s.PlayerName != "" {
		out.DiscordUsername = s.PlayerName
	}
	if s.SkID != "" {
		out.SkID = s.SkID
	}
	// The K/D the screen showed (or the arithmetic proposed), as it was:
	// one worked out from misread kills would hide the figure that tells
	// which of the three is wrong.
	switch {
	case r.Has(FieldKD):
		out.KDRatio = strconv.FormatFloat(math.Round(r.KD*100)/100, 'f', 2, 64)
	case r.Has(FieldKills) && r.Has(FieldDeaths):
		out.KDRatio = strconv.FormatFloat(s.KD, 'f', 2, 64)
	}
	if r.Has(FieldWins) {
		out.Wins = strconv.Itoa(r.Wins)
	}
	if r.Has(FieldBotsKills) {
		out.BotsKills = strconv.Itoa(r.BotsKills)
	}
	for _, f := range []Field{FieldName, FieldLevel, FieldKills, FieldDeaths, FieldGames, FieldSkID, FieldKD} {
		if !r.Has(f) && !(f == FieldKD && r.Has(FieldKills) && r.Has(FieldDeaths)) {
			out.Missing = append(out.Missing, string(f))
		}
	}
	for f, c := range r.Confidence {
		if out.Confidence == nil {
			out.Confidence = map[string]float64{}
		}
		out.Confidence[string(f)] = c
	}
	for _, f := range []Field{FieldKills, FieldDeaths, FieldKD} {
		if r.Proposed[f] {
			out.Proposed = append(out.Proposed, string(f))
		}
	}
	for f, why := range r.Doubt {
		if out.Doubtful == nil {
			out.Doubtful = map[string]string{}
		}
		out.Doubtful[string(f)] = why
	}
	return out
}
