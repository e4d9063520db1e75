package extract

import (
	"image"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// field is what a label on a stats screen names.
type field int

const (
	fieldOther field = iota // a label we read past: coins, wins, streaks...
	fieldKills
	fieldDeaths
	fieldKD
	fieldGames
	fieldLevel
	fieldID
)

// labels lists the labels of the stats we read and of the fields we skip,
// as lower-case word sequences. Longer sequences win over their prefixes
// ("kill streak" is not "kills").
var labels = []struct {
	words []string
	field field
}{
	{[]string{"kills"}, fieldKills},
	{[]string{"kill"}, fieldKills},
	{[]string{"total", "kills"}, fieldKills},
	{[]string{"deaths"}, fieldDeaths},
	{[]string{"death"}, fieldDeaths},
	{[]string{"total", "deaths"}, fieldDeaths},
	{[]string{"k/d"}, fieldKD},
	{[]string{"k/d", "ratio"}, fieldKD},
	{[]string{"kd", "ratio"}, fieldKD},
	{[]string{"kdr"}, fieldKD},
	{[]string{"ratio"}, fieldKD},
	{[]string{"games"}, fieldGames},
	{[]string{"games", "played"}, fieldGames},
	{[]string{"total", "games"}, fieldGames},
	{[]string{"matches"}, fieldGames},
	{[]string{"matches", "played"}, fieldGames},
	{[]string{"played"}, fieldGames},
	{[]string{"level"}, fieldLevel},
	{[]string{"lvl"}, fieldLevel},
	{[]string{"lv"}, fieldLevel},
	{[]string{"id"}, fieldID},
	{[]string{"sk", "id"}, fieldID},
	{[]string{"skid"}, fieldID},
	{[]string{"player", "id"}, fieldID},
	{[]string{"user", "id"}, fieldID},
	{[]string{"bots", "kills"}, fieldOther}, // the game's kills of computer karts
	{[]string{"bot", "kills"}, fieldOther},
	{[]string{"coins"}, fieldOther},
	{[]string{"gems"}, fieldOther},
	{[]string{"wins"}, fieldOther},
	{[]string{"losses"}, fieldOther},
	{[]string{"win", "rate"}, fieldOther},
	{[]string{"best", "streak"}, fieldOther},
	{[]string{"win", "streak"}, fieldOther},
	{[]string{"kill", "streak"}, fieldOther},
	{[]string{"best", "kill", "streak"}, fieldOther},
	{[]string{"highest", "kill", "streak"}, fieldOther},
	{[]string{"streak"}, fieldOther},
	{[]string{"top", "3"}, fieldOther},
	{[]string{"top", "three"}, fieldOther},
	{[]string{"xp"}, fieldOther},
	{[]string{"rank"}, fieldOther},
	{[]string{"trophies"}, fieldOther},
	{[]string{"playtime"}, fieldOther},
	{[]string{"time", "played"}, fieldOther},
}

// headings are words a screen shows in big letters that are not the name.
var headings = map[string]bool{
	"profile": true, "stats": true, "statistics": true, "player": true, "career": true, "smash": true,
	"karts": true, "back": true, "close": true, "settings": true, "edit": true, "share": true,
	"overview": true, "summary": true, "my": true, "season": true, "total": true, "ratio": true,
}

// kind of a value token.
type kind int

const (
	kindInt   kind = iota // 12345 or 12,345
	kindDec               // 1.23
	kindHash              // #1234567
	kindOther             // 45%, 1,234/5,000
)

type token struct {
	text    string // as read, trimmed
	norm    string // labels: lower case; values: digits cleaned up
	kind    kind
	num     bool // a value token
	box     image.Rectangle
	conf    float64
	used    bool
	notName bool // read on the second look (missed.go) or inside the kart
}

type labelRef struct {
	field field
	box   image.Rectangle
	first int // first token of the label
}

// reading is what the layout analysis found.
type reading struct {
	name     string
	nameBox  image.Rectangle
	nameConf float64
	// tallest is the box of the tallest free word, where the name most
	// likely is even when OCR mangled it.
	tallest image.Rectangle
	values  map[field]token
	// unpaired are the stat labels left without a value: OCR missed it
	// (Tesseract skips lone digits now and then) or misread it.
	unpaired map[field]labelRef
	tokens   []token
}

var (
	glued     = regexp.MustCompile(`^([A-Za-z][A-Za-z/ ]*?)[:.\\|]?(#?\d[\dOoQD@,.]*)$`)
	intRe     = regexp.MustCompile(`^(\d{1,3}([,.]\d{3})+|\d+)$`)
	decRe     = regexp.MustCompile(`^\d+[.,]\d{1,2}$`)
	hashRe    = regexp.MustCompile(`^#\d{4,}$`)
	percentRe = regexp.MustCompile(`^\d+([.,]\d+)?%$`)
	fracRe    = regexp.MustCompile(`^[\d,.]+/[\d,.]+$`)
	nameRe    = regexp.MustCompile(`^[A-Za-z0-9_.\-]+$`)
	numPrefix = regexp.MustCompile(`^\d{1,3}([,.]\d{3})*([,.]\d{0,3})?$`)
	lvlRe     = regexp.MustCompile(`^[l1i|t]v[l1i|t]?[:.]?$`)
	kdRe      = regexp.MustCompile(`^k[/|\\il1!]?[dop0][:.]?$`)
	// idRe is "ID" as OCR misreads it ("1D:", "lD"): a label, not the number 10.
	idRe = regexp.MustCompile(`^[1l|i!]d:?$`)
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
	return overlap >= 0.5*h && gap >= -0.3*h && gap <= maxGap*float64(max(a.Dy(), b.Dy()))
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
			j := nextOnLine(ws, dead, i, 1.0)
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
					(gapOf(ws[i], ws[j]) <= max(ws[i].box.Dy(), ws[j].box.Dy())/3 ||
						gapOf(ws[i], ws[j]) <= max(ws[i].box.Dy(), ws[j].box.Dy()) && len(b) == 3 && plainInt.MatchString(b))
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
		if overlap < 0.5*h || float64(b.Min.X-a.Max.X) > maxGap*float64(max(a.Dy(), b.Dy())) {
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
	return b.box.Dy()*10 < ah*7 && b.box.Dx()*2 <= ah && b.box.Min.Y > a.box.Min.Y+ah/2
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
	if len(b) < 5 || abs(len(a)-len(b)) > 1 {
		return false
	}
	return editDistance(a, b) <= 1
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
// Words read with little confidence inside the kart's box are marks OCR
// found in the drawing and are dropped.
func readLayout(ws []word, kart image.Rectangle) reading {
	ws = mergeNumbers(splitGlued(ws))
	toks := make([]token, 0, len(ws))
	for _, w := range ws {
		in := w.box.Intersect(kart)
		if w.conf < 75 && in.Dx()*in.Dy()*2 >= w.box.Dx()*w.box.Dy() {
			continue
		}
		// Nor is anything inside the kart the player's name.
		toks = append(toks, token{text: w.text, box: w.box, conf: w.conf, notName: w.second || in.Dx()*in.Dy()*2 >= w.box.Dx()*w.box.Dy()})
	}
	// Labels first: a label's words are not values ("Top 3").
	var refs []labelRef
	next := make([]int, len(toks))
	for i := range toks {
		next[i] = -1
		for j := range toks {
			if j != i && sameLine(toks[i].box, toks[j].box, 1.2) && (next[i] < 0 || toks[j].box.Min.X < toks[next[i]].box.Min.X) {
				next[i] = j
			}
		}
	}
	// Longer labels first, so "Best Streak" is not read as "Streak" with
	// "Best" left over.
	for size := 3; size >= 1; size-- {
		refs = append(refs, matchLabels(toks, next, size)...)
	}
	for i := range toks {
		if toks[i].used {
			continue
		}
		if norm, k, ok := classifyValue(toks[i].text); ok {
			toks[i].num, toks[i].norm, toks[i].kind = true, norm, k
		}
	}

	r := reading{values: map[field]token{}, unpaired: map[field]labelRef{}, tokens: toks}
	type pair struct {
		label, value int
		cost         float64
	}
	var pairs []pair
	for li, l := range refs {
		for vi := range toks {
			if !toks[vi].num {
				continue
			}
			if c, ok := pairCost(l, toks[vi]); ok {
				pairs = append(pairs, pair{li, vi, c})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].cost < pairs[b].cost })
	labelDone := make([]bool, len(refs))
	for _, p := range pairs {
		if labelDone[p.label] || toks[p.value].used {
			continue
		}
		f := refs[p.label].field
		if _, taken := r.values[f]; taken && f != fieldOther {
			continue
		}
		labelDone[p.label] = true
		toks[p.value].used = true
		if f != fieldOther {
			r.values[f] = toks[p.value]
		}
	}
	for li, l := range refs {
		if _, ok := r.values[l.field]; !ok && !labelDone[li] && l.field != fieldOther {
			r.unpaired[l.field] = l
		}
	}
	// An id is often shown as "#1234567" with no label.
	if _, ok := r.values[fieldID]; !ok {
		for i, t := range toks {
			if t.num && !t.used && t.kind == kindHash {
				toks[i].used = true
				r.values[fieldID] = t
				delete(r.unpaired, fieldID)
				break
			}
		}
	}
	// Or its '#' was read as a digit ("4876359137"): a long free number
	// is taken with no confidence, so that it is read again.
	if _, ok := r.values[fieldID]; !ok {
		for i, t := range toks {
			if t.num && !t.used && t.kind == kindInt && len(t.norm) >= 6 && !strings.ContainsAny(t.text, ",.") {
				toks[i].used = true
				t.conf = 0
				r.values[fieldID] = t
				break
			}
		}
	}
	for _, t := range toks {
		if !t.used && !t.num && !t.notName && t.conf >= 20 && letters(t.text) >= 2 && !headings[strings.ToLower(t.text)] &&
			t.box.Dy() > r.tallest.Dy() {
			r.tallest = t.box
		}
	}
	r.name, r.nameBox, r.nameConf = findName(toks)
	return r
}

// matchLabels finds the labels of size words among the free tokens and
// marks their words used.
func matchLabels(toks []token, next []int, size int) []labelRef {
	var refs []labelRef
	for i := range toks {
		if toks[i].used {
			continue
		}
		best := -1
		for li, l := range labels {
			if len(l.words) != size {
				continue
			}
			j, ok := i, true
			for k, lw := range l.words {
				if k > 0 {
					j = next[j]
				}
				if j < 0 || toks[j].used || !fuzzyEqual(labelWord(toks[j].text), lw) {
					ok = false
					break
				}
			}
			if ok {
				best = li
				break
			}
		}
		if best < 0 {
			continue
		}
		ref := labelRef{field: labels[best].field, first: i, box: toks[i].box}
		for k, j := 0, i; k < size; k, j = k+1, next[j] {
			toks[j].used = true
			ref.box = ref.box.Union(toks[j].box)
		}
		refs = append(refs, ref)
	}
	return refs
}

// pairCost scores value v as the value of label l: beside it on its line
// (cheap per unit of distance, as rows put values far right) or under it
// and aligned (as tiles do). ok is false when v cannot be l's value.
func pairCost(l labelRef, v token) (float64, bool) {
	if !fits(l.field, v) {
		return 0, false
	}
	lh := float64(max(8, l.box.Dy()))
	vcy := float64(v.box.Min.Y+v.box.Max.Y) / 2
	// Beside: to the right, centred on the label's line. Italic words get
	// boxes that overlap their neighbour, so a value that starts inside the
	// label's box still counts when it ends beyond it.
	gap := float64(v.box.Min.X - l.box.Max.X)
	rightOf := gap >= -0.5*lh || (v.box.Max.X > l.box.Max.X && v.box.Min.X+v.box.Max.X > l.box.Min.X+l.box.Max.X)
	if rightOf && vcy >= float64(l.box.Min.Y)-0.4*lh && vcy <= float64(l.box.Max.Y)+0.4*lh {
		return 0.25 * max(0, gap) / lh, true
	}
	// Below: under the label, left-aligned, centred or overlapping it.
	dy := float64(v.box.Min.Y - l.box.Max.Y)
	if dy < -0.3*lh || dy > 2.5*lh {
		return 0, false
	}
	lcx, ccx := float64(l.box.Min.X+l.box.Max.X)/2, float64(v.box.Min.X+v.box.Max.X)/2
	switch {
	case abs(v.box.Min.X-l.box.Min.X) <= int(lh), abs(int(lcx-ccx)) <= int(lh):
		return 0.3 + max(0, dy)/lh, true
	case v.box.Min.X < l.box.Max.X && v.box.Max.X > l.box.Min.X:
		return 1.3 + max(0, dy)/lh, true
	}
	return 0, false
}

// fits tells whether a value of v's kind can belong to a field.
func fits(f field, v token) bool {
	switch f {
	case fieldKills, fieldDeaths, fieldGames:
		return v.kind == kindInt && len(v.norm) <= 9
	case fieldLevel:
		return v.kind == kindInt && len(v.norm) <= 4
	case fieldKD:
		return v.kind == kindDec || v.kind == kindInt && len(v.norm) <= 3
	case fieldID:
		return v.kind == kindHash || v.kind == kindInt && len(v.norm) >= 4
	}
	return true
}

// findName picks the player's name: the tallest confident word that is not
// a label, a value or a heading, joined with words right next to it.
func findName(toks []token) (string, image.Rectangle, float64) {
	cand := func(t token) (string, bool) {
		if t.used || t.num || t.notName || t.conf < 30 {
			return "", false
		}
		s := cleanName(t.text)
		return s, len(s) >= 3 && plausibleName(s)
	}
	best, bestText := -1, ""
	for i, t := range toks {
		s, ok := cand(t)
		if !ok {
			continue
		}
		if best < 0 || t.box.Dy() > toks[best].box.Dy()+2 ||
			abs(t.box.Dy()-toks[best].box.Dy()) <= 2 && t.box.Min.Y < toks[best].box.Min.Y {
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
			if ok && sameLine(box, t.box, 0.45) && float64(t.box.Dy()) > 0.7*float64(box.Dy()) &&
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
	if len(s) < 2 || len(s) > 32 || !nameRe.MatchString(s) || headings[strings.ToLower(s)] {
		return false
	}
	return letters(s) >= 2
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

// stats returns the reading as raw strings for finish.
func (r reading) stats() raw {
	get := func(f field) string { return r.values[f].norm }
	return raw{
		DiscordUsername: r.name,
		Level:           get(fieldLevel),
		Kills:           get(fieldKills),
		Deaths:          get(fieldDeaths),
		TotalGames:      get(fieldGames),
		SkID:            get(fieldID),
		KDRatio:         get(fieldKD),
	}
}

// found tells whether the screen looked like a stats screen at all, or
// like the Player tab (a labelled id).
func (r reading) found() bool {
	n := 0
	for f, v := range r.values {
		if f != fieldLevel && (f != fieldID || v.conf > 0) {
			n++
		}
	}
	return n > 0 || len(r.unpaired) > 0
}
