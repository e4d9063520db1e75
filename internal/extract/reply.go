package extract

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var fence = regexp.MustCompile("(?s)```[A-Za-z]*\\s*(.*?)```")

// parseReply reads the text model's answer: JSON (bare or in a code fence)
// with the keys the prompt asks for, or, when the model answered in prose,
// whatever the regular expressions find. ok is false when no field at all
// could be read. Missing fields are left empty.
func parseReply(text string) (s raw, ok bool) {
	text = strings.TrimSpace(text)
	if m := fence.FindStringSubmatch(text); m != nil {
		text = strings.TrimSpace(m[1])
	}
	if i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}'); i >= 0 && j > i {
		var m map[string]any
		if json.Unmarshal([]byte(text[i:j+1]), &m) == nil {
			return fromJSON(m)
		}
	}
	return fromProse(text)
}

// jsonKeys maps the prompt's keys, and the spellings models drift to, onto
// the fields they fill.
var jsonKeys = map[string]string{
	"username": "name", "playername": "name", "name": "name", "discordusername": "name", "player": "name",
	"level": "level", "lvl": "level",
	"kills": "kills", "deaths": "deaths",
	"kd": "kd", "kdratio": "kd", "kd_ratio": "kd",
	"skid": "id", "sk_id": "id", "id": "id", "playerid": "id",
	"gamesplayed": "games", "games": "games", "totalgames": "games", "games_played": "games", "total_games": "games", "matches": "games",
	"kdr": "kd", "wins": "wins", "botskills": "bots", "bots_kills": "bots", "botkills": "bots",
}

func fromJSON(m map[string]any) (raw, bool) {
	var s raw
	found := false
	for k, v := range m {
		key := strings.ToLower(strings.NewReplacer("/", "", " ", "", "-", "").Replace(k))
		field, known := jsonKeys[key]
		if !known {
			continue
		}
		str := jsonString(v, field == "kd")
		if str == "" {
			continue
		}
		found = true
		switch field {
		case "name":
			s.DiscordUsername = str
		case "level":
			s.Level = str
		case "kills":
			s.Kills = str
		case "deaths":
			s.Deaths = str
		case "kd":
			s.KDRatio = str
		case "id":
			s.SkID = str
		case "games":
			s.TotalGames = str
		case "wins":
			s.Wins = str
		case "bots":
			s.BotsKills = str
		}
	}
	return s, found
}

// maxWholeJSON bounds the JSON numbers written as whole numbers: below it
// a float64 holds every integer exactly, and no figure comes near it.
const maxWholeJSON = 1e15

// jsonString renders a JSON value as the field's string; null and empty
// values come back as "".
func jsonString(v any, decimal bool) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		if decimal {
			return formatKD(x)
		}
		if x == math.Trunc(x) && math.Abs(x) < maxWholeJSON {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

const num = `(?P<v>\d{1,3}(?:,\d{3})+|\d+)`

// prose patterns: "label: value", "label is value" and, for counts,
// "value label" ("1,234 kills"). Only a colon, equals sign or dash may stand
// between a label and its value: in "3,120 kills, 1,560 deaths" the number
// after "kills," belongs to deaths.
var prose = []struct {
	field string
	res   []*regexp.Regexp
}{
	{"name", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:user\s*name|player\s*name|username|name)\s*[:=\-]?\s*(?:is\s+)?["'*]*([A-Za-z0-9_.\-]{2,32})`),
	}},
	{"level", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:level|lvl)\s*[:=\-]?\s*(?:is\s+|of\s+)?` + num),
	}},
	// "Bots Kills" are not kills: the bots' pattern comes first, and the
	// kills' patterns skip a match that follows "bots".
	{"bots", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bbots?\s*kills\s*[:=\-]?\s*(?:is\s+|are\s+|of\s+)?` + num),
		regexp.MustCompile(`(?i)` + num + `\s+bots?\s*kills\b`),
	}},
	{"kills", []*regexp.Regexp{
		regexp.MustCompile(`(?i)(?P<bots>bots?\s*)?\bkills\s*[:=\-]?\s*(?:is\s+|are\s+|of\s+)?` + num),
		regexp.MustCompile(`(?i)` + num + `\s+(?:total\s+)?(?P<bots>bots?\s*)?kills\b`),
	}},
	{"wins", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bwins\s*[:=\-]?\s*(?:is\s+|are\s+|of\s+)?` + num),
		regexp.MustCompile(`(?i)` + num + `\s+wins\b`),
	}},
	{"deaths", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bdeaths\s*[:=\-]?\s*(?:is\s+|are\s+|of\s+)?` + num),
		regexp.MustCompile(`(?i)` + num + `\s+(?:total\s+)?deaths\b`),
	}},
	{"kd", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:k/?dr?)(?:\s*ratio)?\s*[:=\-]?\s*(?:is\s+|of\s+)?(\d+(?:\.\d+)?)`),
	}},
	{"id", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bsk\s*_?id\s*[:=\-]?\s*(?:is\s+)?#?([A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)`),
	}},
	{"games", []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:games\s*played|total\s*games|games)\s*[:=\-]?\s*(?:is\s+|are\s+|of\s+)?` + num),
		regexp.MustCompile(`(?i)` + num + `\s+(?:games|matches)\b`),
	}},
}

func fromProse(text string) (raw, bool) {
	m := map[string]string{}
	for _, p := range prose {
	patterns:
		for _, re := range p.res {
			for _, sub := range re.FindAllStringSubmatch(text, -1) {
				if i := re.SubexpIndex("bots"); i > 0 && sub[i] != "" {
					continue // "Bots Kills" are not kills
				}
				if i := re.SubexpIndex("v"); i > 0 {
					m[p.field] = sub[i]
				} else {
					m[p.field] = sub[1]
				}
				break patterns
			}
		}
	}
	s := raw{
		DiscordUsername: m["name"], Level: m["level"], Kills: m["kills"], Deaths: m["deaths"],
		KDRatio: m["kd"], SkID: m["id"], TotalGames: m["games"], Wins: m["wins"], BotsKills: m["bots"],
	}
	return s, len(m) > 0
}

// finish turns a raw reading into figures ready for reading(). Nothing is
// derived: a count the reader did not give stays missing, for the player
// to type, and when kills, deaths and K/D disagree the core's checks mark
// them doubtful and the player decides.
func finish(s raw) raw { return s.Normalize() }
