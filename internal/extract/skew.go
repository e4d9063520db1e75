package extract

import (
	"image"
	"image/draw"
	"math"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
)

// A phone held at a slight angle to a monitor tilts the whole screen. The
// game's bars and panels are full of horizontal edges, so the tilt is the
// angle most strong near-horizontal edges share; the screenshot is turned
// back by it before its bars are looked for again.

// maxSkew is the largest tilt, in degrees, looked for.
const maxSkew = 12

// What stays tuned in finding the tilt:
const (
	// skewSide is the longest side (pixels) the tilt is measured at.
	skewSide = 800
	// minEdge is the weakest gradient (Sobel magnitude, of 255 per pixel
	// step) counted as an edge.
	minEdge = 120
	// flatEdge: an edge counts when its gradient is at least this many
	// times more up-down than across (within about 18 degrees of level).
	flatEdge = 3
	// skewPeak is how many times the mean bin the histogram's peak must
	// stand for any angle to be taken.
	skewPeak = 6
	// leastSkew is the smallest tilt (degrees) worth turning back.
	leastSkew = 0.05
	// The angle is refined from refineBelow degrees below the histogram's
	// guess to refineAbove above it, by refineStep degrees.
	refineBelow, refineAbove, refineStep = 1, 1.5, 0.1
)

// skewAngle returns the tilt of img in degrees (positive: turned clockwise
// as seen), 0 when no angle stands out.
func skewAngle(img *image.RGBA) float64 {
	b := img.Bounds()
	s := min(1, skewSide/float64(max(b.Dx(), b.Dy())))
	w, h := max(3, int(float64(b.Dx())*s)), max(3, int(float64(b.Dy())*s))
	small := image.NewGray(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(small, small.Bounds(), img, b, draw.Src, nil)
	const binsPerDeg = 4
	hist := make([]float64, 2*maxSkew*binsPerDeg+1)
	type edge struct{ x, y, w float64 }
	var edges []edge
	at := func(x, y int) float64 { return float64(small.Pix[y*small.Stride+x]) }
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			gx := at(x+1, y-1) + 2*at(x+1, y) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x-1, y) - at(x-1, y+1)
			gy := at(x-1, y+1) + 2*at(x, y+1) + at(x+1, y+1) - at(x-1, y-1) - 2*at(x, y-1) - at(x+1, y-1)
			mag := math.Hypot(gx, gy)
			if mag < minEdge || math.Abs(gy) < flatEdge*math.Abs(gx) {
				continue
			}
			// The edge runs across the gradient: a horizontal edge has
			// gx = 0; one tilted clockwise by a has gx/gy = -tan(a).
			a := math.Atan(-gx/gy) * 180 / math.Pi
			if k := int(math.Round(a*binsPerDeg)) + maxSkew*binsPerDeg; k >= 0 && k < len(hist) {
				hist[k] += mag
				edges = append(edges, edge{float64(x), float64(y), mag})
			}
		}
	}
	// The peak of the histogram, smoothed over neighbouring bins; it must
	// stand well above the level of the rest.
	best, bestV, total := 0, 0.0, 0.0
	for k := range hist {
		v := hist[k]
		if k > 0 {
			v += hist[k-1] / 2
		}
		if k+1 < len(hist) {
			v += hist[k+1] / 2
		}
		total += hist[k]
		if v > bestV {
			best, bestV = k, v
		}
	}
	if total == 0 || bestV*float64(len(hist)) < skewPeak*total {
		return 0
	}
	// Edge directions on a pixel grid lean towards the axes, so the peak
	// is only a first guess: the angle is the one that, near it, stacks the
	// edges into the sharpest rows (the bars' top and bottom lines).
	guess := float64(best-maxSkew*binsPerDeg) / binsPerDeg
	rows := make([]float64, h+w)
	sharpest, angle := -1.0, guess
	for a := guess - refineBelow; a <= guess+refineAbove; a += refineStep {
		clear(rows)
		t := math.Tan(a * math.Pi / 180)
		for _, e := range edges {
			if r := int(e.y - e.x*t + float64(w)); r >= 0 && r < len(rows) {
				rows[r] += e.w
			}
		}
		var sq float64
		for _, v := range rows {
			sq += v * v
		}
		if sq > sharpest {
			sharpest, angle = sq, a
		}
	}
	if math.Abs(angle) < leastSkew {
		return 0
	}
	return angle
}

// rotated turns img by deg degrees anticlockwise as seen (undoing a tilt
// of deg clockwise) about its centre, on a canvas of the same size.
func rotated(img *image.RGBA, deg float64) *image.RGBA {
	b := img.Bounds()
	a := deg * math.Pi / 180
	c, s := math.Cos(a), math.Sin(a)
	cx, cy := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	// Destination from source: p' = R(-a)(p - c) + c.
	m := f64.Aff3{c, s, cx - c*cx - s*cy, -s, c, cy + s*cx - c*cy}
	dst := image.NewRGBA(b)
	xdraw.BiLinear.Transform(dst, m, img, b, draw.Src, nil)
	return dst
}
