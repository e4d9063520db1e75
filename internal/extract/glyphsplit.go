package extract

// A line of ink cut into glyphs: its connected components, and a
// component of touching glyphs cut where the cut reads best.

import (
	"image"
	"math"
)

type split struct {
	box image.Rectangle
	g   glyphGuess
}

// splitGlyphs reads a component that may be several glyphs touching: it
// tries it whole and cut at each narrow column, and keeps the reading of
// least cost per glyph.
func splitGlyphs(l *glyphLine, c image.Rectangle) []split {
	m, w, tall := l.m, l.w, l.tall
	xs := glyphCuts(l, c)
	if xs == nil {
		return []split{{c, classify(l, tightBox(m, w, c), false)}}
	}
	// best[i]: the cheapest reading of c from its left edge to cut i.
	type step struct {
		cost float64
		from int
		g    glyphGuess
	}
	best := make([]step, len(xs))
	for i := range best {
		best[i].cost = math.Inf(1)
	}
	best[0].cost = 0
	for j := 1; j < len(xs); j++ {
		for i := 0; i < j; i++ {
			if math.IsInf(best[i].cost, 1) || xs[j]-xs[i] > tall {
				continue
			}
			box := tightBox(m, w, image.Rect(xs[i], c.Min.Y, xs[j], c.Max.Y))
			var g glyphGuess
			switch {
			case l.digitTall(box.Dy()):
				g = classify(l, box, false)
			case isPoint(box, tall, c.Max.Y):
				g = classify(l, box, true)
			default:
				continue
			}
			if cost := best[i].cost + g.cost + glyphCost; cost < best[j].cost {
				best[j] = step{cost, i, g}
			}
		}
	}
	if math.IsInf(best[len(xs)-1].cost, 1) {
		return []split{{c, classify(l, tightBox(m, w, c), false)}}
	}
	var out []split
	for j := len(xs) - 1; j > 0; j = best[j].from {
		out = append(out, split{image.Rect(xs[best[j].from], c.Min.Y, xs[j], c.Max.Y), best[j].g})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// cutMinSide: a cut leaves at least tall over this on each side.
const cutMinSide = 8

// glyphCuts returns the columns component c of line l may be cut at, its
// edges first and last; nil when c is one glyph (a 1 is about half as
// wide as it is tall, and alone).
func glyphCuts(l *glyphLine, c image.Rectangle) []int {
	if c.Dx()*percent <= l.tall*oneWidePct {
		return nil
	}
	ink := make([]int, c.Dx())
	for x := c.Min.X; x < c.Max.X; x++ {
		for y := c.Min.Y; y < c.Max.Y; y++ {
			if l.m[y*l.w+x] {
				ink[x-c.Min.X]++
			}
		}
	}
	xs := []int{c.Min.X}
	// A cut leaves at least an eighth of the height on each side, and never
	// less than a column: a cut compares the ink beside it.
	minW := max(1, l.tall/cutMinSide)
	for x := minW; x < c.Dx()-minW; x++ {
		if ink[x] <= ink[x-1] && ink[x] <= ink[x+1] && ink[x]*tenths <= l.tall*cutInkTenths {
			xs = append(xs, c.Min.X+x)
		}
	}
	return append(xs, c.Max.X)
}

// tightBox shrinks r to the ink in it.
func tightBox(m []bool, w int, r image.Rectangle) image.Rectangle {
	var box image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if m[y*w+x] {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// components returns the boxes of the 8-connected groups of ink.
func components(m []bool, w int) []image.Rectangle {
	var out []image.Rectangle
	blobs(m, w, true, func(box image.Rectangle, _ []int) { out = append(out, box) })
	return out
}

// sides and around are the steps to a cell's 4 and 8 neighbours.
var (
	sides  = []image.Point{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	around = []image.Point{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}
)

// blobs calls each for every connected group of m's set cells (m is a grid
// w wide; 8-connected with diagonal, else 4-connected), in the order of
// their first cell, with the group's box and its cells (a slice reused from
// one call to the next).
func blobs(m []bool, w int, diagonal bool, each func(box image.Rectangle, cells []int)) {
	grid := image.Rect(0, 0, w, len(m)/w)
	steps := sides
	if diagonal {
		steps = around
	}
	seen := make([]bool, len(m))
	var stack, cells []int
	for start, on := range m {
		if !on || seen[start] {
			continue
		}
		box := image.Rect(start%w, start/w, start%w+1, start/w+1)
		seen[start] = true
		stack, cells = append(stack[:0], start), cells[:0]
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cells = append(cells, p)
			x, y := p%w, p/w
			box = box.Union(image.Rect(x, y, x+1, y+1))
			for _, d := range steps {
				if n := image.Pt(x, y).Add(d); n.In(grid) {
					if q := n.Y*w + n.X; m[q] && !seen[q] {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
		}
		each(box, cells)
	}
}
