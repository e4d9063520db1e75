package extract

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/errs"
)

// Defaults the seed gives fields a screen does not show.
const (
	DefaultName  = "Player"
	DefaultLevel = "1"
	DefaultCount = "0"
	DefaultSkID  = "N/A"
	DefaultKD    = "0.00"
)

// Bounds beyond which a value is a misreading, not a player. Smash Karts
// levels are in the hundreds and the keenest players count kills in the
// hundreds of thousands; the bounds leave ample room above that.
const (
	MaxLevel  = 9999
	MaxKills  = 100_000_000
	MaxDeaths = 100_000_000
	MaxGames  = 10_000_000
	MaxKD     = 100_000
	maxName   = 32
	maxSkID   = 32
)

// Values are Stats as numbers, the form the stats payload saves.
type Values struct {
	Level, Kills, Deaths, GamesPlayed int64
	KD                                float64
	SkID                              string // "N/A" when unknown
}

var (
	plainInt   = regexp.MustCompile(`^\d+$`)
	groupedInt = regexp.MustCompile(`^\d{1,3}([,. '\x{2009}\x{202F}]\d{3})+$`)
	decimal    = regexp.MustCompile(`^\d+(\.\d+)?$`)
	skIDChars  = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// cleanInt turns "12,345", "12 345", "12.345" or "12345" into "12345";
// anything else comes back unchanged so Validate can refuse it.
func cleanInt(s string) string {
	s = strings.TrimSpace(s)
	if groupedInt.MatchString(s) {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	if plainInt.MatchString(s) {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.FormatInt(n, 10) // drops leading zeros
		}
	}
	return s
}

// cleanKD turns "1,5", "1.5" or "1.234" into two decimals ("1.50", "1.23").
func cleanKD(s string) string {
	s = strings.TrimSpace(s)
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		if i := strings.IndexByte(s, ','); len(s)-i-1 <= 2 {
			s = strings.Replace(s, ",", ".", 1) // a decimal comma
		}
	}
	s = strings.ReplaceAll(s, ",", "")
	if !decimal.MatchString(s) {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return formatKD(f)
}

func formatKD(f float64) string { return strconv.FormatFloat(math.Round(f*100)/100, 'f', 2, 64) }

// computeKD is kills/deaths rounded to two decimals; with no deaths the
// game shows the kills themselves.
func computeKD(kills, deaths int64) string {
	if deaths == 0 {
		return formatKD(float64(kills))
	}
	return formatKD(float64(kills) / float64(deaths))
}

// Normalize trims every field, removes thousands separators and a leading
// '#' from the id, writes the K/D with two decimals and computes it from
// kills and deaths when it is missing. It never invents other values.
func (s Stats) Normalize() Stats {
	s.DiscordUsername = strings.TrimSpace(s.DiscordUsername)
	s.Level = cleanInt(s.Level)
	s.Kills = cleanInt(s.Kills)
	s.Deaths = cleanInt(s.Deaths)
	s.TotalGames = cleanInt(s.TotalGames)
	s.SkID = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.SkID), "#"))
	if strings.EqualFold(s.SkID, "n/a") {
		s.SkID = DefaultSkID
	}
	s.KDRatio = cleanKD(s.KDRatio)
	if s.KDRatio == "" {
		k, okK := parseCount(s.Kills)
		d, okD := parseCount(s.Deaths)
		if okK && okD {
			s.KDRatio = computeKD(k, d)
		}
	}
	return s
}

// WithDefaults fills empty fields with the seed's defaults (Player, 1, 0,
// 0, N/A, 0.00; total games 0), computing the K/D when kills and deaths
// are known.
func (s Stats) WithDefaults() Stats {
	s = s.Normalize()
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	def(&s.DiscordUsername, DefaultName)
	def(&s.Level, DefaultLevel)
	def(&s.Kills, DefaultCount)
	def(&s.Deaths, DefaultCount)
	def(&s.TotalGames, DefaultCount)
	def(&s.SkID, DefaultSkID)
	if s.KDRatio == "" {
		s = s.Normalize()
	}
	def(&s.KDRatio, DefaultKD)
	return s
}

func parseCount(s string) (int64, bool) {
	if !plainInt.MatchString(s) || len(s) > 12 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// Validate checks normalized stats before they are saved: every number a
// non-negative whole number within bounds, the K/D a decimal that matches
// kills/deaths (to the display's two decimals), a printable name and a
// plain id. Errors are errs.Invalid naming the field.
func (s Stats) Validate() error {
	_, err := s.Values()
	return err
}

// Values validates s (see Validate) and returns it as numbers.
func (s Stats) Values() (Values, error) {
	var v Values
	invalid := func(format string, args ...any) (Values, error) {
		return Values{}, errs.E(errs.Invalid, format, args...)
	}
	name := s.DiscordUsername
	if name == "" || utf8.RuneCountInString(name) > maxName || !utf8.ValidString(name) ||
		strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return invalid("discord_username must be 1 to %d printable characters", maxName)
	}
	counts := []struct {
		field, value string
		max          int64
		dst          *int64
	}{
		{"level", s.Level, MaxLevel, &v.Level},
		{"kills", s.Kills, MaxKills, &v.Kills},
		{"deaths", s.Deaths, MaxDeaths, &v.Deaths},
		{"total_games", s.TotalGames, MaxGames, &v.GamesPlayed},
	}
	for _, c := range counts {
		n, ok := parseCount(c.value)
		if !ok || n > c.max {
			return invalid("%s must be a whole number from 0 to %d", c.field, c.max)
		}
		*c.dst = n
	}
	if s.SkID != DefaultSkID && (len(s.SkID) > maxSkID || !skIDChars.MatchString(s.SkID)) {
		return invalid("sk_id must be N/A or up to %d letters and digits", maxSkID)
	}
	v.SkID = s.SkID
	if !decimal.MatchString(s.KDRatio) {
		return invalid("kd_ratio must be a decimal number")
	}
	kd, err := strconv.ParseFloat(s.KDRatio, 64)
	if err != nil || kd > MaxKD {
		return invalid("kd_ratio must be a decimal number from 0 to %d", MaxKD)
	}
	v.KD = kd
	if !kdMatches(kd, v.Kills, v.Deaths) {
		return invalid("kd_ratio %s does not match %d kills and %d deaths", s.KDRatio, v.Kills, v.Deaths)
	}
	return v, nil
}

// kdMatches tells whether a shown K/D fits kills and deaths. Screens round
// or truncate to two decimals, so a hundredth either way is allowed. With
// no deaths a screen shows the kills, or 0 when nothing is known.
func kdMatches(kd float64, kills, deaths int64) bool {
	if deaths == 0 {
		return kd == 0 || math.Abs(kd-float64(kills)) <= 0.0101
	}
	return math.Abs(kd-float64(kills)/float64(deaths)) <= 0.0101
}
