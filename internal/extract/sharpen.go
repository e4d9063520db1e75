package extract

import (
	"image"
	"math"
	"slices"
)

// sharpen lifts what a camera's lens and a screen's glow smeared (unsharp
// masking: each pixel pushed away from the mean of the square of side
// 2*rad+1 around it by amount times the difference). The square's sums
// slide along the rows and down the columns, so a large canvas costs
// little whatever rad.
func sharpen(img *image.RGBA, rad int, amount float64) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 2*rad || h <= 2*rad {
		return
	}
	src := slices.Clone(img.Pix)
	n := float64((2*rad + 1) * (2*rad + 1))
	// cols[x] is the sum of a column of 2*rad+1 pixels centred on the row,
	// kept as the rows go down; a row's sums slide along it.
	cols := make([]int, w)
	for c := range 3 {
		for x := range w {
			cols[x] = 0
			for dy := 0; dy <= 2*rad; dy++ {
				cols[x] += int(src[dy*img.Stride+x*4+c])
			}
		}
		for y := rad; y < h-rad; y++ {
			if y > rad {
				for x := range w {
					cols[x] += int(src[(y+rad)*img.Stride+x*4+c]) - int(src[(y-rad-1)*img.Stride+x*4+c])
				}
			}
			sum := 0
			for x := 0; x <= 2*rad; x++ {
				sum += cols[x]
			}
			for x := rad; x < w-rad; x++ {
				if x > rad {
					sum += cols[x+rad] - cols[x-rad-1]
				}
				o := y*img.Stride + x*4 + c
				v := float64(src[o]) + amount*(float64(src[o])-float64(sum)/n)
				img.Pix[o] = uint8(min(255, max(0, v)))
			}
		}
	}
}

// edgeRise is how many pixels (on img) the top edge of the panel's first
// bar, at (x0, y0) and w wide on the canvas, takes to rise from a tenth to
// nine tenths of the way from the dark frame above it to the bar's fill:
// the width of the photo's blur, measured on an edge the screen drew
// sharp. Its rows are averaged over the bar's middle (no label or figure
// there); reach is how many rows above and below the edge are looked at.
// ok is false when the rows leave img or show no edge.
func edgeRise(img *image.RGBA, x0, y0, w float64, reach int) (rise float64, ok bool) {
	b := img.Bounds()
	xa, xb := int(x0+w*edgeFrom), int(x0+w*edgeTo)
	top := int(y0) - reach
	if xa < b.Min.X || xb > b.Max.X || xb <= xa || top < b.Min.Y || top+2*reach >= b.Max.Y {
		return 0, false
	}
	prof := make([]float64, 2*reach+1)
	for i := range prof {
		s := 0
		for x := xa; x < xb; x++ {
			o := img.PixOffset(x, top+i)
			s += lumaR*int(img.Pix[o]) + lumaG*int(img.Pix[o+1]) + lumaB*int(img.Pix[o+2])
		}
		prof[i] = float64(s) / float64(xb-xa)
	}
	lo, hi := slices.Min(prof[:reach]), slices.Max(prof[reach+1:])
	if hi-lo < minEdgeStep*lumaScale {
		return 0, false
	}
	// From the middle crossing nearest the edge, back to a tenth and on to
	// nine tenths.
	level := func(t float64) float64 { return lo + t*(hi-lo) }
	// crosses tells whether prof rises through level(t) between rows i-1
	// and i; at is where.
	crosses := func(i int, t float64) bool { return prof[i-1] < level(t) && prof[i] >= level(t) }
	at := func(i int, t float64) float64 { return float64(i-1) + (level(t)-prof[i-1])/(prof[i]-prof[i-1]) }
	mid := -1
	for i := 1; i < len(prof); i++ {
		if crosses(i, edgeMid) && (mid < 0 || abs(i-reach) < abs(mid-reach)) {
			mid = i
		}
	}
	if mid < 0 {
		return 0, false
	}
	a, z := -1.0, -1.0
	for i := mid; i >= 1 && a < 0; i-- {
		if crosses(i, edgeLow) {
			a = at(i, edgeLow)
		}
	}
	for i := mid; i < len(prof) && z < 0; i++ {
		if crosses(i, edgeHigh) {
			z = at(i, edgeHigh)
		}
	}
	if a < 0 || z < a {
		return 0, false
	}
	return z - a, true
}

// sharpenRadFor is the sharpening's half side for a blur whose edges rise
// over rise pixels: the square about as wide as the rise (a box blur of
// half side r, twice each way, rises over about 2r+2 pixels), from
// sharpenRad to maxSharpenRad.
func sharpenRadFor(rise float64) int {
	return min(maxSharpenRad, max(sharpenRad, int(math.Round(rise/2-0.5))))
}

const (
	// edgeFrom and edgeTo: the part of a bar's width (from its left end)
	// whose columns edgeRise averages.
	edgeFrom, edgeTo = 0.45, 0.65
	// lumaR, lumaG, lumaB are a pixel's weights in its brightness, out of
	// lumaScale (ITU-R BT.601).
	lumaR, lumaG, lumaB, lumaScale = 299, 587, 114, 1000
	// edgeLow, edgeMid and edgeHigh: the rise is measured from a tenth to
	// nine tenths of the step, around its middle crossing.
	edgeLow, edgeMid, edgeHigh = 0.1, 0.5, 0.9
	// minEdgeStep is the least rise in brightness (of 255) that is an edge.
	minEdgeStep = 10
	// maxSharpenRad is the widest sharpening's half side (a blur wider
	// than this is past reading).
	maxSharpenRad = 4
)
