// The player's name on a stats screen: the tallest confident word that is
// no label, value or heading.

package extract

import (
	"image"
	"strings"
	"unicode"
)

// What stays tuned in telling the player's name:
const (
	// nameMinConf is the least OCR confidence (per cent) of a word that
	// may be (part of) the name.
	nameMinConf = 30
	// minFoundNameLen is the fewest bytes of the word taken as the name
	// (a shorter plausible word may only join it).
	minFoundNameLen = 3
	// nameTallSlackPx: words whose heights differ by at most this many
	// pixels (at the working scale, workShort) stand as tall (the higher
	// one wins).
	nameTallSlackPx = 2
	// nameJoinGap is the widest gap (in word heights, see sameLine) from
	// the name to a word that continues it.
	nameJoinGap = 0.45
	// nameJoinTall is the least height (share of the name's) of a word
	// that continues it.
	nameJoinTall = 0.7
	// minNameLen and maxNameLen bound a plausible name's length (bytes).
	minNameLen, maxNameLen = 2, 32
	// minNameLetters is the fewest letters of a plausible name.
	minNameLetters = 2
)

// findName picks the player's name: the tallest confident word that is not
// a label, a value or a heading, joined with words right next to it.
func findName(toks []token) (string, image.Rectangle, float64) {
	cand := func(t token) (string, bool) {
		if t.used || t.num || t.notName || t.conf < nameMinConf {
			return "", false
		}
		s := cleanName(t.text)
		return s, len(s) >= minFoundNameLen && plausibleName(s)
	}
	best, bestText := -1, ""
	for i, t := range toks {
		s, ok := cand(t)
		if !ok {
			continue
		}
		if best < 0 || t.box.Dy() > toks[best].box.Dy()+nameTallSlackPx ||
			abs(t.box.Dy()-toks[best].box.Dy()) <= nameTallSlackPx && t.box.Min.Y < toks[best].box.Min.Y {
			best, bestText = i, s
		}
	}
	if best < 0 {
		return "", image.Rectangle{}, 0
	}
	name, box, conf := bestText, toks[best].box, toks[best].conf
	toks[best].used = true
	for {
		j, jText := -1, ""
		for k, t := range toks {
			s, ok := cand(t)
			if ok && sameLine(box, t.box, nameJoinGap) && float64(t.box.Dy()) > nameJoinTall*float64(box.Dy()) &&
				(j < 0 || t.box.Min.X < toks[j].box.Min.X) {
				j, jText = k, s
			}
		}
		if j < 0 {
			break
		}
		name += " " + jText
		box = box.Union(toks[j].box)
		conf = min(conf, toks[j].conf)
		toks[j].used = true
	}
	return name, box, conf
}

// trimName drops the stray marks OCR puts around a word.
func trimName(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
}

// cleanName turns what OCR makes of a slashed zero back into 0: "@" and
// "Ø" anywhere (names have neither), "Q" right after a digit
// ("Bomb_Kid9@", "Drift_Star2Q"); then trims stray marks.
func cleanName(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '@' || r == 'Ø' || r == 'ø':
			rs[i] = '0'
		case r == 'Q' && i > 0 && unicode.IsDigit(rs[i-1]):
			rs[i] = '0'
		}
	}
	return trimName(string(rs))
}

func plausibleName(s string) bool {
	if len(s) < minNameLen || len(s) > maxNameLen || !nameRe.MatchString(s) || headings[strings.ToLower(s)] {
		return false
	}
	return letters(s) >= minNameLetters
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
