package extract

import (
	"image"
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
