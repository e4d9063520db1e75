package extract

// The reads of a panel's figures (one per threshold) voted into one
// value each, kills, deaths and K/D chosen to agree, with a confidence and
// the doubts the player is shown.

import (
	"image"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
)

// vote is one value read, with the reads that agree on it.
type vote struct {
	text   string
	weight float64 // the reads' count plus their sureness
	sure   float64 // their mean sureness
}

// votes groups the reads of a field by the value they spell, heaviest
// first. norm cleans a read up ("" when it cannot be the field's value).
func votes(reads []glyphRead, norm func(string) string) []vote {
	w := map[string]*vote{}
	n := map[string]int{}
	for _, r := range reads {
		t := norm(r.text)
		if t == "" {
			continue
		}
		if w[t] == nil {
			w[t] = &vote{text: t}
		}
		w[t].weight += 1 + r.sure
		w[t].sure += r.sure
		n[t]++
	}
	out := make([]vote, 0, len(w))
	for t, v := range w {
		v.sure /= float64(n[t])
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].weight > out[j].weight || out[i].weight == out[j].weight && out[i].text < out[j].text
	})
	return out
}

// maxDigits is the most digits a figure the panel shows may have.
const maxDigits = 8

// What stays tuned in voting a panel's reads.
const (
	// kdLeastDigits is the fewest digits of a K/D: two decimals and a unit.
	kdLeastDigits = 3
	// failedReadWeight is what each read of a threshold (inkCuts) weighs
	// at least in a field's total, so that reads that failed count
	// against: the most a read can weigh (1 plus full sureness).
	failedReadWeight = 2
	// kdHundredths turns a K/D into hundredths, its last place shown.
	kdHundredths = 100
	// kdFloatSlack is the float error allowed on top of rounding, in
	// hundredths.
	kdFloatSlack = 1e-6
	// minLostToHold is how many of the figures every build shows must be
	// lost for the whole panel to be held.
	minLostToHold = 2
)

// figureDigits tells whether d, a figure's digits alone, can be one the
// panel shows: a count of one to maxDigits digits, or a K/D of three or
// more (two decimals), with no leading zero but a count's 0 or a K/D's
// 0.xx.
func figureDigits(d string, kd bool) bool {
	least := 1
	if kd {
		least = kdLeastDigits
	}
	return len(d) >= least && len(d) <= maxDigits && (d[0] != '0' || len(d) == least)
}

// normCount keeps a count as digits with no leading zero.
func normCount(s string) string {
	s = strings.NewReplacer(".", "", ",", "").Replace(s)
	if !figureDigits(s, false) {
		return ""
	}
	return s
}

// normKDR writes a K/D read as the game shows it: two decimals, whatever
// became of the point.
func normKDR(s string) string {
	d := strings.NewReplacer(".", "", ",", "").Replace(s)
	if !figureDigits(d, true) {
		return ""
	}
	return pointed(d)
}

// reading turns what the panel showed into a Reading: per field the value
// most reads agree on, kills, deaths and K/D chosen together so that they
// agree with each other when some reads allow it, and a confidence per
// field from the agreement and the glyphs' sureness. A field read too
// unsurely is marked doubtful, for the player to confirm.
func (pr panelRead) reading() core.Reading {
	var r core.Reading
	norm := func(f core.Field) func(string) string {
		if f == core.FieldKD {
			return normKDR
		}
		return normCount
	}
	chosen := map[core.Field]vote{}
	all := map[core.Field][]vote{}
	total := map[core.Field]float64{}
	for f, reads := range pr.fields {
		vs := votes(reads, norm(f))
		if len(vs) == 0 {
			continue
		}
		all[f], chosen[f] = vs, vs[0]
		for _, v := range vs {
			total[f] += v.weight
		}
		total[f] = max(total[f], failedReadWeight*float64(len(inkCuts))) // reads that failed count against
	}
	// Kills, deaths and K/D are chosen together so that they agree, when
	// some reads allow it. Agreeing does not make them sure: a K/D to two
	// places lets a last digit of kills or deaths go wrong.
	best := -1.0
	for _, k := range all[core.FieldKills] {
		for _, d := range all[core.FieldDeaths] {
			for _, kd := range all[core.FieldKD] {
				kn, _ := strconv.Atoi(k.text)
				dn, _ := strconv.Atoi(d.text)
				kdv, _ := strconv.ParseFloat(kd.text, 64)
				if !panelKD(kdv, kn, dn) {
					continue
				}
				if s := k.weight + d.weight + kd.weight; s > best {
					best = s
					chosen[core.FieldKills], chosen[core.FieldDeaths], chosen[core.FieldKD] = k, d, kd
				}
			}
		}
	}
	// How sure: the share of the reads (weighed by how clearly their
	// glyphs matched) that agree on the value. On the development set no
	// value read by half the weight or more was wrong at full size.
	conf := map[core.Field]float64{}
	for f, v := range chosen {
		conf[f] = v.weight / total[f]
	}
	for f, v := range chosen {
		if f == core.FieldKD {
			kd, _ := strconv.ParseFloat(v.text, 64)
			r.SetKD(kd)
		} else {
			n, _ := strconv.Atoi(v.text)
			r.Set(f, n)
		}
		r.SetConfidence(f, conf[f])
		if f == core.FieldLevel && pr.badgeCut {
			r.Doubts(f, badgeLost)
		}
		if c := norm(f)(pr.checks[f]); c != "" && c != v.text {
			r.Doubts(f, "read differently at another size: please check")
		}
		if conf[f] < sureEnough || v.sure < leastSure {
			r.Doubts(f, "hard to read on the screenshot")
		}
	}
	pr.lost(&r)
	pr.cutShort(&r)
	roundsOff(&r)
	// The game's levels start at 1: a badge read as 0 lost its digits.
	if r.Has(core.FieldLevel) && r.Level == 0 {
		r.Doubts(core.FieldLevel, badgeLost)
	}
	return r
}

// panelKD tells whether kd is what the game's Stats panel shows for kills
// and deaths: kills ÷ deaths rounded to two places (every development
// capture rounds, none truncates), or kills when there are no deaths.
// core.KDMatches allows a hundredth either way, for screens that
// truncate; the panel's own figures are held to its rounding.
func panelKD(kd float64, kills, deaths int) bool {
	if deaths == 0 {
		return math.Abs(kd-float64(kills)) < kdHalfStep
	}
	return math.Abs(kd*kdHundredths-float64(kills)*kdHundredths/float64(deaths)) <= kdHalfStep*kdHundredths+kdFloatSlack
}

// roundsOff holds kills, deaths and K/D read off the panel when the K/D is
// a hundredth off kills ÷ deaths: the core's check lets that pass (a
// screen may truncate), the game's panel never shows it, so a digit of
// kills or deaths is likely misread (10003 for 10063 beside 7389 and
// 1.36).
func roundsOff(r *core.Reading) {
	if !r.Has(core.FieldKills) || !r.Has(core.FieldDeaths) || !r.Has(core.FieldKD) || panelKD(r.KD, r.Kills, r.Deaths) {
		return
	}
	why := "kills ÷ deaths is " + strconv.FormatFloat(core.KD(r.Kills, r.Deaths), 'f', 2, 64) + ", not the K/D shown: please check"
	for _, f := range kdTrio {
		r.Doubts(f, why)
	}
}

// lost holds every figure of a panel that lost two or more of the figures
// every build's panel shows (kills, bots' kills, deaths, K/D, wins: read
// as nothing, their label or their bar not made out): the blur or glare
// that took them may have taken a digit of those read beside them, and
// kills, deaths and K/D no longer check one another. One lost (a tooltip's
// figure) is left to the screen's arithmetic.
func (pr panelRead) lost(r *core.Reading) {
	lost := 0
	for _, f := range mainFigures {
		if !r.Has(f) {
			lost++
		}
	}
	if lost < minLostToHold {
		return
	}
	holdFigures(r, "most of the panel could not be read: please check")
}

// badgeLost is why a level whose badge may have lost a digit is held.
const badgeLost = "a digit of the level's badge may be lost: please check"

// sureEnough is the confidence below which a figure is the player's to
// confirm.
const sureEnough = 0.5

// leastSure is the mean sureness (glyphRead.sure) below which a value is
// held however many reads agree on it: every read's worst glyph was a
// near tie with another digit, and the cuts of one blurred glyph agreeing
// is not evidence (a crop's deaths 32278 read 32228 at all three cuts,
// sureness 0.05, 0 and 0: a 7 shaped as a 2). Three agreeing reads alone
// give a confidence of 0.5, so sureEnough did not hold it. On the check
// set (the 70 real captures, the 420 images of seed 31337) the next
// figures up, all right, stood at 0.06 and more; two right ones at 0 are
// held too.
const leastSure = 0.05

// endGap is how many pixels of a figure's box are left right of its ink,
// of a box h pixels tall.
type endGap struct{ px, h int }

// endOf is where the figure in box ends: the last column of its white
// (fmap.inkSpan).
func endOf(src *image.RGBA, box image.Rectangle, fill rgb) (endGap, bool) {
	m, ok := whiteMap(src, box, fill)
	if !ok {
		return endGap{}, false
	}
	_, x1, _, _, ok := m.inkSpan()
	return endGap{m.w - 1 - x1, m.h}, ok
}

// cutShort holds a figure whose ink runs to the end of its box on a panel
// whose figures do not end flush. The game writes every figure flush right,
// the same way in from its bar's end, so figures ending unevenly (by more
// than flushSpread of a box's height) say the bars are not where they were
// found: a photo straightened askew, the lower bars running past the
// boxes. The figure reaching its box's end may then have lost its last
// digit to the box (a wins of 48 read 41, clearly).
func (pr panelRead) cutShort(r *core.Reading) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for f, e := range pr.ends {
		if r.Has(f) && e.h > 0 {
			g := float64(e.px) / float64(e.h)
			lo, hi = min(lo, g), max(hi, g)
		}
	}
	if hi-lo <= flushSpread {
		return
	}
	for f, e := range pr.ends {
		if r.Has(f) && e.px == 0 {
			r.Doubts(f, "its last digit may be cut off on the screenshot: please check")
		}
	}
}

// flushSpread is how unevenly (in the boxes' heights) the figures of a
// panel may end before one that reaches its box's end is held (cutShort):
// the panels kept for the real captures end within 0.08 (two captured at
// a slant measured 0.16 and 0.26 on readings not kept), and none is held.
const flushSpread = 0.12
