package extract

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pitlane/pitlane/internal/extract/photos"
)

// Unsharp masking pushes each pixel away from the mean of the square
// around it; the sliding sums sharpen keeps must give the mean a square
// counted pixel by pixel gives, and leave the border and alpha alone.
func TestSharpenPushesEachPixelFromTheMeanAroundIt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 21))
	for _, rad := range []int{1, 2, 3} {
		img := image.NewRGBA(image.Rect(0, 0, 23, 17))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(256))
		}
		src := slices.Clone(img.Pix)
		sharpen(img, rad, 1.5)
		for y := range 17 {
			for x := range 23 {
				for c := range 4 {
					o := y*img.Stride + x*4 + c
					want := src[o]
					if c < 3 && x >= rad && y >= rad && x < 23-rad && y < 17-rad {
						sum := 0
						for dy := -rad; dy <= rad; dy++ {
							for dx := -rad; dx <= rad; dx++ {
								sum += int(src[o+dy*img.Stride+dx*4])
							}
						}
						n := float64((2*rad + 1) * (2*rad + 1))
						v := float64(src[o]) + 1.5*(float64(src[o])-float64(sum)/n)
						want = uint8(min(255, max(0, v)))
					}
					if img.Pix[o] != want {
						t.Fatalf("rad %d: pixel (%d,%d) channel %d = %d, want %d", rad, x, y, c, img.Pix[o], want)
					}
				}
			}
		}
	}
	tiny := image.NewRGBA(image.Rect(0, 0, 5, 5))
	sharpen(tiny, 3, 1) // smaller than the square: left as it is
}

// shrinkBy keeps a flat colour flat and averages a screen's pixel grid
// away: columns alternating dark and light (period 2, or 3) shrink by 2
// or 3 to an even grey, not to stripes.
func TestShrinkByAveragesTheGridAway(t *testing.T) {
	for _, c := range []struct{ period, k int }{{2, 2}, {3, 3}, {2, 3}} {
		img := image.NewRGBA(image.Rect(0, 0, 60, 30))
		for y := range 30 {
			for x := range 60 {
				v := uint8(60)
				if x%c.period == 0 {
					v = 200
				}
				o := img.PixOffset(x, y)
				img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = v, v, v, 255
			}
		}
		got := shrinkBy(img, c.k)
		if got.Bounds() != image.Rect(0, 0, (60+c.k-1)/c.k, (30+c.k-1)/c.k) {
			t.Fatalf("bounds %v", got.Bounds())
		}
		lo, hi := uint8(255), uint8(0)
		for y := 1; y < got.Bounds().Dy()-1; y++ {
			for x := 1; x < got.Bounds().Dx()-1; x++ {
				v := got.Pix[got.PixOffset(x, y)]
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if hi-lo > 24 || got.Pix[got.PixOffset(2, 2)+3] != 255 {
			t.Errorf("period %d shrunk by %d: greys %d-%d, want one grey", c.period, c.k, lo, hi)
		}
	}
}

// The blur is measured on a bar's top edge: a dark frame over a light
// fill, blurred as the photo simulator blurs (a box of half side r, twice
// each way), rises over about 2r+2 pixels (a sharp one in under one), and
// the sharpening's square grows with it; with no edge there is nothing to
// measure.
func TestTheBlurIsMeasuredOnABarsEdge(t *testing.T) {
	edge := func(r int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, 200, 80))
		for y := range 80 {
			v := uint8(30)
			if y >= 40 {
				v = 200
			}
			for x := range 200 {
				img.SetRGBA(x, y, color.RGBA{v / 2, v, v, 255})
			}
		}
		photos.Blur(img, r)
		return img
	}
	if rise, ok := edgeRise(edge(0), 0, 40, 200, 22); !ok || rise > 1 || sharpenRadFor(rise) != sharpenRad {
		t.Errorf("a sharp edge rose over %.2f px (%v), sharpened over %d, want under a pixel and %d", rise, ok, sharpenRadFor(rise), sharpenRad)
	}
	last := 0.0
	for r := 1; r <= 3; r++ {
		rise, ok := edgeRise(edge(r), 0, 40, 200, 22)
		t.Logf("blur %d: rise %.2f", r, rise)
		if !ok || math.Abs(rise-float64(2*r+2)) > 1.2 || rise <= last {
			t.Errorf("blur %d: rise %.2f (%v), want about %d and more than the last", r, rise, ok, 2*r+2)
		}
		if got := sharpenRadFor(rise); got < max(sharpenRad, r) || got > r+1 {
			t.Errorf("blur %d (rise %.2f): sharpened over a square of half side %d, want %d or %d", r, rise, got, max(sharpenRad, r), r+1)
		}
		last = rise
	}
	flat := image.NewRGBA(image.Rect(0, 0, 200, 80))
	if rise, ok := edgeRise(flat, 0, 40, 200, 22); ok {
		t.Errorf("a flat canvas measured a rise of %.2f", rise)
	}
	if _, ok := edgeRise(edge(1), 0, 10, 200, 22); ok {
		t.Error("rows above the canvas were measured")
	}
	if got := sharpenRadFor(40); got != maxSharpenRad {
		t.Errorf("a rise of 40 px sharpened over a half side of %d, want at most %d", got, maxSharpenRad)
	}
}
