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
