package screens

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
)

// drawKart draws a cartoon kart (body, spoiler, wheels, driver) inside area,
// tilted by a few degrees, and returns the box it covers.
func drawKart(c *canvas, r *rand.Rand, area image.Rectangle) image.Rectangle {
	aw, ah := float64(area.Dx()), float64(area.Dy())
	size := math.Min(aw, ah*1.6) * (0.7 + 0.2*r.Float64())
	cx := float64(area.Min.X) + aw/2 + (r.Float64()-0.5)*(aw-size)*0.5
	cy := float64(area.Min.Y) + ah*0.55
	angle := (r.Float64() - 0.5) * 0.5 // about +-15 degrees
	flip := 1.0
	if r.IntN(2) == 0 {
		flip = -1
	}
	body := kartColors[r.IntN(len(kartColors))]
	helmet := kartColors[r.IntN(len(kartColors))]
	sin, cos := math.Sin(angle), math.Cos(angle)
	// Points are given in a unit frame: x in [-0.5, 0.5] (front at +x), y down.
	tr := func(pts [][2]float64) [][2]float64 {
		out := make([][2]float64, len(pts))
		for i, p := range pts {
			x, y := p[0]*size*flip, p[1]*size
			out[i] = [2]float64{cx + x*cos - y*sin, cy + x*sin + y*cos}
		}
		return out
	}
	var all [][2]float64
	fill := func(pts [][2]float64, col color.RGBA) {
		t := tr(pts)
		all = append(all, t...)
		c.poly(t, col)
	}
	dark := shade(body, 0.55)
	// A glowing platform under the kart, sometimes.
	if r.IntN(2) == 0 {
		c.poly(ellipsePts(cx, cy+size*0.22, size*0.62, size*0.1), withAlpha(rgb(255, 255, 255), 40))
	}
	c.poly(ellipsePts(cx, cy+size*0.2, size*0.5, size*0.06), color.RGBA{A: 110})
	fill(ellipsePts(-0.28, 0.1, 0.11, 0.11), color.RGBA{R: 20, G: 20, B: 24, A: 255}) // rear wheel behind
	fill(ellipsePts(0.3, 0.12, 0.09, 0.09), color.RGBA{R: 20, G: 20, B: 24, A: 255})  // front wheel behind
	fill([][2]float64{{-0.46, -0.02}, {-0.4, -0.12}, {-0.05, -0.12}, {0.15, -0.06}, {0.47, -0.02}, {0.5, 0.06}, {0.4, 0.12}, {-0.45, 0.12}}, body)
	fill([][2]float64{{-0.45, 0.06}, {0.45, 0.06}, {0.42, 0.12}, {-0.44, 0.12}}, dark)
	fill([][2]float64{{-0.5, -0.3}, {-0.32, -0.3}, {-0.32, -0.24}, {-0.5, -0.22}}, dark) // spoiler wing
	fill([][2]float64{{-0.44, -0.24}, {-0.4, -0.24}, {-0.38, -0.1}, {-0.42, -0.1}}, dark)
	fill([][2]float64{{0.3, -0.09}, {0.4, -0.06}, {0.38, -0.02}, {0.28, -0.04}}, color.RGBA{R: 240, G: 240, B: 250, A: 255})
	fill(ellipsePts(-0.08, -0.24, 0.11, 0.11), helmet) // driver's helmet
	fill([][2]float64{{-0.04, -0.28}, {0.04, -0.27}, {0.03, -0.2}, {-0.04, -0.21}}, color.RGBA{R: 30, G: 40, B: 90, A: 255})
	fill(ellipsePts(-0.26, 0.13, 0.13, 0.13), color.RGBA{R: 25, G: 25, B: 30, A: 255})
	fill(ellipsePts(-0.26, 0.13, 0.055, 0.055), color.RGBA{R: 170, G: 170, B: 180, A: 255})
	fill(ellipsePts(0.32, 0.14, 0.11, 0.11), color.RGBA{R: 25, G: 25, B: 30, A: 255})
	fill(ellipsePts(0.32, 0.14, 0.045, 0.045), color.RGBA{R: 170, G: 170, B: 180, A: 255})
	box := image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32), Max: image.Pt(math.MinInt32, math.MinInt32)}
	for _, p := range all {
		box.Min.X = min(box.Min.X, int(math.Floor(p[0])))
		box.Min.Y = min(box.Min.Y, int(math.Floor(p[1])))
		box.Max.X = max(box.Max.X, int(math.Ceil(p[0])))
		box.Max.Y = max(box.Max.Y, int(math.Ceil(p[1])))
	}
	return box.Intersect(c.img.Bounds())
}

var kartColors = []color.RGBA{
	{R: 230, G: 40, B: 50, A: 255},
	{R: 250, G: 180, B: 20, A: 255},
	{R: 40, G: 200, B: 90, A: 255},
	{R: 40, G: 140, B: 240, A: 255},
	{R: 200, G: 60, B: 220, A: 255},
	{R: 250, G: 110, B: 30, A: 255},
	{R: 240, G: 240, B: 240, A: 255},
}

func shade(c color.RGBA, f float64) color.RGBA {
	return color.RGBA{R: uint8(float64(c.R) * f), G: uint8(float64(c.G) * f), B: uint8(float64(c.B) * f), A: c.A}
}
