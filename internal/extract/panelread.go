package extract

import (
	"image"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pitlane/pitlane/internal/core"
)

// The game's Stats panel, read without Tesseract: its bars are found by
// findPanels, each bar's label is matched against the labels the game
// writes (in their order), and each number is read glyph by glyph at three
// thresholds, which then vote.

// panelSlots are the labels of the Stats panel in the order the game shows
// them; a build may leave some out (older builds have no Games). Slots
// with several texts accept any.
var panelSlots = []struct {
	texts []string
	field core.Field
}{
	{[]string{"Kills"}, core.FieldKills},
	{[]string{"Bots Kills"}, core.FieldBotsKills},
	{[]string{"Deaths"}, core.FieldDeaths},
	{[]string{"KDR"}, core.FieldKD},
	{[]string{"Wins"}, core.FieldWins},
	{[]string{"Games", "Games Played"}, core.FieldGames},
}

var panelWords = sync.OnceValue(func() []wordModel {
	var texts []string
	for _, s := range panelSlots {
		texts = append(texts, s.texts...)
	}
	return drawWordModels(texts)
})

// barH is the height a bar is scaled to before its glyphs are read: digits
// then stand about 45 px tall.
const barH = 128

// checkH is the other height a bar is scaled to, to read each number once
// more: a digit that blur or JPEG made look like another at one size
// seldom does at both.
const checkH = 88

// Thresholds (share of the letters' white, low and high) the numbers are
// read at: the middle one for clean screens, the others for text that the
// screen, the camera or JPEG made bolder or fainter.
var inkCuts = [][2]int32{{35, 70}, {45, 75}, {55, 85}}

// unmatched is what a bar whose label is none of the game's costs the
// alignment; a label matching worse than that is not taken.
const unmatched = 0.45

// panelRead is what was read off a Stats panel.
type panelRead struct {
	fields   map[core.Field][]glyphRead // one read per threshold
	labels   int                        // bars whose label matched
	badgeCut bool                       // the badge may have lost a digit (readBadge)
	checks   map[core.Field]string      // each figure read once more at checkH
	src      *image.RGBA                // the screen read, for redrawHeld
	boxes    map[core.Field]figureBox   // where each figure stands, for redrawHeld
}

// readStatsScreen reads the game's Stats panel on img, if it shows one.
func readStatsScreen(img image.Image) (core.Reading, bool) {
	src := toRGBA(img)
	if r, ok := readPanels(src, detectSide, true); ok {
		return r, true
	}
	// A photo tilted further than the bars' ladders survive is turned
	// upright by the angle its edges share, and read again.
	if a := skewAngle(src); math.Abs(a) >= 0.5 {
		if r, ok := readPanels(rotated(src, a), detectSide, true); ok {
			r.Photo = true
			return r, true
		}
	}
	// A large photo with the panel small in it: its bars are looked for
	// again at the photo's own resolution (up to twice as fine).
	if b := src.Bounds(); max(b.Dx(), b.Dy()) > detectSide*3/2 {
		return readPanels(src, 2*detectSide, true)
	}
	return core.Reading{}, false
}

// readPanels finds the stacks of bars on src (looked for at side pixels)
// and reads the likeliest few as the Stats panel, keeping the fullest
// reading (fuller): a stack of bars the text's own strokes made, read
// first, gives a figure or two of nonsense. A panel seen at an angle is
// straightened first, when straight is set. One barely askew (a corner off
// by less than a quarter of a bar's height) is read as it is too, and the
// surer reading kept: straightening resamples, which can cost a crisp
// capture what it gains a photo.
func readPanels(src *image.RGBA, side int, straight bool) (core.Reading, bool) {
	var best core.Reading
	found := false
	keep := func(r core.Reading) {
		if !found || fuller(r, best) {
			best, found = r, true
		}
	}
	for i, p := range findPanelsAt(src, side) {
		if i == 3 || found && whole(best) {
			break // the likeliest few; the rest are News items and the like
		}
		// A tooltip is painted over along the bars as found, upright: on a
		// panel still askew after that, the box painted misses a tilted
		// figure's digits and may cover some of them, so the photo is
		// straightened from its own pixels and the tooltips looked for
		// again on the straight canvas.
		src, photo := src, src
		if tips := findTooltips(src, p); len(tips) > 0 {
			src = maskTooltips(src, p, tips)
		}
		if straight {
			if q, rowH, pitch, ok := panelQuad(src, p); ok && skewed(q, rowH) {
				if canvas, ok := straighten(photo, q, rowH, pitch); ok {
					// A panel seen askew is a photo of a screen: its figures
					// are held unless read clearly (core.Reading.Photo).
					if r, ok := readPanels(canvas, detectSide, false); ok {
						if askew(q) < rowH/4 {
							if r2, ok := readOne(src, p); ok && surer(r2, r) {
								r = r2
							}
						}
						r.Photo = true
						keep(r)
						continue
					}
				}
			}
		}
		if r, ok := readOne(src, p); ok {
			keep(r)
		}
	}
	return best, found
}

// mainFigures are the figures every build's Stats panel shows.
var mainFigures = []core.Field{core.FieldKills, core.FieldBotsKills, core.FieldDeaths, core.FieldKD, core.FieldWins}

// kdTrio are kills, deaths and K/D: the figures that check one another.
var kdTrio = []core.Field{core.FieldKills, core.FieldDeaths, core.FieldKD}

// holdFigures holds every figure r read, for why.
func holdFigures(r *core.Reading, why string) {
	for _, f := range []core.Field{core.FieldLevel, core.FieldKills, core.FieldBotsKills, core.FieldDeaths, core.FieldKD, core.FieldWins, core.FieldGames} {
		if r.Has(f) {
			r.Doubts(f, why)
		}
	}
}

// whole tells whether r read every figure every build's panel shows.
func whole(r core.Reading) bool {
	for _, f := range mainFigures {
		if !r.Has(f) {
			return false
		}
	}
	return true
}

// fuller tells whether reading a is better than b: more figures read, or
// as many and surer.
func fuller(a, b core.Reading) bool {
	if na, nb := len(a.Found), len(b.Found); na != nb {
		return na > nb
	}
	return surer(a, b)
}

// readOne reads p as the Stats panel, and the kart beside it.
func readOne(src *image.RGBA, p panel) (core.Reading, bool) {
	pr, ok := readPanel(src, p)
	if !ok {
		return core.Reading{}, false
	}
	// Labels that looked like the game's over numbers in another
	// typeface read as nothing: not the game's panel after all.
	r := pr.reading()
	if !r.Has(core.FieldKills) && !r.Has(core.FieldDeaths) {
		return core.Reading{}, false
	}
	// Figures held for the player are drawn again whole, the values they
	// could be laid over the screen's grey levels (rematch.go).
	pr.holdDrawnOtherwise(&r)
	pr.redrawHeld(&r)
	if png, ok := panelKart(src, p); ok {
		r.CartImage, r.CartImageType = png, "image/png"
	}
	return r, true
}

// surer tells whether reading a is surer than b: fewer figures in doubt,
// or as many and more sureness in all.
func surer(a, b core.Reading) bool {
	if len(a.Doubt) != len(b.Doubt) {
		return len(a.Doubt) < len(b.Doubt)
	}
	return sureness(a) > sureness(b)
}

// sureness is the sum of r's confidences, added in the fields' order: added
// in a map's order, the same confidences could sum a last bit apart, and
// two equally sure readings of one panel came out either way, run to run.
func sureness(r core.Reading) float64 {
	var s float64
	for _, f := range slices.Sorted(maps.Keys(r.Confidence)) {
		s += r.Confidence[f]
	}
	return s
}

// readPanel reads p as the Stats panel. ok is false when too few of its
// labels are the game's: it is another stack of bars (News, a menu).
func readPanel(src *image.RGBA, p panel) (panelRead, bool) {
	out := panelRead{fields: map[core.Field][]glyphRead{}, checks: map[core.Field]string{}, src: src, boxes: map[core.Field]figureBox{}}
	costs := make([][]float64, len(p.rows))
	fills := make([]rgb, len(p.rows))
	for i, r := range p.rows {
		fills[i] = meanColor(src, image.Rect(p.mid.Min.X, r.Min.Y+r.Dy()/4, p.mid.Max.X, r.Max.Y-r.Dy()/4))
		inset := max(1, r.Dy()/10)
		g, ok := lightInk(src, image.Rect(r.Min.X+inset, r.Min.Y+inset, p.mid.Min.X, r.Max.Y-inset), fills[i], barH/float64(r.Dy()))
		costs[i] = make([]float64, len(panelSlots))
		for j := range costs[i] {
			costs[i][j] = math.Inf(1)
		}
		if !ok {
			continue
		}
		scores := wordCosts(g, panelWords())
		for j, s := range panelSlots {
			for _, t := range s.texts {
				if c, ok := scores[t]; ok {
					costs[i][j] = min(costs[i][j], c)
				}
			}
		}
	}
	slots := alignSlots(costs)
	for i, j := range slots {
		if j < 0 {
			continue
		}
		if costs[i][j] < unmatched {
			out.labels++
		}
		r := p.rows[i]
		inset := max(1, r.Dy()/10)
		box := image.Rect(p.mid.Max.X, r.Min.Y+inset, r.Max.X-inset, r.Max.Y-inset)
		f := panelSlots[j].field
		// Drawn again whole (redrawHeld), a figure is looked for from the
		// middle's label side to the bar's end: straightened, a long number
		// may reach past the middle the bars were found empty at, and its
		// last digit into the inset.
		out.boxes[f] = figureBox{image.Rect(p.mid.Min.X, box.Min.Y, r.Max.X+inset, box.Max.Y), fills[i]}
		for _, cut := range inkCuts {
			g, ok := lightInkAt(src, box, fills[i], barH/float64(r.Dy()), cut[0], cut[1])
			if ok {
				out.fields[f] = append(out.fields[f], readGlyphs(g))
			}
		}
		// Once more at another size, as a check that does not vote.
		mid := inkCuts[len(inkCuts)/2]
		if g, ok := lightInkAt(src, box, fills[i], checkH/float64(r.Dy()), mid[0], mid[1]); ok {
			out.checks[f] = readGlyphs(g).text
		}
	}
	if out.labels < 3 {
		return panelRead{}, false
	}
	if level, whole := readBadge(src, p); len(level) > 0 {
		out.fields[core.FieldLevel] = level
		out.badgeCut = !whole
	}
	return out, true
}

// alignSlots gives each bar a slot of panelSlots, or -1: slots in the
// game's order, each used once, skipped when the build lacks it, at the
// least total cost (a bar left without a slot costs unmatched). A slot
// every build shows (all but Games) skipped between bars costs unmatched
// too: a label blurred past unmatched between Kills and Deaths is still
// Bots Kills (matched up to loosely), and a Wins bar whose label looks a
// little more like Games is Wins, since Games never comes without it.
// Slots before the first bar and after the last are free to skip (a crop).
func alignSlots(costs [][]float64) []int {
	n, m := len(costs), len(panelSlots)
	everyBuild := func(j int) bool { return panelSlots[j].field != core.FieldGames }
	skip := func(i, j int) float64 {
		if i > 0 && everyBuild(j) {
			return unmatched
		}
		return 0
	}
	// best[i][j]: least cost of bars i.. with slots j.. free.
	best := make([][]float64, n+1)
	for i := range best {
		best[i] = make([]float64, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		best[i][m] = best[i+1][m] + unmatched
		for j := m - 1; j >= 0; j-- {
			b := min(best[i][j+1]+skip(i, j), best[i+1][j]+unmatched)
			if costs[i][j] < loosely {
				b = min(b, best[i+1][j+1]+costs[i][j])
			}
			best[i][j] = b
		}
	}
	out := make([]int, n)
	for i, j := 0, 0; i < n; {
		switch {
		case j < m && costs[i][j] < loosely && best[i][j] == best[i+1][j+1]+costs[i][j]:
			out[i] = j
			i, j = i+1, j+1
		case j < m && best[i][j] == best[i][j+1]+skip(i, j):
			j++
		default:
			out[i] = -1
			i++
		}
	}
	// The bar right above the first one given a slot takes the slot before
	// it when it matches loosely, and the bar right below the last the
	// slot after it, if every build shows that one: skipping the slots
	// beyond the first and last bars is free (a crop), so a blurred Kills
	// just past unmatched over a Bots Kills would otherwise be left out,
	// and the bar stands there.
	matched := func(j int) bool { return j >= 0 }
	if f := slices.IndexFunc(out, matched); f > 0 && out[f] > 0 && costs[f-1][out[f]-1] < loosely {
		out[f-1] = out[f] - 1
	}
	if l := lastIndexFunc(out, matched); l >= 0 && l+1 < n && out[l]+1 < m && everyBuild(out[l]+1) && costs[l+1][out[l]+1] < loosely {
		out[l+1] = out[l] + 1
	}
	return out
}

// lastIndexFunc is the last index of s satisfying f, or -1.
func lastIndexFunc(s []int, f func(int) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// loosely is the worst a label may match and still be given its slot, when
// skipping the slot would cost more (alignSlots); only labels matching
// better than unmatched count towards telling the Stats panel from other
// stacks of bars.
const loosely = 0.6

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

// normCount keeps a count as digits with no leading zero.
func normCount(s string) string {
	s = strings.NewReplacer(".", "", ",", "").Replace(s)
	if s == "" || len(s) > 8 || (len(s) > 1 && s[0] == '0') {
		return ""
	}
	return s
}

// normKDR writes a K/D read as the game shows it: two decimals, whatever
// became of the point.
func normKDR(s string) string {
	d := strings.NewReplacer(".", "", ",", "").Replace(s)
	if len(d) < 3 || len(d) > 7 || (len(d) > 3 && d[0] == '0') {
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
		total[f] = max(total[f], 2*float64(len(inkCuts))) // reads that failed count against
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
		if conf[f] < sureEnough {
			r.Doubts(f, "hard to read on the screenshot")
		}
	}
	pr.lost(&r)
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
		return math.Abs(kd-float64(kills)) < 0.005
	}
	return math.Abs(kd*100-float64(kills)*100/float64(deaths)) <= 0.5+1e-6
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
	if lost < 2 {
		return
	}
	holdFigures(r, "most of the panel could not be read: please check")
}

// badgeLost is why a level whose badge may have lost a digit is held.
const badgeLost = "a digit of the level's badge may be lost: please check"

// sureEnough is the confidence below which a figure is the player's to
// confirm.
const sureEnough = 0.5
