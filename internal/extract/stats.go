package extract

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
)

var (
	plainInt   = regexp.MustCompile(`^\d+$`)
	groupedInt = regexp.MustCompile(`^\d{1,3}([,. '\x{2009}\x{202F}]\d{3})+$`)
	decimal    = regexp.MustCompile(`^\d+(\.\d+)?$`)
)

// What the figures' reading holds to:
const (
	// kdDecimals is how many decimals the K/D is written with; a comma
	// with at most this many digits after it is a decimal comma.
	kdDecimals = 2
	// maxCountDigits is the most digits a count read may have.
	maxCountDigits = 12
	// kdSlack is how far a shown K/D may be from kills/deaths: a
	// hundredth either way (rounded or truncated), and a hair for the
	// floating point.
	kdSlack = 0.0101
)

// cleanInt turns "12,345", "12 345", "12.345" or "12345" into "12345";
// anything else comes back unchanged, to count as not read.
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
		if i := strings.IndexByte(s, ','); len(s)-i-1 <= kdDecimals {
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

func formatKD(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', kdDecimals, 64)
}

// computeKD is kills/deaths rounded to two decimals; with no deaths the
// game shows the kills themselves.
func computeKD(kills, deaths int64) string { return formatKD(core.KD(int(kills), int(deaths))) }

// Normalize trims every field, removes thousands separators and a leading
// '#' from the id, writes the K/D with two decimals and computes it from
// kills and deaths when it is missing. It never invents other values.
func (s raw) Normalize() raw {
	s.DiscordUsername = strings.TrimSpace(s.DiscordUsername)
	s.Level = cleanInt(s.Level)
	s.Kills = cleanInt(s.Kills)
	s.Deaths = cleanInt(s.Deaths)
	s.TotalGames = cleanInt(s.TotalGames)
	s.Wins = cleanInt(s.Wins)
	s.BotsKills = cleanInt(s.BotsKills)
	s.SkID = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.SkID), "#"))
	if strings.EqualFold(s.SkID, "n/a") {
		s.SkID = ""
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

func parseCount(s string) (int64, bool) {
	if !plainInt.MatchString(s) || len(s) > maxCountDigits {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// kdMatches tells whether a shown K/D fits kills and deaths. Screens round
// or truncate to two decimals, so a hundredth either way is allowed. With
// no deaths a screen shows the kills, or 0 when nothing is known.
func kdMatches(kd float64, kills, deaths int64) bool {
	if deaths == 0 {
		return kd == 0 || math.Abs(kd-float64(kills)) <= kdSlack
	}
	return math.Abs(kd-float64(kills)/float64(deaths)) <= kdSlack
}

// reading turns the normalised strings into figures, once: a field that is
// not a number the screen could show counts as not read.
func (s raw) reading() core.Reading {
	var r core.Reading
	if name := strings.TrimSpace(s.DiscordUsername); name != "" {
		r.SetText(core.FieldName, name)
	}
	if s.SkID != "" {
		r.SetText(core.FieldSkID, s.SkID)
	}
	for _, c := range []struct {
		f core.Field
		v string
	}{{core.FieldLevel, s.Level}, {core.FieldKills, s.Kills}, {core.FieldDeaths, s.Deaths}, {core.FieldGames, s.TotalGames},
		{core.FieldWins, s.Wins}, {core.FieldBotsKills, s.BotsKills}} {
		if n, ok := parseCount(c.v); ok && n <= math.MaxInt32 {
			r.Set(c.f, int(n))
		}
	}
	if decimal.MatchString(s.KDRatio) {
		if kd, err := strconv.ParseFloat(s.KDRatio, 64); err == nil {
			r.SetKD(kd)
		}
	}
	return r
}
