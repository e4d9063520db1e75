// Package photos makes, from a capture of a screen, the images players
// really send instead: phone photos of the monitor showing it (at an angle,
// on a desk, blurred, grainy, with moiré, JPEG), recompressed and resized
// copies, cuts, turned and inverted copies, and a tooltip over a row. They
// are simulations, not photos: the reader's tests, its fuzz seeds and
// `pitlane extract -photos` use them to widen what it is measured on.
package photos

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/pitlane/pitlane/internal/extract/warp"
)

// RGBA copies img onto a canvas whose origin is (0, 0).
func RGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}

// Blank is a w x h image of one colour.
func Blank(w, h int, c color.Color) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, max(1, w), max(1, h)))
	draw.Draw(out, out.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	return out
}

// Invert turns every colour to its opposite.
func Invert(img image.Image) *image.RGBA {
	out := RGBA(img)
	for i := range out.Pix {
		if i%4 != 3 {
			out.Pix[i] = 255 - out.Pix[i]
		}
	}
	return out
}

// Resize scales img to w x h (bilinear).
func Resize(img image.Image, w, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, max(1, w), max(1, h)))
	xdraw.BiLinear.Scale(out, out.Bounds(), img, img.Bounds(), draw.Src, nil)
	return out
}

// Scale scales img by s.
func Scale(img image.Image, s float64) *image.RGBA {
	b := img.Bounds()
	return Resize(img, int(float64(b.Dx())*s+0.5), int(float64(b.Dy())*s+0.5))
}

// Crop cuts r, in shares of img's width and height (0 to 1), out of img.
func Crop(img image.Image, x0, y0, x1, y1 float64) *image.RGBA {
	b := img.Bounds()
	r := image.Rect(b.Min.X+int(x0*float64(b.Dx())), b.Min.Y+int(y0*float64(b.Dy())),
		b.Min.X+int(math.Ceil(x1*float64(b.Dx()))), b.Min.Y+int(math.Ceil(y1*float64(b.Dy())))).Intersect(b)
	if r.Empty() {
		r = image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1).Intersect(b)
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// Quarter turns img by n quarter turns clockwise.
func Quarter(img image.Image, n int) *image.RGBA {
	src := RGBA(img)
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	n = ((n % 4) + 4) % 4
	if n == 0 {
		return src
	}
	dw, dh := w, h
	if n%2 == 1 {
		dw, dh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range h {
		for x := range w {
			var dx, dy int
			switch n {
			case 1:
				dx, dy = h-1-y, x
			case 2:
				dx, dy = w-1-x, h-1-y
			case 3:
				dx, dy = y, w-1-x
			}
			copy(out.Pix[out.PixOffset(dx, dy):out.PixOffset(dx, dy)+4], src.Pix[src.PixOffset(x, y):])
		}
	}
	return out
}

// Rotate turns img by deg degrees clockwise onto a canvas of bg large
// enough for all of it.
func Rotate(img image.Image, deg float64, bg color.Color) *image.RGBA {
	src := RGBA(img)
	w, h := float64(src.Bounds().Dx()), float64(src.Bounds().Dy())
	a := deg * math.Pi / 180
	c, s := math.Abs(math.Cos(a)), math.Abs(math.Sin(a))
	cw, ch := int(math.Ceil(w*c+h*s)), int(math.Ceil(w*s+h*c))
	out := Blank(cw, ch, bg)
	var corners [4]warp.Point
	for i, p := range warp.Corners(w, h) {
		x, y := p.X-w/2, p.Y-h/2
		corners[i] = warp.Point{X: x*math.Cos(a) - y*math.Sin(a) + float64(cw)/2, Y: x*math.Sin(a) + y*math.Cos(a) + float64(ch)/2}
	}
	Onto(out, src, corners)
	return out
}

// Onto draws img onto dst with its corners (top left, top right, bottom
// right, bottom left) at the four points given.
func Onto(dst *image.RGBA, img image.Image, corners [4]warp.Point) {
	src := RGBA(img)
	w, h := float64(src.Bounds().Dx()), float64(src.Bounds().Dy())
	hm, ok := warp.Between(corners, warp.Corners(w, h))
	if !ok {
		return
	}
	box := image.Rectangle{}
	for _, c := range corners {
		box = box.Union(image.Rect(int(c.X)-1, int(c.Y)-1, int(c.X)+2, int(c.Y)+2))
	}
	sub, ok := dst.SubImage(box.Intersect(dst.Bounds())).(*image.RGBA)
	if ok {
		warp.Image(sub, src, hm)
	}
}

// Noise adds grain of amplitude amp (0 to 255) to every channel.
func Noise(img *image.RGBA, rng *rand.Rand, amp float64) {
	for i := range img.Pix {
		if i%4 != 3 {
			img.Pix[i] = clamp(float64(img.Pix[i]) + amp*(rng.Float64()-0.5)*2)
		}
	}
}

// Blur blurs img with a box of radius r, twice (near a Gaussian).
func Blur(img *image.RGBA, r int) {
	if r < 1 {
		return
	}
	for range 2 {
		boxBlur(img, r, true)
		boxBlur(img, r, false)
	}
}

func boxBlur(img *image.RGBA, r int, across bool) {
	b := img.Bounds()
	n, lines := b.Dx(), b.Dy()
	if !across {
		n, lines = lines, n
	}
	at := func(line, i int) int {
		if across {
			return img.PixOffset(b.Min.X+i, b.Min.Y+line)
		}
		return img.PixOffset(b.Min.X+line, b.Min.Y+i)
	}
	row := make([]int32, n*4)
	for l := range lines {
		for i := range n {
			copy4(row[i*4:], img.Pix[at(l, i):])
		}
		var sum [4]int32
		for i := -r; i <= r; i++ {
			k := min(max(i, 0), n-1)
			for c := range 4 {
				sum[c] += row[k*4+c]
			}
		}
		for i := range n {
			o := at(l, i)
			for c := range 4 {
				img.Pix[o+c] = uint8(sum[c] / int32(2*r+1))
			}
			out, in := min(max(i-r, 0), n-1), min(i+r+1, n-1)
			for c := range 4 {
				sum[c] += row[in*4+c] - row[out*4+c]
			}
		}
	}
}

func copy4(dst []int32, src []uint8) {
	for c := range 4 {
		dst[c] = int32(src[c])
	}
}

// Moire lays the interference of a camera's sensor with a monitor's pixel
// grid over img: faint slanted bands of colour.
func Moire(img *image.RGBA, rng *rand.Rand, strength float64) {
	b := img.Bounds()
	period := 6 + 10*rng.Float64()
	angle := rng.Float64() * math.Pi
	ca, sa := math.Cos(angle), math.Sin(angle)
	phase := [3]float64{0, 2.1, 4.2}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			t := (float64(x)*ca + float64(y)*sa) * 2 * math.Pi / period
			o := img.PixOffset(x, y)
			for c := range 3 {
				img.Pix[o+c] = clamp(float64(img.Pix[o+c]) * (1 + strength*math.Sin(t+phase[c])))
			}
		}
	}
}

// Tint multiplies each channel (a white balance off, a screen's cast).
func Tint(img *image.RGBA, r, g, b float64) {
	gain := [3]float64{r, g, b}
	for i := range img.Pix {
		if c := i % 4; c != 3 {
			img.Pix[i] = clamp(float64(img.Pix[i]) * gain[c])
		}
	}
}

// Tooltip draws a browser's tooltip (a pale box with dark text and a
// shadow), h pixels tall, with its top left corner at p.
func Tooltip(img *image.RGBA, p image.Point, text string, h int) {
	face := basicfont.Face7x13
	w, sh := font.MeasureString(face, text).Ceil()+10, 19
	small := Blank(w, sh, color.RGBA{250, 250, 238, 255})
	for x := range w {
		small.Set(x, 0, color.RGBA{120, 120, 120, 255})
		small.Set(x, sh-1, color.RGBA{120, 120, 120, 255})
	}
	for y := range sh {
		small.Set(0, y, color.RGBA{120, 120, 120, 255})
		small.Set(w-1, y, color.RGBA{120, 120, 120, 255})
	}
	d := font.Drawer{Dst: small, Src: image.NewUniform(color.RGBA{20, 20, 20, 255}), Face: face, Dot: fixed.P(5, 14)}
	d.DrawString(text)
	h = max(h, 4)
	big := Resize(small, w*h/sh, h)
	off := max(1, h/10)
	shadow := big.Bounds().Add(p).Add(image.Pt(off, off))
	draw.Draw(img, shadow, image.NewUniform(color.RGBA{0, 0, 0, 110}), image.Point{}, draw.Over)
	draw.Draw(img, big.Bounds().Add(p), big, image.Point{}, draw.Src)
}

// JPEG encodes img at quality.
func JPEG(img image.Image, quality int) []byte {
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: min(100, max(1, quality))})
	return buf.Bytes()
}

// PNG encodes img.
func PNG(img image.Image) []byte {
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	return buf.Bytes()
}

// Decode reads a JPEG or PNG made by this package back.
func Decode(data []byte) (*image.RGBA, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return RGBA(img), nil
}

func clamp(v float64) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v + 0.5)
}
