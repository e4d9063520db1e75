package extract

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"
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
