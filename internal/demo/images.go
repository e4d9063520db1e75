package demo

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// avatar draws a 128x128 badge: a gradient, a ring and the player's initials
// in a pixel font (no outside assets).
func avatar(initials string, hue float64) []byte {
	const size = 128
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	a, b := hsv(hue, 0.65, 0.85), hsv(math.Mod(hue+40, 360), 0.7, 0.45)
	for y := 0; y < size; y++ {
		t := float64(y) / size
		c := mix(a, b, t)
		for x := 0; x < size; x++ {
			dx, dy := float64(x-size/2), float64(y-size/2)
			d := math.Hypot(dx, dy)
			switch {
			case d > 62:
				img.Set(x, y, color.RGBA{0x1a, 0x1a, 0x1a, 0xff})
			case d > 57:
				img.Set(x, y, color.RGBA{0x00, 0xce, 0xd1, 0xff})
			default:
				img.Set(x, y, c)
			}
		}
	}
	// Initials at 13 px, scaled up 4x with nearest neighbour for a pixel look.
	small := image.NewRGBA(image.Rect(0, 0, 16, 16))
	d := font.Drawer{Dst: small, Src: image.White, Face: basicfont.Face7x13, Dot: fixed.P(1, 12)}
	d.DrawString(initials)
	w := d.Dot.X.Round()
	off := (size - w*4) / 2
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if _, _, _, al := small.At(x, y).RGBA(); al > 0x8000 {
				draw.Draw(img, image.Rect(off+x*4, 24+y*4, off+x*4+4, 24+y*4+4), image.White, image.Point{}, draw.Over)
			}
		}
	}
	return encode(img)
}

// kart draws a kart at 30 degrees on the dark background, like the seed's
// image edit does for real screenshots.
func kart(hue float64) []byte {
	const size = 256
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0x1a, 0x1a, 0x1a, 0xff}}, image.Point{}, draw.Src)
	body, accent := hsv(hue, 0.8, 0.9), hsv(math.Mod(hue+180, 360), 0.6, 0.95)
	rot := 30 * math.Pi / 180
	cos, sin := math.Cos(rot), math.Sin(rot)
	// inside reports which part of the kart the point (u, v) in kart space is.
	inside := func(u, v float64) color.Color {
		wheel := func(cu, cv float64) bool { return math.Hypot(u-cu, v-cv) < 16 }
		switch {
		case wheel(-55, 30), wheel(55, 30), wheel(-55, -30), wheel(55, -30):
			return color.RGBA{0x22, 0x22, 0x22, 0xff}
		case math.Hypot(u+5, v+0) < 17:
			return accent // helmet
		case u > -75 && u < 80 && v > -24 && v < 24 && (u < 60 || math.Abs(v) < (80-u)*1.2):
			return body
		case u > -85 && u < -70 && v > -34 && v < 34:
			return accent // spoiler
		}
		return nil
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := float64(x-size/2), float64(y-size/2)
			u, v := dx*cos+dy*sin, -dx*sin+dy*cos
			if c := inside(u, v); c != nil {
				img.Set(x, y, c)
			}
		}
	}
	return encode(img)
}

func encode(img image.Image) []byte {
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	return buf.Bytes()
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}

func hsv(h, s, v float64) color.RGBA {
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return color.RGBA{uint8((r + m) * 255), uint8((g + m) * 255), uint8((b + m) * 255), 0xff}
}
