package extract

import (
	"fmt"
	"image"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
)

// A figure the glyph reader is unsure of is read again whole, by drawing:
// each value it could be is drawn in the game's typeface, blurred as the
// photo blurred it, and laid over the screen's grey levels; the value whose
// drawing matches best (normalised correlation) is kept. Thresholding a
// blurred 15 px digit into ink loses what tells an 8 from a 9 or a 3; the
// grey levels still hold it. Only figures already held for the player are
// read so: the drawing may change their value, never whether they are held.

type figureBox struct {
	box  image.Rectangle
	fill rgb
}

// redrawHeld reads again by drawing every figure of r held for the player
// (r.Doubt), and may change its value; the figure stays held. Kills,
// deaths and K/D are changed together, to values that agree with each
// other and match better in all than the values read; the other figures
// to the value drawn best, when it matches better than the value read by
// redrawMargin. No figure held on the figures as read goes unheld
// (keepHeld). The figures in clear were read clearly and held only as
// drawn they looked like another value (holdDrawnOtherwise): held, they
// keep the value their glyphs read. On a straightened canvas whose
// drawing matched poorly throughout (0.7 to 0.8), a clear 611 was redrawn
// 11 and a clear 325 315.
func (pr panelRead) redrawHeld(r *core.Reading, clear []core.Field) {
	asRead := cloneReading(*r)
	d := drawn{fits: map[core.Field][]figureFit{}, score: map[core.Field]func(string) float64{}, cur: map[core.Field]string{}, also: map[core.Field][]string{}}
	for f := range r.Doubt {
		if slices.Contains(clear, f) {
			continue
		}
		if ft, score, c, ok := pr.redrawOne(*r, f); ok {
			d.fits[f], d.score[f], d.cur[f], d.also[f] = ft, score, c, pr.readAs(f)
		}
	}
	d.apply(r)
	keepHeld(r, asRead)
}

// drawn are the figures of a reading drawn again (redrawOne).
type drawn struct {
	fits  map[core.Field][]figureFit          // the values drawn, best first
	score map[core.Field]func(string) float64 // how well another value matches
	cur   map[core.Field]string               // the value read, as the drawing writes it
	also  map[core.Field][]string             // every value the glyph reader read (readAs)
}

// apply changes the figures of r drawn again to the values drawn best.
// Kills, deaths and K/D: the agreeing three drawn best. With one of them
// not read (under a tooltip, cut), nothing checks the other two: each is
// drawn best like the figures no arithmetic checks, and the one missing is
// worked out from them later, for the player to confirm.
func (d drawn) apply(r *core.Reading) {
	set := func(f core.Field, text string) {
		if f == core.FieldKD {
			r.SetKD(kdOf(text))
			return
		}
		v, _ := strconv.Atoi(text)
		r.Set(f, v)
	}
	trio := !slices.ContainsFunc(kdTrio, func(f core.Field) bool { return !r.Has(f) })
	if trio {
		if best, ok := d.agreeing(*r); ok {
			for i, f := range kdTrio {
				if d.fits[f] != nil {
					set(f, best[i])
				}
			}
		}
	}
	for f, ft := range d.fits {
		if trio && slices.Contains(kdTrio, f) || ft[0].text == d.cur[f] {
			continue
		}
		if better(ft[0].score, scoreOf(ft, d.cur[f]), slices.Contains(d.also[f], ft[0].text)) {
			set(f, ft[0].text)
		}
	}
}

// redrawOne draws figure f of r again (redraw), seeded with the value r
// holds and every read of it: the values drawn best, and r's value as the
// redraw writes it. ok is false when f has no box or no ink to draw over.
func (pr panelRead) redrawOne(r core.Reading, f core.Field) (fits []figureFit, score func(string) float64, cur string, ok bool) {
	fb, ok := pr.boxes[f]
	if !ok || r.Proposed[f] {
		return nil, nil, "", false
	}
	kd := f == core.FieldKD
	c := asDrawn(r, f)
	seeds := append([]string{c}, pr.readAs(f)...)
	raw, ok := whiteMap(pr.src, fb.box, fb.fill)
	if !ok {
		return nil, nil, "", false
	}
	ft, score := redraw(raw, seeds, kd)
	return ft, score, c, len(ft) > 0
}

// holdDrawnOtherwise holds the bots' kills and wins read clearly on a
// panel whose bars are small (figure boxes at most smallBar pixels tall:
// digits under 20 pixels, where JPEG can close a 5 into a 6 at every
// threshold) when, drawn again, they look more like another value.
// Nothing checks those two figures the way kills, deaths and K/D check one
// another. It only holds, and returns the figures it held: their values
// stay as read (redrawHeld).
func (pr panelRead) holdDrawnOtherwise(r *core.Reading) (held []core.Field) {
	for _, f := range []core.Field{core.FieldBotsKills, core.FieldWins} {
		if _, doubted := r.Doubt[f]; doubted || !r.Has(f) || pr.boxes[f].box.Dy() > smallBar {
			continue
		}
		if ft, _, c, ok := pr.redrawOne(*r, f); ok && ft[0].text != c && ft[0].score >= scoreOf(ft, c)+holdMargin {
			r.Doubts(f, "hard to read on the screenshot")
			held = append(held, f)
		}
	}
	return held
}

// holdMargin is how much better another drawn value must match than a
// clear read for the read to be held (holdDrawnOtherwise).
const holdMargin = 0.02

// smallBar is the figure box's height (a bar's less its insets), in
// pixels, up to which a clear read of bots' kills and wins is drawn again
// as a check (the one caught, a chat app's JPEG, had 27).
const smallBar = 40

// keepHeld holds every figure the checks would have held on the figures
// as read (asRead): a redrawn value may agree where the value read did not
// (kills with deaths and K/D, wins with games), and that must not let a
// figure go unseen that the disagreement would have held, such as a level
// beside a misread caught by the arithmetic.
func keepHeld(r *core.Reading, asRead core.Reading) {
	asRead.Check()
	for f, why := range asRead.Doubt {
		if _, held := r.Doubt[f]; held || !r.Has(f) {
			continue
		}
		if asRead.Proposed[f] || slices.Contains(kdTrio, f) {
			// The reason spoke of a value since redrawn.
			why = "kills, deaths and K/D did not agree as first read: please check"
		}
		r.Doubts(f, why)
	}
}

// cloneReading copies r, its maps too.
func cloneReading(r core.Reading) core.Reading {
	r.Found, r.Doubt = maps.Clone(r.Found), maps.Clone(r.Doubt)
	r.Confidence, r.Proposed = maps.Clone(r.Confidence), maps.Clone(r.Proposed)
	return r
}

// agreeing chooses kills, deaths and K/D among the values drawn best
// (within redrawNear of each one's best; a figure not redrawn keeps its
// value): the three that agree (panelKD) with the best score in
// all. The values read are kept when they agree, unless the glyphs also
// read the three chosen and they match better (better).
func (d drawn) agreeing(r core.Reading) ([3]string, bool) {
	fits, cur := d.fits, d.cur
	var opts [3][]figureFit
	var read [3]string
	for i, f := range kdTrio {
		read[i] = asDrawn(r, f)
		ft := fits[f]
		if ft == nil {
			opts[i] = []figureFit{{read[i], 0}}
			continue
		}
		for _, x := range ft {
			if x.score >= ft[0].score-redrawNear && len(opts[i]) < maxDrawnOpts || x.text == cur[f] {
				opts[i] = append(opts[i], x)
			}
		}
	}
	agree := func(k, d, kd string) bool {
		kn, _ := strconv.Atoi(k)
		dn, _ := strconv.Atoi(d)
		return panelKD(kdOf(kd), kn, dn)
	}
	readAgree := agree(read[0], read[1], read[2])
	if !readAgree {
		d.workedOut(&opts)
	}
	best, bestScore, found := [3]string{}, math.Inf(-1), false
	readScore := 0.0
	for i := range 3 {
		readScore += scoreOf(opts[i], read[i])
	}
	for _, k := range opts[0] {
		for _, d := range opts[1] {
			for _, kd := range opts[2] {
				if s := k.score + d.score + kd.score; s > bestScore && agree(k.text, d.text, kd.text) {
					best, bestScore, found = [3]string{k.text, d.text, kd.text}, s, true
				}
			}
		}
	}
	if !found {
		return read, false
	}
	seconded := true
	for i, f := range kdTrio {
		if best[i] != read[i] && !slices.Contains(d.also[f], best[i]) {
			seconded = false
		}
	}
	// Values read that agree give way only to values the glyphs also read
	// (seconded): three figures the arithmetic ties together, each read so
	// by the glyphs, are better evidence than a drawing that matches a
	// blurred figure poorly throughout. (A 4032 px photo's kills 19069 and
	// deaths 8488, read so at every threshold and agreeing with K/D 2.25,
	// were drawn as 19149 and 8498, which agree too, by 0.18.)
	if readAgree && !(seconded && better(bestScore, readScore, true)) {
		return read, false
	}
	return best, true
}

// workedOut adds to the values drawn of kills, deaths and K/D (opts, in
// kdTrio's order) those the best few of the other two give, each drawn:
// kills from deaths × K/D and deaths from kills ÷ K/D (of the counts the
// K/D's rounding leaves, the one drawn best), K/D from kills ÷ deaths,
// each if drawn within redrawNear of the best its figure's drawing found.
// A figure misread in two digits or more is no neighbour of its read (the
// climb's), but the other two, read right, give it. Without the bound, on
// blurred photos a value the arithmetic alone put forward, drawn worse,
// broke more figures than it mended.
func (d drawn) workedOut(opts *[3][]figureFit) {
	top := func(i int) []figureFit { return opts[i][:min(workedFew, len(opts[i]))] }
	var add [3][]string
	// count is, of the counts from lo to hi that agree (ok), the one f
	// drawn matches best.
	count := func(f core.Field, lo, hi int, ok func(int) bool) string {
		score := d.score[f]
		if score == nil || lo < 0 || hi-lo > workedSpan {
			return ""
		}
		best, bestScore := "", math.Inf(-1)
		for v := lo; v <= hi; v++ {
			if t := strconv.Itoa(v); ok(v) {
				if s := score(t); s > bestScore {
					best, bestScore = t, s
				}
			}
		}
		return best
	}
	for _, a := range top(1) {
		for _, b := range top(2) {
			deaths, kd := atoi(a.text), kdOf(b.text)
			lo, hi := int(math.Floor((kd-kdHalfStep)*float64(deaths))), int(math.Ceil((kd+kdHalfStep)*float64(deaths)))
			add[0] = append(add[0], count(core.FieldKills, lo, hi, func(k int) bool { return panelKD(kd, k, deaths) }))
		}
	}
	for _, a := range top(0) {
		for _, b := range top(2) {
			kills, kd := atoi(a.text), kdOf(b.text)
			if kd < minWorkedKD {
				continue
			}
			lo, hi := int(float64(kills)/(kd+kdHalfStep)), int(float64(kills)/(kd-kdHalfStep))+1
			add[1] = append(add[1], count(core.FieldDeaths, max(1, lo), hi, func(dn int) bool { return panelKD(kd, kills, dn) }))
		}
		for _, b := range top(1) {
			if deaths := atoi(b.text); deaths > 0 {
				add[2] = append(add[2], fmt.Sprintf("%03d", int(math.Round(float64(atoi(a.text))*kdHundredths/float64(deaths)))))
			}
		}
	}
	for i, f := range kdTrio {
		for _, t := range add[i] {
			if t == "" || d.score[f] == nil || slices.ContainsFunc(opts[i], func(x figureFit) bool { return x.text == t }) {
				continue
			}
			if v := d.score[f](t); v >= d.fits[f][0].score-redrawNear {
				opts[i] = append(opts[i], figureFit{t, v})
			}
		}
	}
}

// workedFew is how many of the values drawn best of two figures give the
// third (workedOut); workedSpan the most counts their rounding may leave
// to draw.
const (
	workedFew  = 3
	workedSpan = 400
	// kdHalfStep is half the last place of a K/D shown to two places: the
	// rounding a count worked out from it allows either way.
	kdHalfStep = 0.005
	// minWorkedKD is the least K/D deaths are worked out from (kills ÷ K/D
	// runs away below it).
	minWorkedKD = 0.1
	// maxDrawnOpts is how many values drawn best of each of kills, deaths
	// and K/D are tried together (agreeing).
	maxDrawnOpts = 6
)

// atoi is s as a number, 0 when it is none.
func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// asDrawn is r's value of f as redraw writes it: digits only, a K/D's
// two places included ("188" for 1.88).
func asDrawn(r core.Reading, f core.Field) string {
	if f == core.FieldKD {
		return strings.Replace(strconv.FormatFloat(r.KD, 'f', 2, 64), ".", "", 1)
	}
	return strconv.Itoa(r.Count(f))
}

// pointed writes a K/D's digits (the redraw's "188") as the game does
// ("1.88"), kdOf as a number.
func pointed(d string) string { return d[:len(d)-2] + "." + d[len(d)-2:] }
func kdOf(d string) float64 {
	v, _ := strconv.ParseFloat(pointed(d), 64)
	return v
}

// scoreOf is the score of text among fits, or -1 when it was not drawn.
func scoreOf(fits []figureFit, text string) float64 {
	for _, f := range fits {
		if f.text == text {
			return f.score
		}
	}
	return -1
}

// redrawMargin is how much better a drawn value must match than the
// value read to replace it.
const redrawMargin = 0.03

// better tells whether a value drawn with score to replaces the value
// read, drawn with score from: by redrawMargin, or by any amount when the
// glyph reader also read the figure so (seconded: at another threshold or
// size), the drawing then deciding between two readings of the screen
// rather than putting forward a value of its own.
func better(to, from float64, seconded bool) bool {
	if seconded {
		return to > from
	}
	return to >= from+redrawMargin
}

// readAs are the values, digits only, the glyph reader read figure f as:
// at each threshold and at the check's size.
func (pr panelRead) readAs(f core.Field) []string {
	norm := normCount
	if f == core.FieldKD {
		norm = normKDR
	}
	digits := func(s string) string { return strings.NewReplacer(".", "", ",", "").Replace(norm(s)) }
	var out []string
	for _, g := range pr.fields[f] {
		if t := digits(g.text); t != "" {
			out = append(out, t)
		}
	}
	if t := digits(pr.checks[f]); t != "" {
		out = append(out, t)
	}
	return out
}

// redrawNear is how far below the best match a value of kills, deaths or
// K/D may match and still be chosen for agreeing with the others (0.045
// since round 15: the arithmetic choosing among more values read 4 more
// figures of 814 on the 4032 px photos of two seeds already looked at,
// the other kinds unchanged; 0.03 before).
const redrawNear = 0.045
