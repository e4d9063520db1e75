package extract

// A figure's box on the screen as grey levels (1 the letters' white, 0
// the bar's fill), and how well a drawing matches it: the redraw's
// measure (rematch.go).

import (
	"image"
	"math"
)

// What stays tuned in reading a figure's white:
const (
	// inkWhite is the grey level (of 1, white) over which a pixel is ink.
	inkWhite = 0.5
	// minWhiteBox is the shortest side (pixels) of a box measured.
	minWhiteBox = 4
	// minInkRows: a figure's top and bottom rows are more than this many
	// pixels apart to be looked at.
	minInkRows = 3
	// minSeenSide and maxSeenPixels bound a scaled map: its shortest side
	// and its area, in pixels.
	minSeenSide, maxSeenPixels = 8, 1 << 20
)

// fmap is a map of grey levels, 1 the letters' white, 0 the bar's fill.
type fmap struct {
	w, h int
	pix  []float32
}

func (m fmap) at(x, y int) float32 {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return 0
	}
	return m.pix[y*m.w+x]
}

// inkSpan is where a map's figure stands. Its digits are the lightest
// thing in the box, flush right: the columns holding pixels over half
// white, the last run of them (a gap of a quarter of the box's height
// parts it from a label or a speck), then the rows those columns fill.
func (m fmap) inkSpan() (x0, x1, y0, y1 int, ok bool) {
	x0, x1, ok = lastRun(m.inkCols(0, m.h-1), max(2, m.h/4))
	if !ok {
		return
	}
	rows := make([]float32, m.h)
	for y := range m.h {
		for x := x0; x <= x1; x++ {
			rows[y] += m.pix[y*m.w+x]
		}
	}
	if y0, y1, ok = span(rows, 0.3); !ok {
		return
	}
	x0, x1, ok = lastRun(m.inkCols(y0, y1), max(2, (y1-y0+1)/2))
	return
}

// inkCols counts in each column the pixels of rows y0 to y1 over half
// white.
func (m fmap) inkCols(y0, y1 int) []int {
	cols := make([]int, m.w)
	for y := y0; y <= y1; y++ {
		for x := range m.w {
			if m.pix[y*m.w+x] >= inkWhite {
				cols[x]++
			}
		}
	}
	return cols
}

// lastRun is the last run of columns holding ink (two pixels or more, or
// a tenth of the fullest), gaps up to gap columns allowed inside.
func lastRun(cols []int, gap int) (a, b int, ok bool) {
	top := 0
	for _, c := range cols {
		top = max(top, c)
	}
	min := max(2, top/10)
	b = -1
	for x := len(cols) - 1; x >= 0; x-- {
		if cols[x] >= min {
			b = x
			break
		}
	}
	if b < 0 {
		return 0, 0, false
	}
	a = b
	for x, g := b, 0; x >= 0; x-- {
		if cols[x] >= min {
			a, g = x, 0
		} else if g++; g > gap {
			break
		}
	}
	return a, b, true
}

// span is the first and last index whose value reaches share of the most.
func span(v []float32, share float32) (a, b int, ok bool) {
	var top float32
	for _, x := range v {
		top = max(top, x)
	}
	if top <= 0 {
		return 0, 0, false
	}
	a, b = -1, -1
	for i, x := range v {
		if x >= share*top {
			if a < 0 {
				a = i
			}
			b = i
		}
	}
	return a, b, true
}

// seen is a figure's box on the screen as grey levels, scaled so that its
// digits stand about synthH tall.
type seen struct {
	m              fmap
	x0, x1, y0, y1 int       // its ink
	sum, sq        []float64 // running sums of m and of its squares, (w+1) x (h+1)
}

// summed fills in the running sums of s.
func (s seen) summed() seen {
	w := s.m.w + 1
	s.sum, s.sq = make([]float64, w*(s.m.h+1)), make([]float64, w*(s.m.h+1))
	for y := range s.m.h {
		var rs, rq float64
		for x := range s.m.w {
			v := float64(s.m.pix[y*s.m.w+x])
			rs += v
			rq += v * v
			s.sum[(y+1)*w+x+1] = s.sum[y*w+x+1] + rs
			s.sq[(y+1)*w+x+1] = s.sq[y*w+x+1] + rq
		}
	}
	return s
}

// sums are the sums of the screen's grey levels and of their squares over
// columns x0..x1 and rows y0..y1 (0 outside the map).
func (s seen) sums(x0, y0, x1, y1 int) (sum, sq float64) {
	x0, y0 = max(0, x0), max(0, y0)
	x1, y1 = min(s.m.w-1, x1), min(s.m.h-1, y1)
	if x1 < x0 || y1 < y0 {
		return 0, 0
	}
	w := s.m.w + 1
	a, b, c, d := y0*w+x0, y0*w+x1+1, (y1+1)*w+x0, (y1+1)*w+x1+1
	return s.sum[d] - s.sum[b] - s.sum[c] + s.sum[a], s.sq[d] - s.sq[b] - s.sq[c] + s.sq[a]
}

// whiteMap measures the white of box over fill: 1 the letters' white
// (the lightest hundredth of the box), 0 the fill or darker.
func whiteMap(src *image.RGBA, box image.Rectangle, fill rgb) (fmap, bool) {
	box = box.Intersect(src.Bounds())
	if box.Dx() < minWhiteBox || box.Dy() < minWhiteBox {
		return fmap{}, false
	}
	ex, top, ok := whiteOver(src, box, fill)
	if !ok {
		return fmap{}, false
	}
	m := fmap{w: box.Dx(), h: box.Dy(), pix: make([]float32, len(ex))}
	for i, e := range ex {
		m.pix[i] = min(1, float32(e)/float32(top))
	}
	return m, true
}

// lookAt scales a white map so that its digits stand k times synthH
// tall, and its width sx times more, for each k and sx.
func lookAt(raw fmap, ks, sxs []float64) []seen {
	_, _, y0, y1, ok := raw.inkSpan()
	if !ok || y1-y0 < minInkRows {
		return nil
	}
	var out []seen
	for _, k := range ks {
		for _, sx := range sxs {
			f := k * synthH / float64(y1-y0+1)
			fx := f * sx
			w, h := int(float64(raw.w)*fx), int(float64(raw.h)*f)
			if w < minSeenSide || h < minSeenSide || w*h > maxSeenPixels {
				continue
			}
			m := fmap{w: w, h: h, pix: make([]float32, w*h)}
			for y := range h {
				sy := (float64(y)+0.5)/f - 0.5
				for x := range w {
					m.pix[y*w+x] = bilinear(raw, (float64(x)+0.5)/fx-0.5, sy)
				}
			}
			s := seen{m: m}
			if s.x0, s.x1, s.y0, s.y1, ok = m.inkSpan(); ok {
				out = append(out, s.summed())
			}
		}
	}
	return out
}

func bilinear(m fmap, x, y float64) float32 {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	return (m.at(x0, y0)*(1-fx)+m.at(x0+1, y0)*fx)*(1-fy) + (m.at(x0, y0+1)*(1-fx)+m.at(x0+1, y0+1)*fx)*fy
}

// likeness is how well text drawn in face matches s: the best normalised
// correlation over shifts of up to shift pixels, the drawing's ink ending
// where the screen's does (the game writes its figures flush right).
func likeness(face synthFace, text string, s seen, shift int) float64 {
	return drawIn(face, text).likeness(s, shift)
}

// drawing is text drawn in a face, and the columns its ink spans.
type drawing struct {
	t        fmap
	tx0, tx1 int
	ok       bool // false when it has no ink
}

// drawIn draws text in face (the fit draws each value once a face, to
// lay it over every size of the screen's box).
func drawIn(face synthFace, text string) drawing {
	pix, w, h := face.draw(text)
	d := drawing{t: fmap{w: w, h: h, pix: pix}}
	d.tx0, d.tx1, _, _, d.ok = d.t.inkSpan()
	return d
}

// likeness is how well the drawing matches s (likeness above).
func (d drawing) likeness(s seen, shift int) float64 {
	t, tx0, tx1 := d.t, d.tx0, d.tx1
	if !d.ok {
		return -1
	}
	// Where the drawing's digits stand (synthPad to synthPad+synthH) goes
	// over the screen's ink rows.
	best := -1.0
	for dy := -shift; dy <= shift; dy++ {
		for dx := -shift; dx <= shift; dx++ {
			ox := s.x1 - tx1 + dx // drawing x = screen x - ox
			oy := s.y0 - synthPad + dy
			x0 := min(s.x0, tx0+ox) - 3
			x1 := max(s.x1, tx1+ox) + 3
			y0, y1 := s.y0-3, s.y1+3
			// The screen's sums over the window come from its running
			// sums; the drawing's only where it is drawn.
			so, soo := s.sums(x0, y0, x1, y1)
			var st, stt, sot float64
			for y := max(y0, oy); y <= min(y1, oy+t.h-1); y++ {
				trow := t.pix[(y-oy)*t.w:]
				for x := max(x0, ox); x <= min(x1, ox+t.w-1); x++ {
					d := float64(trow[x-ox])
					st += d
					stt += d * d
					if x >= 0 && y >= 0 && x < s.m.w && y < s.m.h {
						sot += d * float64(s.m.pix[y*s.m.w+x])
					}
				}
			}
			n := (x1 - x0 + 1) * (y1 - y0 + 1)
			fn := float64(n)
			cov := sot - so*st/fn
			v := (soo - so*so/fn) * (stt - st*st/fn)
			if v <= 0 {
				continue
			}
			best = max(best, cov/math.Sqrt(v))
		}
	}
	return best
}
