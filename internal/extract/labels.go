package extract

// The Stats panel's labels (Kills, Deaths, …) told apart by their shape in
// the game's typeface, as glyphs.go tells the digits apart.

import (
	"image"
	"math"
)

// The grid a label is compared on.
const wordW, wordH = 48, 12

// labelEdge is how near, in pixels of the label's crop scaled to barH,
// its ink must start to the crop's left for the label to be taken as cut
// short (a whole label stands a bar's padding in).
const labelEdge = 3

// Which ink of a label's crop makes its box (tallest: its tallest
// component):
const (
	// labelInkThirds: a component at least 1/labelInkThirds of tallest
	// high and narrower than labelInkWideTalls crop heights is the label's.
	labelInkThirds, labelInkWideTalls = 3, 2
	// labelInkHalves: a component at least 1/labelInkHalves of tallest
	// high is the label's, however wide.
	labelInkHalves = 2
)

// cutCost is what taking a label as cut short costs its match: a whole
// label matching nearly as well is the likelier (a cut "Games" looks much
// like "Wins").
const cutCost = 0.05

// wordModel is one way a label can look.
type wordModel struct {
	text   string
	cells  []float32
	aspect float64
	cut    bool // its first letter cut short at the left
}

// labelCuts are how much of a label's first letter a crop may have taken
// (a screenshot cut through the labels: the panel's left edge lost), as
// shares of the letters' height; a capital is about 0.6 of it wide.
var labelCuts = []float64{0.1, 0.2, 0.3, 0.4}

// wordModels draws the labels at several weights, like glyphModels, whole
// and with their first letter cut short.
func drawWordModels(texts []string) []wordModel {
	var out []wordModel
	for _, t := range texts {
		mask, w := drawText(t, 64)
		for _, thin := range []int{0, 2, 4} {
			m := erode(mask, w, thin)
			box := maskBounds(m, w)
			if box.Empty() {
				continue
			}
			out = append(out, wordModel{text: t, cells: toCells(m, w, box, wordW, wordH), aspect: float64(box.Dx()) / float64(box.Dy())})
			for _, c := range labelCuts {
				cb := box
				if cb.Min.X += int(c * float64(box.Dy())); cb.Dx() < box.Dy() {
					continue
				}
				// The ink left after the cut, boxed again as wordCosts boxes it.
				cut := make([]bool, len(m))
				for y := cb.Min.Y; y < cb.Max.Y; y++ {
					copy(cut[y*w+cb.Min.X:y*w+cb.Max.X], m[y*w+cb.Min.X:y*w+cb.Max.X])
				}
				if cb = maskBounds(cut, w); cb.Empty() {
					continue
				}
				out = append(out, wordModel{text: t, cells: toCells(cut, w, cb, wordW, wordH), aspect: float64(cb.Dx()) / float64(cb.Dy()), cut: true})
			}
		}
	}
	return out
}

// toCells shrinks the box of a mask onto a grid of gw by gh cells: each
// cell holds the share of its area that is ink.
func toCells(m []bool, w int, box image.Rectangle, gw, gh int) []float32 {
	cells := make([]float32, gw*gh)
	area := make([]float32, gw*gh)
	bw, bh := box.Dx(), box.Dy()
	for y := box.Min.Y; y < box.Max.Y; y++ {
		gy := (y - box.Min.Y) * gh / bh
		for x := box.Min.X; x < box.Max.X; x++ {
			i := gy*gw + (x-box.Min.X)*gw/bw
			area[i]++
			if m[y*w+x] {
				cells[i]++
			}
		}
	}
	for i := range cells {
		if area[i] > 0 {
			cells[i] /= area[i]
		}
	}
	return cells
}

// wordCosts tells how well the ink of g (dark on white) matches each text
// of models: 0 is a perfect match.
func wordCosts(g *image.Gray, models []wordModel) map[string]float64 {
	b := g.Bounds()
	m, w := darkMask(g)
	// The label's ink: components of some size, so that specks and the
	// bar's rounded ends left in the crop do not stretch the box.
	tall := 0
	comps := components(m, w)
	for _, c := range comps {
		tall = max(tall, c.Dy())
	}
	var box image.Rectangle
	for _, c := range comps {
		if c.Dy()*labelInkThirds >= tall && c.Dx() < b.Dy()*labelInkWideTalls || c.Dy()*labelInkHalves >= tall {
			box = box.Union(c)
		}
	}
	if box.Empty() {
		return nil
	}
	cells := toCells(m, w, box, wordW, wordH)
	aspect := float64(box.Dx()) / float64(box.Dy())
	// Ink from the crop's first columns: the label may have lost the left
	// of its first letter to the screenshot's edge.
	cutShort := box.Min.X <= b.Min.X+labelEdge
	best := map[string]float64{}
	for _, wm := range models {
		if wm.cut && !cutShort {
			continue
		}
		var d float64
		for i := range cells {
			d += math.Abs(float64(cells[i] - wm.cells[i]))
		}
		d = d/float64(len(cells)) + 0.5*math.Abs(math.Log(aspect/wm.aspect))
		if wm.cut {
			d += cutCost
		}
		if c, ok := best[wm.text]; !ok || d < c {
			best[wm.text] = d
		}
	}
	return best
}
