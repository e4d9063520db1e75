package extract

import (
	"image"
	"maps"
	"math"
	"slices"
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

// What stays tuned in finding which stack of bars is the Stats panel.
const (
	// turnPanelDeg is the least tilt (degrees) of a photo turned upright
	// to look for its panel again.
	turnPanelDeg = 0.5
	// A photo whose long side is over largeNum/largeDen of detectSide is
	// looked for again at fineDetect times detectSide.
	largeNum, largeDen = 3, 2
	fineDetect         = 2
	// likeliestPanels is how many stacks of bars, likeliest first, are
	// read as the Stats panel.
	likeliestPanels = 3
	// A panel askew by less than 1/barelyAskewDen of a bar's height is read
	// as it is too.
	barelyAskewDen = 4
	// A bar's fill is sampled between 1/fillBandDen of its height from
	// its top and from its bottom; its label and figure are read inside an
	// inset of 1/barInsetDen of its height, at least a pixel.
	fillBandDen = 4
	barInsetDen = 10
	// minPanelLabels is the fewest bars whose label must match one of the
	// game's for the stack to be the Stats panel.
	minPanelLabels = 3
)

// barFill is the colour of bar r of p, sampled in its empty middle away
// from its edges (fillBandDen).
func barFill(src *image.RGBA, p panel, r image.Rectangle) rgb {
	return meanColor(src, image.Rect(p.mid.Min.X, r.Min.Y+r.Dy()/fillBandDen, p.mid.Max.X, r.Max.Y-r.Dy()/fillBandDen))
}

// panelRead is what was read off a Stats panel.
type panelRead struct {
	fields   map[core.Field][]glyphRead // one read per threshold
	labels   int                        // bars whose label matched
	badgeCut bool                       // the badge may have lost a digit (readBadge)
	checks   map[core.Field]string      // each figure read once more at checkH
	src      *image.RGBA                // the screen read, for redrawHeld
	boxes    map[core.Field]figureBox   // where each figure stands, for redrawHeld
	ends     map[core.Field]endGap      // where each figure's ink ends in its box (cutShort)
}

// readStatsScreen reads the game's Stats panel on img, if it shows one.
func readStatsScreen(img image.Image) (core.Reading, bool) {
	src := toRGBA(img)
	if c, ok := readPanels(src, detectSide, true); ok {
		return c.finish(), true
	}
	// A photo tilted further than the bars' ladders survive is turned
	// upright by the angle its edges share, and read again.
	if a := skewAngle(src); math.Abs(a) >= turnPanelDeg {
		if c, ok := readPanels(rotated(src, a), detectSide, true); ok {
			c.photo = true
			return c.finish(), true
		}
	}
	// A large photo with the panel small in it: its bars are looked for
	// again at the photo's own resolution (up to twice as fine).
	if b := src.Bounds(); max(b.Dx(), b.Dy()) > detectSide*largeNum/largeDen {
		if c, ok := readPanels(src, fineDetect*detectSide, true); ok {
			return c.finish(), true
		}
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
// capture what it gains a photo. When straight is not set, src is such a
// canvas, and its panels are looked for averaged (findPanelsOnCanvas).
func readPanels(src *image.RGBA, side int, straight bool) (panelReading, bool) {
	var best panelReading
	found := false
	keep := func(c panelReading) {
		if !found || fuller(c.r, best.r) {
			best, found = c, true
		}
	}
	find := findPanelsAt
	if !straight {
		find = findPanelsOnCanvas
	}
	for i, p := range find(src, side) {
		if i == likeliestPanels || found && whole(best.r) {
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
					if c, ok := readPanels(canvas, detectSide, false); ok {
						if askew(q) < rowH/barelyAskewDen {
							if c2, ok := readOne(src, p); ok && surer(c2.r, c.r) {
								c = c2
							}
						}
						c.photo = true
						keep(c)
						continue
					}
				}
			}
		}
		if c, ok := readOne(src, p); ok {
			keep(c)
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

// panelReading is a panel's figures as its glyphs read them, before the
// costly last steps (finish): the candidates are compared on this, and
// only the one kept is finished.
type panelReading struct {
	r     core.Reading
	pr    panelRead
	src   *image.RGBA
	p     panel
	photo bool // a photo of a screen: set on the reading once finished (Reading.Photo)
}

// readOne reads p as the Stats panel.
func readOne(src *image.RGBA, p panel) (panelReading, bool) {
	pr, ok := readPanel(src, p)
	if !ok {
		return panelReading{}, false
	}
	// Labels that looked like the game's over numbers in another
	// typeface read as nothing: not the game's panel after all.
	r := pr.reading()
	if !r.Has(core.FieldKills) && !r.Has(core.FieldDeaths) {
		return panelReading{}, false
	}
	return panelReading{r: r, pr: pr, src: src, p: p}, true
}

// finish draws again whole the figures held for the player, the values
// they could be laid over the screen's grey levels (rematch.go), and cuts
// out the kart beside the panel. The drawing weighs the figures as this
// panel read them (keepHeld); that the panel was a photo is set after it,
// for the reading's own checks to apply.
func (c panelReading) finish() core.Reading {
	r := c.r
	c.pr.redrawHeld(&r, c.pr.holdDrawnOtherwise(&r))
	r.Photo = c.photo
	if png, ok := panelKart(c.src, c.p); ok {
		r.CartImage, r.CartImageType = png, "image/png"
	}
	return r
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
	out := panelRead{fields: map[core.Field][]glyphRead{}, checks: map[core.Field]string{}, src: src, boxes: map[core.Field]figureBox{}, ends: map[core.Field]endGap{}}
	costs := make([][]float64, len(p.rows))
	fills := make([]rgb, len(p.rows))
	for i, r := range p.rows {
		fills[i] = barFill(src, p, r)
		inset := max(1, r.Dy()/barInsetDen)
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
		inset := max(1, r.Dy()/barInsetDen)
		box := image.Rect(p.mid.Max.X, r.Min.Y+inset, r.Max.X-inset, r.Max.Y-inset)
		f := panelSlots[j].field
		// Drawn again whole (redrawHeld), a figure is looked for from the
		// middle's label side to the bar's end: straightened, a long number
		// may reach past the middle the bars were found empty at, and its
		// last digit into the inset.
		out.boxes[f] = figureBox{image.Rect(p.mid.Min.X, box.Min.Y, r.Max.X+inset, box.Max.Y), fills[i]}
		if e, ok := endOf(src, box, fills[i]); ok {
			out.ends[f] = e
		}
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
	if out.labels < minPanelLabels {
		return panelRead{}, false
	}
	if level, whole := readBadge(src, p); len(level) > 0 {
		out.fields[core.FieldLevel] = level
		out.badgeCut = !whole
	}
	return out, true
}
