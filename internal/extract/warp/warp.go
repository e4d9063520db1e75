// Package warp maps images through a plane's perspective: the homography
// that takes four points to four others, and an image resampled through
// it. The reader uses it to undo the angle of a phone photo of a monitor;
// the photo simulator, to make one.
package warp

import (
	"image"
	"math"
)

// Point is a point of the plane, in pixels.
type Point struct{ X, Y float64 }

// H is a homography: (x, y) goes to ((a x + b y + c) / (g x + h y + 1),
// (d x + e y + f) / (g x + h y + 1)), stored as a, b, c, d, e, f, g, h.
type H [8]float64

// Map applies h to p.
func (h H) Map(p Point) Point {
	w := h[6]*p.X + h[7]*p.Y + 1
	if w == 0 {
		w = 1e-12
	}
	return Point{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// Between returns the homography taking from[i] to to[i]; ok is false
// when the points are degenerate (three in a line, or repeated).
func Between(from, to [4]Point) (H, bool) {
	// Eight equations, eight unknowns: for each pair,
	// a x + b y + c - g x X - h y X = X and d x + e y + f - g x Y - h y Y = Y.
	var m [8][9]float64
	for i := range 4 {
		x, y, X, Y := from[i].X, from[i].Y, to[i].X, to[i].Y
		m[2*i] = [9]float64{x, y, 1, 0, 0, 0, -x * X, -y * X, X}
		m[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -x * Y, -y * Y, Y}
	}
	for c := range 8 { // Gauss-Jordan with partial pivoting
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-9 {
			return H{}, false
		}
		m[c], m[p] = m[p], m[c]
		for r := range 8 {
			if r == c {
				continue
			}
			f := m[r][c] / m[c][c]
			for k := c; k < 9; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	var h H
	for i := range 8 {
		h[i] = m[i][8] / m[i][i]
		if math.IsNaN(h[i]) || math.IsInf(h[i], 0) {
			return H{}, false
		}
	}
	return h, true
}

// Image fills dst's bounds with src seen through h: each pixel p of dst
// takes src's colour at h.Map(p), bilinearly, or keeps dst's own where that
// falls outside src. h maps dst's coordinates to src's.
func Image(dst, src *image.RGBA, h H) {
	sb := src.Bounds()
	db := dst.Bounds()
	for y := db.Min.Y; y < db.Max.Y; y++ {
		for x := db.Min.X; x < db.Max.X; x++ {
			p := h.Map(Point{float64(x) + 0.5, float64(y) + 0.5})
			sx, sy := p.X-0.5, p.Y-0.5
			if !(sx >= float64(sb.Min.X) && sy >= float64(sb.Min.Y) && sx <= float64(sb.Max.X-1) && sy <= float64(sb.Max.Y-1)) {
				continue // also NaN
			}
			x0, y0 := int(sx), int(sy)
			x1, y1 := min(x0+1, sb.Max.X-1), min(y0+1, sb.Max.Y-1)
			fx, fy := sx-float64(x0), sy-float64(y0)
			i00, i01 := src.PixOffset(x0, y0), src.PixOffset(x1, y0)
			i10, i11 := src.PixOffset(x0, y1), src.PixOffset(x1, y1)
			o := dst.PixOffset(x, y)
			for c := range 4 {
				top := float64(src.Pix[i00+c])*(1-fx) + float64(src.Pix[i01+c])*fx
				bot := float64(src.Pix[i10+c])*(1-fx) + float64(src.Pix[i11+c])*fx
				dst.Pix[o+c] = uint8(top*(1-fy) + bot*fy + 0.5)
			}
		}
	}
}

// Pt is the point (x, y).
func Pt(x, y float64) Point { return Point{x, y} }

// Corners are the corners of a w x h rectangle at the origin: top left,
// top right, bottom right, bottom left.
func Corners(w, h float64) [4]Point { return [4]Point{{0, 0}, {w, 0}, {w, h}, {0, h}} }
