// The words OCR gives, made into tokens: digits told from letters, numbers
// split by OCR joined again, labels matched despite a misread letter.

package extract

import (
	"image"
	"sort"
	"strings"
)

// What stays tuned in joining words into lines and numbers. Heights are
// words' box heights in pixels of the image OCR read.
const (
	// lineOverlap is the least share of the shorter word's height two words
	// must overlap by, top to bottom, to be on one line.
	lineOverlap = 0.5
	// lineBack is how far (share of the shorter height) the next word of a
	// phrase may start back inside the previous one's box.
	lineBack = 0.3
	// mergeGapHeights is the widest gap (heights of the taller word) between
	// two pieces of one number split by OCR.
	mergeGapHeights = 1.0
	// secondLookGapDen: digits found on the second look join a number across
	// a gap of at most 1/secondLookGapDen of the taller height (a full
	// height for a group of groupDigits).
	secondLookGapDen = 3
	// groupDigits is how many digits a thousands group has.
	groupDigits = 3
	// A comma read as a digit is under commaTallNum/commaTallDen of the
	// number's height tall, at most 1/commaWideDen of it wide, and its top
	// lies more than 1/commaTopDen of that height below the number's top.
	commaTallNum, commaTallDen = 7, 10
	commaWideDen               = 2
	commaTopDen                = 2
	// fuzzyMinLen is the shortest label word allowed fuzzyEdits wrong,
	// missing or extra letters.
	fuzzyMinLen = 5
	fuzzyEdits  = 1
)

// digitFix maps letters OCR confuses with digits, used only in tokens that
// are mostly digits already.
var digitFix = map[rune]rune{
	'O': '0', 'o': '0', 'Q': '0', 'D': '0', '@': '0', 'U': '0',
	'l': '1', 'I': '1', 'i': '1', '|': '1', '!': '1', ']': '1', '[': '1',
	'S': '5', 's': '5', '$': '5', 'B': '8', 'Z': '2', 'z': '2',
}

// classifyValue tells whether text is a value and which kind.
func classifyValue(text string) (norm string, k kind, ok bool) {
	if idRe.MatchString(strings.ToLower(text)) {
		return "", 0, false
	}
	t := strings.TrimRight(strings.Trim(text, ":;'\"`()[]{}|_~/"), ".,")
	if t == "" {
		return "", 0, false
	}
	digits, others := 0, 0
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(",.#%/", r):
		default:
			others++
		}
	}
	if digits == 0 || others > digits {
		return "", 0, false
	}
	if others > 0 {
		t = strings.Map(func(r rune) rune {
			if d, ok := digitFix[r]; ok {
				return d
			}
			return r
		}, t)
	}
	switch {
	case hashRe.MatchString(t):
		return t[1:], kindHash, true
	case decRe.MatchString(t):
		return strings.Replace(t, ",", ".", 1), kindDec, true
	case intRe.MatchString(t):
		return strings.NewReplacer(",", "", ".", "").Replace(t), kindInt, true
	case percentRe.MatchString(t), fracRe.MatchString(t):
		return t, kindOther, true
	}
	return "", 0, false
}

func labelWord(text string) string {
	t := strings.ToLower(strings.Trim(text, ":;.,'\"`()[]{}|_~-"))
	if kdRe.MatchString(t) {
		return "k/d"
	}
	if lvlRe.MatchString(t) {
		return "lvl"
	}
	if t == "k/d:" {
		return "k/d"
	}
	if idRe.MatchString(t) {
		return "id"
	}
	return t
}

// sameLine reports whether b continues a's line to the right, close enough
// to be the next word of one phrase.
func sameLine(a, b image.Rectangle, maxGap float64) bool {
	h := float64(min(a.Dy(), b.Dy()))
	overlap := float64(min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y))
	gap := float64(b.Min.X - a.Max.X)
	return overlap >= lineOverlap*h && gap >= -lineBack*h && gap <= maxGap*float64(max(a.Dy(), b.Dy()))
}

// splitGlued separates "Kills:1,234", "Lvl23" or "ID:#123" read as one
// word into a label word and a value word, sharing the box by characters.
func splitGlued(ws []word) []word {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		m := glued.FindStringSubmatch(w.text)
		if m == nil || !isLabelStart(m[1]) {
			out = append(out, w)
			continue
		}
		n := len([]rune(w.text))
		cut := w.box.Min.X + w.box.Dx()*len([]rune(m[1]))/n
		out = append(out,
			word{text: m[1], box: image.Rect(w.box.Min.X, w.box.Min.Y, cut, w.box.Max.Y), conf: w.conf},
			word{text: m[2], box: image.Rect(cut, w.box.Min.Y, w.box.Max.X, w.box.Max.Y), conf: w.conf})
	}
	return out
}

func isLabelStart(s string) bool {
	first := labelWord(strings.Fields(s)[0])
	for _, l := range labels {
		if l.words[0] == first || fuzzyEqual(first, l.words[0]) {
			return true
		}
	}
	return false
}

// mergeNumbers joins the pieces Tesseract sometimes splits a grouped
// number into: "38" "," "393", "38," "393" or "33" ",2" "78" become one
// number, as long as the pieces still spell the start of one.
func mergeNumbers(ws []word) []word {
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].box.Min.X < ws[j].box.Min.X })
	dead := make([]bool, len(ws))
	for i := range ws {
		if dead[i] {
			continue
		}
		for {
			j := nextOnLine(ws, dead, i, mergeGapHeights)
			if j < 0 {
				break
			}
			a, b := ws[i].text, ws[j].text
			if commaLike(ws[i], ws[j]) && endsDigit(a) {
				b = "," // a comma with a long tail, read as a digit
			}
			joinable := strings.ContainsAny(a+b, ",.") && numPrefix.MatchString(a+b) ||
				// Digits found on the second look right against a number
				// are the ones the first look dropped: "71813518" "8", or
				// "5" "691" with an unread comma between.
				(ws[i].second || ws[j].second) && endsDigit(a) && startsDigit(b) &&
					(gapOf(ws[i], ws[j]) <= max(ws[i].box.Dy(), ws[j].box.Dy())/secondLookGapDen ||
						gapOf(ws[i], ws[j]) <= max(ws[i].box.Dy(), ws[j].box.Dy()) && len(b) == groupDigits && plainInt.MatchString(b))
			if !joinable {
				break
			}
			ws[i].text += b
			ws[i].box = ws[i].box.Union(ws[j].box)
			ws[i].conf = min(ws[i].conf, ws[j].conf)
			dead[j] = true
		}
	}
	out := ws[:0]
	for i, w := range ws {
		if !dead[i] {
			out = append(out, w)
		}
	}
	return out
}

// nextOnLine finds the word that follows ws[i] on its line: starting to
// the right of ws[i]'s start (boxes of split numbers may overlap) and at
// most maxGap heights after its end.
func nextOnLine(ws []word, dead []bool, i int, maxGap float64) int {
	a := ws[i].box
	best := -1
	for j := range ws {
		b := ws[j].box
		if j == i || dead[j] || b.Min.X <= a.Min.X {
			continue
		}
		h := float64(min(a.Dy(), b.Dy()))
		overlap := float64(min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y))
		if overlap < lineOverlap*h || float64(b.Min.X-a.Max.X) > maxGap*float64(max(a.Dy(), b.Dy())) {
			continue
		}
		if best < 0 || b.Min.X < ws[best].box.Min.X {
			best = j
		}
	}
	return best
}

// commaLike tells whether b, just after a, is too narrow and sits too low
// to be a digit of a's size: a comma OCR read as "5" or "9".
func commaLike(a, b word) bool {
	ah := a.box.Dy()
	return b.box.Dy()*commaTallDen < ah*commaTallNum && b.box.Dx()*commaWideDen <= ah && b.box.Min.Y > a.box.Min.Y+ah/commaTopDen
}

func gapOf(a, b word) int { return b.box.Min.X - a.box.Max.X }

func endsDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

func startsDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// fuzzyEqual accepts one wrong, missing or extra letter in words of five
// letters or more, which is how OCR usually fails on labels.
func fuzzyEqual(a, b string) bool {
	if a == b {
		return true
	}
	if len(b) < fuzzyMinLen || abs(len(a)-len(b)) > fuzzyEdits {
		return false
	}
	return editDistance(a, b) <= fuzzyEdits
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// readLayout turns OCR words into stats: it finds the labels, pairs each
// with the value beside or below it, and takes the name from the largest
// free text.
//
