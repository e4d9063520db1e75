package extract

import (
	"image"
	"image/draw"

	xdraw "golang.org/x/image/draw"
)

// The game writes its figures in white, outlined in dark blue, on bars of
// a lighter blue. Glyphs are read best as dark ink on white paper, so the
// white of the letters is lifted out of each bar: the outline and the bar
// fall away together.

// lightInk cuts r out of src and turns the pixels lighter than fill into
// dark ink on white, scaled by scale. Whatever is darker than fill (the
// outline, shadows) is paper. ok is false when nothing in r is much
// lighter than fill.
func lightInk(src *image.RGBA, r image.Rectangle, fill rgb, scale float64) (*image.Gray, bool) {
	return lightInkAt(src, r, fill, scale, 35, 70)
}

// lightInkAt is lightInk with the thresholds given: a pixel whose excess
// of light over fill is below loPct percent of the letters' white is
// paper, above hiPct percent ink, grey between.
func lightInkAt(src *image.RGBA, r image.Rectangle, fill rgb, scale float64, loPct, hiPct int32) (*image.Gray, bool) {
	r = r.Intersect(src.Bounds())
	if r.Empty() {
		return nil, false
	}
	ex, top, ok := whiteOver(src, r, fill)
	if !ok {
		return nil, false
	}
	lo, hi := top*loPct/100, top*hiPct/100
	g := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
	for i, e := range ex {
		switch {
		case e <= lo:
			g.Pix[i] = 255
		case e >= hi:
			g.Pix[i] = 0
		default:
			g.Pix[i] = uint8(255 - (e-lo)*255/(hi-lo))
		}
	}
	if scale == 1 {
		return g, true
	}
	w, h := max(1, int(float64(r.Dx())*scale+0.5)), max(1, int(float64(r.Dy())*scale+0.5))
	out := image.NewGray(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(out, out.Bounds(), g, g.Bounds(), draw.Src, nil)
	return out, true
}

// What stays tuned in finding the letters' white:
const (
	// lightestShare: the letters' white is that of the lightest hundredth
	// of a crop's pixels.
	lightestShare = 100
	// leastRoom is the least room (summed over red, green and blue) a
	// fill is given below white, so that a near-white fill still needs
	// letters clearly lighter.
	leastRoom = 60
	// whiteTenths: the letters must stand at least this many tenths of
	// the room above the fill to be letters at all.
	whiteTenths = 3
)

// whiteOver measures how much lighter than fill each pixel of r is (the
// sum over red, green and blue), and the letters' white: the light end of
// the crop (its lightest hundredth), whatever the screen or the camera
// made of it. ok is false when that is too close to fill to be letters.
func whiteOver(src *image.RGBA, r image.Rectangle, fill rgb) (ex []int32, top int32, ok bool) {
	room := max(leastRoom, (255-fill.r)+(255-fill.g)+(255-fill.b))
	ex = make([]int32, r.Dx()*r.Dy())
	var hist [766]int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := src.PixOffset(x, y)
			e := max(0, int32(src.Pix[i])-fill.r) + max(0, int32(src.Pix[i+1])-fill.g) + max(0, int32(src.Pix[i+2])-fill.b)
			ex[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = e
			hist[min(765, e)]++
		}
	}
	top, seen := int32(765), 0
	for ; top > 0; top-- {
		if seen += hist[top]; seen*lightestShare >= len(ex) {
			break
		}
	}
	return ex, top, top*tenths >= room*whiteTenths
}

// toRGBA returns img as *image.RGBA, converting only when it is not one.
func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	b := img.Bounds()
	r := image.NewRGBA(b)
	draw.Draw(r, b, img, b.Min, draw.Src)
	return r
}
