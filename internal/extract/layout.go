package extract

import (
	"image"
	"regexp"
	"sort"
	"strings"
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

// What stays tuned in pairing labels with values. lh is a label's height
// in pixels of the image OCR read; confidences are OCR's, in per cent.
const (
	// kartMarkConf is the least confidence a word mostly inside the kart's
	// box needs to be kept: below it, it is a mark OCR found in the drawing.
	kartMarkConf = 75
	// inKartDen: a word with at least 1/inKartDen of its box's area inside
	// the kart's box is inside the kart.
	inKartDen = 2
	// phraseGapHeights is the widest gap (heights of the taller word)
	// between two words of one label or phrase.
	phraseGapHeights = 1.2
	// maxLabelWords is the most words a label has ("best kill streak").
	maxLabelWords = 3
	// bareIDDigits is the fewest digits a free number needs to be taken for
	// an id whose '#' was read as a digit.
	bareIDDigits = 6
	// tallestMinConf and tallestMinLetters are the least confidence and
	// letters of a free word that may be the tallest (where the name is).
	tallestMinConf, tallestMinLetters = 20, 2
	// minLabelPx is the least height (pixels) a label counts as, so that
	// distances over a tiny box stay sane.
	minLabelPx = 8
	// besideBack is how far (share of lh) a value beside its label may
	// start back inside the label's box (italic boxes overlap).
	besideBack = 0.5
	// besideSlack is how far (share of lh) a value's centre may lie above
	// or below the label's box and still be on its line.
	besideSlack = 0.4
	// besideCost is the cost of a value beside its label per lh of gap.
	besideCost = 0.25
	// belowBack and belowReach are how far (share of lh) a value under its
	// label may start above the label's bottom, and below it.
	belowBack, belowReach = 0.3, 2.5
	// alignedCost and overlapCost are what a value under its label costs
	// before its distance (per lh): aligned with it (left edges or centres
	// within lh), or only overlapping it across.
	alignedCost, overlapCost = 0.3, 1.3
	// The digits a value may have: a count (kills, deaths, games) at most
	// countDigits, a level at most levelDigits, a K/D read without its
	// point at most kdIntDigits, an id at least idMinDigits.
	countDigits, levelDigits, kdIntDigits, idMinDigits = 9, 4, 3, 4
)

// Words read with little confidence inside the kart's box are marks OCR
// found in the drawing and are dropped.
func readLayout(ws []word, kart image.Rectangle) reading {
	ws = mergeNumbers(splitGlued(ws))
	toks := make([]token, 0, len(ws))
	for _, w := range ws {
		in := w.box.Intersect(kart)
		inKart := in.Dx()*in.Dy()*inKartDen >= w.box.Dx()*w.box.Dy()
		if w.conf < kartMarkConf && inKart {
			continue
		}
		// Nor is anything inside the kart the player's name.
		toks = append(toks, token{text: w.text, box: w.box, conf: w.conf, notName: w.second || inKart})
	}
	// Labels first: a label's words are not values ("Top 3").
	var refs []labelRef
	next := make([]int, len(toks))
	for i := range toks {
		next[i] = -1
		for j := range toks {
			if j != i && sameLine(toks[i].box, toks[j].box, phraseGapHeights) && (next[i] < 0 || toks[j].box.Min.X < toks[next[i]].box.Min.X) {
				next[i] = j
			}
		}
	}
	// Longer labels first, so "Best Streak" is not read as "Streak" with
	// "Best" left over.
	for size := maxLabelWords; size >= 1; size-- {
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
			if t.num && !t.used && t.kind == kindInt && len(t.norm) >= bareIDDigits && !strings.ContainsAny(t.text, ",.") {
				toks[i].used = true
				t.conf = 0
				r.values[fieldID] = t
				break
			}
		}
	}
	for _, t := range toks {
		if !t.used && !t.num && !t.notName && t.conf >= tallestMinConf && letters(t.text) >= tallestMinLetters && !headings[strings.ToLower(t.text)] &&
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
	lh := float64(max(minLabelPx, l.box.Dy()))
	vcy := float64(v.box.Min.Y+v.box.Max.Y) / 2
	// Beside: to the right, centred on the label's line. Italic words get
	// boxes that overlap their neighbour, so a value that starts inside the
	// label's box still counts when it ends beyond it.
	gap := float64(v.box.Min.X - l.box.Max.X)
	rightOf := gap >= -besideBack*lh || (v.box.Max.X > l.box.Max.X && v.box.Min.X+v.box.Max.X > l.box.Min.X+l.box.Max.X)
	if rightOf && vcy >= float64(l.box.Min.Y)-besideSlack*lh && vcy <= float64(l.box.Max.Y)+besideSlack*lh {
		return besideCost * max(0, gap) / lh, true
	}
	// Below: under the label, left-aligned, centred or overlapping it.
	dy := float64(v.box.Min.Y - l.box.Max.Y)
	if dy < -belowBack*lh || dy > belowReach*lh {
		return 0, false
	}
	lcx, ccx := float64(l.box.Min.X+l.box.Max.X)/2, float64(v.box.Min.X+v.box.Max.X)/2
	switch {
	case abs(v.box.Min.X-l.box.Min.X) <= int(lh), abs(int(lcx-ccx)) <= int(lh):
		return alignedCost + max(0, dy)/lh, true
	case v.box.Min.X < l.box.Max.X && v.box.Max.X > l.box.Min.X:
		return overlapCost + max(0, dy)/lh, true
	}
	return 0, false
}

// fits tells whether a value of v's kind can belong to a field.
func fits(f field, v token) bool {
	switch f {
	case fieldKills, fieldDeaths, fieldGames:
		return v.kind == kindInt && len(v.norm) <= countDigits
	case fieldLevel:
		return v.kind == kindInt && len(v.norm) <= levelDigits
	case fieldKD:
		return v.kind == kindDec || v.kind == kindInt && len(v.norm) <= kdIntDigits
	case fieldID:
		return v.kind == kindHash || v.kind == kindInt && len(v.norm) >= idMinDigits
	}
	return true
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
