package extract

import (
	_ "embed"
	"image"
	"image/color"
	"math"
	"sort"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Smash Karts writes its figures in one typeface, Lilita One (SIL Open Font
// License, font/OFL.txt). Knowing it, the digits are read by comparing each
// glyph with the typeface's own, drawn once at start: no guessing at
// letters or words as a general OCR must, and a sureness per digit. The
// game fills the glyphs in white inside a dark outline that eats into
// them, so each digit is also drawn thinner.

//go:embed font/LilitaOne-Regular.ttf
var lilitaOne []byte

// The grid a glyph is compared on, whatever its size.
const gridW, gridH = 16, 24

// tenths, twentieths and percent are the units the package's shares are
// written in, so that they stay in integers (a glyph's height in tenths of
// the line's tallest, a bar's in tenths of a pitch).
const tenths, twentieths, percent = 10, 20, 100

// What stays tuned in reading glyphs. Ratios to the line's tallest
// component (tall) are written as whole shares (tenths, per cent) so that
// the comparisons stay in integers.
const (
	// halfGrey parts ink from paper: half of 8-bit white.
	halfGrey = 128
	// aspectWeight weighs a glyph's width-to-height (log ratio) against a
	// model's beside the grid's mean difference (0 to 1).
	aspectWeight = 0.25
	// holeCountWeight is the cost of each hole more or fewer than the
	// model's (6, 8, 9 and 0 told apart where the grid blurs them).
	holeCountWeight = 0.08
	// holeSpotWeight weighs how far up its box a single hole sits (0 to 1)
	// against the model's.
	holeSpotWeight = 0.2
	// footOf1 and footOf7 are where (share of the box's width) the foot of
	// a stem stands past which a 7 is a 1, and short of which a 1 is a 7.
	footOf1, footOf7 = 0.58, 0.5
	// digitTenths is the least height of a digit, in tenths of tall.
	digitTenths = 7
	// joinedTenths is the most two pieces joined into one glyph may
	// stand, in tenths of tall (a blurred 5's top and bowl).
	joinedTenths = 11
	// pieceQuarters: a piece under a quarter of tall is a speck.
	pieceQuarters = 4
	// unsureCost is the worst a glyph may match its model and its read
	// still count as sure at all.
	unsureCost = 0.3
	// sureGain turns the margin between a glyph's best model and the
	// runner-up into a sureness (capped at 1).
	sureGain = 4
	// A point is under pointMaxTenths of tall high, under pointWideTenths
	// wide, at least pointMinTwentieths high, within a quarter of tall of
	// the baseline.
	pointMaxTenths, pointWideTenths, pointMinTwentieths = 4, 5, 3
	// pointOffBase and pointRise: a point's bottom is within tall over
	// pointOffBase of the baseline, its top less than tall over pointRise
	// above it.
	pointOffBase, pointRise = 4, 2
	// pointFilled: a blob whose ink fills at least its box over this is a
	// filled point.
	pointFilled = 2
	// pointSure and pointUnsure are what a filled blob and a hollow one
	// cost as a point.
	pointSure, pointUnsure = 0.05, 0.3
	// oneWidePct: a component at most this share (per cent) of tall wide
	// is one glyph (a 1 is about half as wide as tall).
	oneWidePct = 55
	// cutInkTenths is the most ink (tenths of tall) a column may hold and
	// be a cut between touching glyphs.
	cutInkTenths = 7
	// joinOverlap: two pieces overlapping by more than the narrower's
	// width over this are one glyph's.
	joinOverlap = 2
	// glyphCost is added per glyph a component is cut into, so that a
	// glyph read whole beats two halves matching as well.
	glyphCost = 0.05
)

// glyphModel is one way a character can look.
type glyphModel struct {
	ch     byte
	cells  []float32
	aspect float64 // width / height of the ink
	holes  []float64
}

var glyphModels = sync.OnceValue(drawGlyphModels)

// drawGlyphModels draws the digits of Lilita One at a large size, thinned
// to several weights, and shrinks each onto the grid.
func drawGlyphModels() []glyphModel {
	var out []glyphModel
	for _, ch := range []byte("0123456789") {
		mask, w := drawText(string(ch), 96)
		for _, thin := range []int{0, 2, 4, 6} {
			m := erode(mask, w, thin)
			box := maskBounds(m, w)
			if box.Empty() {
				continue
			}
			out = append(out, glyphModel{ch: ch, cells: toGrid(m, w, box), aspect: float64(box.Dx()) / float64(box.Dy()), holes: holes(m, w, box)})
		}
	}
	return out
}

// lilitaFace is Lilita One at size pixels to the em, unhinted.
func lilitaFace(size float64) font.Face {
	f, err := opentype.Parse(lilitaOne)
	if err != nil {
		panic("extract: embedded font: " + err.Error())
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("extract: embedded font: " + err.Error())
	}
	return face
}

// drawText draws text in Lilita One, size pixels to the em, and returns
// its ink as a mask size*2 pixels tall, w wide.
func drawText(text string, size int) (mask []bool, w int) {
	face := lilitaFace(float64(size))
	defer face.Close()
	w = font.MeasureString(face, text).Ceil() + size
	img := image.NewGray(image.Rect(0, 0, w, size*2))
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.Gray{255}), Face: face, Dot: fixed.P(size/2, size*3/2)}
	d.DrawString(text)
	mask = make([]bool, len(img.Pix))
	for i, v := range img.Pix {
		mask[i] = v >= halfGrey
	}
	return mask, w
}

// erode thins a mask by n pixels.
func erode(m []bool, w, n int) []bool {
	h := len(m) / w
	cur := m
	for range n {
		next := make([]bool, len(cur))
		for y := 1; y < h-1; y++ {
			for x := 1; x < w-1; x++ {
				i := y*w + x
				next[i] = cur[i] && cur[i-1] && cur[i+1] && cur[i-w] && cur[i+w]
			}
		}
		cur = next
	}
	return cur
}

// darkMask marks the pixels of g darker than half grey: its ink. w is the
// mask's width.
func darkMask(g *image.Gray) (m []bool, w int) {
	b := g.Bounds()
	w = b.Dx()
	m = make([]bool, w*b.Dy())
	for i := range m {
		m[i] = g.Pix[(i/w)*g.Stride+i%w] < halfGrey
	}
	return m, w
}

func maskBounds(m []bool, w int) image.Rectangle {
	var box image.Rectangle
	for i, on := range m {
		if on {
			box = box.Union(image.Rect(i%w, i/w, i%w+1, i/w+1))
		}
	}
	return box
}

// toGrid shrinks the box of a mask onto the glyph grid.
func toGrid(m []bool, w int, box image.Rectangle) []float32 {
	return toCells(m, w, box, gridW, gridH)
}

// glyphGuess is what one glyph was taken for.
type glyphGuess struct {
	ch       byte
	cost     float64 // 0 is a perfect match
	runnerUp float64 // cost of the best other character
}

// classify compares the ink of box with every model of a digit, or of a
// point when point is set.
func classify(l *glyphLine, box image.Rectangle, point bool) glyphGuess {
	m, w := l.m, l.w
	if point {
		// A point is a blob: what matters is its size and place, which
		// isPoint checked. A sliver of another glyph is not filled.
		ink := 0
		for y := box.Min.Y; y < box.Max.Y; y++ {
			for x := box.Min.X; x < box.Max.X; x++ {
				if m[y*w+x] {
					ink++
				}
			}
		}
		if ink*pointFilled >= box.Dx()*box.Dy() {
			return glyphGuess{ch: '.', cost: pointSure, runnerUp: pointUnsure}
		}
		return glyphGuess{ch: '.', cost: pointUnsure, runnerUp: pointUnsure}
	}
	cells := toGrid(m, w, box)
	aspect := float64(box.Dx()) / float64(max(1, box.Dy()))
	hs := holes(m, w, box)
	best := map[byte]float64{}
	for _, gm := range glyphModels() {
		if gm.ch == '.' {
			continue
		}
		var d float64
		for i := range cells {
			d += math.Abs(float64(cells[i] - gm.cells[i]))
		}
		d = d/float64(len(cells)) + aspectWeight*math.Abs(math.Log(aspect/gm.aspect))
		// Holes tell 6, 8, 9 and 0 apart where the grid blurs them.
		d += holeCountWeight * math.Abs(float64(len(hs)-len(gm.holes)))
		if len(hs) == 1 && len(gm.holes) == 1 {
			d += holeSpotWeight * math.Abs(hs[0]-gm.holes[0])
		}
		if c, ok := best[gm.ch]; !ok || d < c {
			best[gm.ch] = d
		}
	}
	g := glyphGuess{cost: math.Inf(1), runnerUp: math.Inf(1)}
	for ch, c := range best {
		switch {
		case c < g.cost:
			g.runnerUp, g.cost, g.ch = g.cost, c, ch
		case c < g.runnerUp:
			g.runnerUp = c
		}
	}
	g = oneOrSeven(m, w, box, g)
	if useNet {
		return secondOpinion(g, classifyNet(l, box))
	}
	return g
}

// oneOrSeven tells a 1 from a 7 by the foot of its stem, which blur does
// not move: a 1 stands on the right half of its box, a 7 on the left. A
// blurred 1 grows as wide as a 7 and its flag looks like the 7's bar; the
// guess is turned to what the foot says, as unsure as the two were close.
func oneOrSeven(m []bool, w int, box image.Rectangle, g glyphGuess) glyphGuess {
	if g.ch != '1' && g.ch != '7' {
		return g
	}
	sum, n := 0, 0
	for y := box.Max.Y - box.Dy()/4; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if m[y*w+x] {
				sum += x - box.Min.X
				n++
			}
		}
	}
	if n == 0 {
		return g
	}
	foot := (float64(sum)/float64(n) + 0.5) / float64(box.Dx())
	switch {
	case g.ch == '7' && foot > footOf1:
		g.ch, g.runnerUp = '1', g.cost
	case g.ch == '1' && foot < footOf7:
		g.ch, g.runnerUp = '7', g.cost
	}
	return g
}

// holes finds the paper enclosed by the ink of box (the counters of 0, 4,
// 6, 8, 9) and returns the height of each one's middle, 0 at the top of
// the box and 1 at the bottom. Specks of paper do not count.
func holes(m []bool, w int, box image.Rectangle) []float64 {
	bw, bh := box.Dx()+2, box.Dy()+2
	paper := make([]bool, bw*bh) // box with a one-pixel paper frame
	inside := image.Rect(1, 1, bw-1, bh-1)
	for y := 0; y < bh; y++ {
		for x := 0; x < bw; x++ {
			paper[y*bw+x] = !image.Pt(x, y).In(inside) || !m[(box.Min.Y+y-1)*w+box.Min.X+x-1]
		}
	}
	var out []float64
	minArea := max(3, box.Dx()*box.Dy()/60)
	// Paper is 4-connected (ink 8-connected): paper reaching the frame is
	// outside the glyph.
	blobs(paper, bw, false, func(b image.Rectangle, cells []int) {
		if !b.In(inside) || len(cells) < minArea {
			return
		}
		sumY := 0
		for _, p := range cells {
			sumY += p / bw
		}
		out = append(out, (float64(sumY)/float64(len(cells))-1)/float64(max(1, box.Dy())))
	})
	return out
}

// glyphRead is a number read glyph by glyph.
type glyphRead struct {
	text string
	// sure is, from 0 to 1, how far the worst glyph's match stands from
	// its runner-up's.
	sure float64
}

// glyphLine is a grey line of ink and what may be its glyphs: digits
// (components a digit's height, perhaps several touching) and points.
type glyphLine struct {
	grey          *image.Gray
	m             []bool
	w             int
	tall          int // the tallest component's height
	digits, point []image.Rectangle
}

// lineOf finds the glyphs of a grey line: dark ink on white.
func lineOf(g *image.Gray) (*glyphLine, bool) {
	m, w := darkMask(g)
	comps := components(m, w)
	if len(comps) == 0 {
		return nil, false
	}
	l := &glyphLine{grey: g, m: m, w: w}
	// The digits' height and baseline: those of the tallest components.
	for _, c := range comps {
		l.tall = max(l.tall, c.Dy())
	}
	var pieces []image.Rectangle
	base := 0
	for _, c := range comps {
		if l.digitTall(c.Dy()) {
			base = max(base, c.Max.Y)
		}
	}
	for _, c := range comps {
		switch {
		case isPoint(c, l.tall, base):
			l.point = append(l.point, c)
		case c.Dy()*pieceQuarters >= l.tall:
			pieces = append(pieces, c)
		}
	}
	// Pieces of one glyph join: a thin stroke the threshold broke, or a
	// blurred 5's top apart from its bowl (neither piece a digit's height,
	// together no taller than one).
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].Min.X < pieces[j].Min.X })
	var merged []image.Rectangle
	for _, c := range pieces {
		if n := len(merged); n > 0 {
			last := merged[n-1]
			ov := min(last.Max.X, c.Max.X) - max(last.Min.X, c.Min.X)
			short := !l.digitTall(min(last.Dy(), c.Dy()))
			if ov*joinOverlap > min(last.Dx(), c.Dx()) && (!short || last.Union(c).Dy()*tenths <= l.tall*joinedTenths) {
				merged[n-1] = last.Union(c)
				continue
			}
		}
		merged = append(merged, c)
	}
	for _, c := range merged {
		if l.digitTall(c.Dy()) {
			l.digits = append(l.digits, c)
		}
	}
	return l, true
}

// digitTall tells whether h is a digit's height: at least 0.7 of the
// tallest component.
func (l *glyphLine) digitTall(h int) bool { return h*tenths >= l.tall*digitTenths }

// readGlyphs reads the digits (and a decimal point) of a grey line: dark
// ink on white, text about 30-40 px tall. Glyphs that touch are cut where
// the cut reads best.
func readGlyphs(g *image.Gray) glyphRead {
	l, ok := lineOf(g)
	if !ok {
		return glyphRead{}
	}
	var splits []split
	for _, c := range l.digits {
		splits = append(splits, splitGlyphs(l, c)...)
	}
	for _, p := range l.point {
		splits = append(splits, split{p, classify(l, p, true)})
	}
	sort.Slice(splits, func(i, j int) bool { return splits[i].box.Min.X < splits[j].box.Min.X })
	out := glyphRead{sure: 1}
	for _, p := range splits {
		out.text += string(p.g.ch)
		out.sure = min(out.sure, math.Max(0, (p.g.runnerUp-p.g.cost)*sureGain))
		if p.g.cost > unsureCost {
			out.sure = 0
		}
	}
	return out
}

// isPoint tells whether box has the size and place of a decimal point (or
// comma) on a line of digits tall pixels high standing on base.
func isPoint(box image.Rectangle, tall, base int) bool {
	return box.Dy()*tenths < tall*pointMaxTenths && box.Dx()*tenths < tall*pointWideTenths && box.Dy()*twentieths >= tall*pointMinTwentieths &&
		abs(box.Max.Y-base)*pointOffBase <= tall && box.Min.Y > base-tall/pointRise
}
