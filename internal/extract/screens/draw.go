package screens

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// canvas wraps the RGBA image a screen is drawn on with the few primitives
// the layouts need: gradients, anti-aliased polygons and text.
type canvas struct {
	img *image.RGBA
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
}

func (c *canvas) w() int { return c.img.Bounds().Dx() }
func (c *canvas) h() int { return c.img.Bounds().Dy() }

// gradient fills the whole canvas with a vertical blend from top to bottom,
// tilted a little so the background is never one flat colour.
func (c *canvas) gradient(top, bottom color.RGBA, tilt float64) {
	w, h := c.w(), c.h()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := (float64(y) + tilt*float64(x-w/2)) / float64(h)
			t = math.Max(0, math.Min(1, t))
			i := c.img.PixOffset(x, y)
			c.img.Pix[i+0] = mix8(top.R, bottom.R, t)
			c.img.Pix[i+1] = mix8(top.G, bottom.G, t)
			c.img.Pix[i+2] = mix8(top.B, bottom.B, t)
			c.img.Pix[i+3] = 255
		}
	}
}

func mix8(a, b uint8, t float64) uint8 {
	return uint8(math.Round(float64(a)*(1-t) + float64(b)*t))
}

// poly fills a closed polygon (anti-aliased) with col, alpha included.
func (c *canvas) poly(pts [][2]float64, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	minX, minY, maxX, maxY := pts[0][0], pts[0][1], pts[0][0], pts[0][1]
	for _, p := range pts {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	r = r.Intersect(c.img.Bounds())
	if r.Empty() {
		return
	}
	z := vector.NewRasterizer(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	z.MoveTo(float32(pts[0][0]-ox), float32(pts[0][1]-oy))
	for _, p := range pts[1:] {
		z.LineTo(float32(p[0]-ox), float32(p[1]-oy))
	}
	z.ClosePath()
	z.DrawOp = draw.Over
	z.Draw(c.img, r, image.NewUniform(col), image.Point{})
}

// ellipsePts approximates an ellipse with a polygon.
func ellipsePts(cx, cy, rx, ry float64) [][2]float64 {
	const n = 48
	pts := make([][2]float64, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / n
		pts[i] = [2]float64{cx + rx*math.Cos(a), cy + ry*math.Sin(a)}
	}
	return pts
}

// roundRectPts approximates a rectangle with rounded corners of radius rad.
func roundRectPts(r image.Rectangle, rad float64) [][2]float64 {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	rad = math.Min(rad, math.Min(x1-x0, y1-y0)/2)
	var pts [][2]float64
	corner := func(cx, cy, from float64) {
		for i := 0; i <= 6; i++ {
			a := from + float64(i)*math.Pi/12
			pts = append(pts, [2]float64{cx + rad*math.Cos(a), cy + rad*math.Sin(a)})
		}
	}
	corner(x1-rad, y0+rad, -math.Pi/2)
	corner(x1-rad, y1-rad, 0)
	corner(x0+rad, y1-rad, math.Pi/2)
	corner(x0+rad, y0+rad, math.Pi)
	return pts
}

func (c *canvas) roundRect(r image.Rectangle, rad float64, col color.RGBA) {
	c.poly(roundRectPts(r, rad), col)
}

// text draws s with its baseline at (x, y) and returns the advance in pixels.
func (c *canvas) text(face font.Face, s string, x, y int, col color.RGBA) int {
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
	return d.Dot.X.Round() - x
}

func advance(face font.Face, s string) int {
	return font.MeasureString(face, s).Round()
}

// capHeight is the height of an upper-case letter, used to place text by its visible top.
func capHeight(face font.Face) int {
	b, _, _ := face.GlyphBounds('H')
	return (-b.Min.Y).Ceil()
}
