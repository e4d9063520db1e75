package extract

// The classifier's training glyphs (scripts/train-glyphs): figures drawn
// in the game's typeface as the Stats panel shows them (white, a dark
// outline, on a bar's colour), made small and put through what the photo
// simulator does to a screen (resampling, blur, moiré, grain, JPEG, the
// straightening's sharpening), then read by the reader's own steps: the
// ink at each of its cuts, the line's components, every way a component
// may be cut. Each box so tried is labelled with the digit it covers, or
// as no digit. Only the generator's seeds are used: no capture, no photo.

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/pitlane/pitlane/internal/extract/glyphnet"
	"github.com/pitlane/pitlane/internal/extract/photos"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// GlyphSamples draws n figures from seed and returns their glyphs'
// samples, in a fixed order.
func GlyphSamples(seed uint64, n int) []glyphnet.Sample {
	face := lilitaFace(trainEm)
	defer face.Close()
	var out []glyphnet.Sample
	for i := range n {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		eachGlyph(face, rng, func(l *glyphLine, box image.Rectangle, y int) {
			if y != glyphnet.Reject || chance(rng, keepReject) {
				out = append(out, glyphnet.Sample{X: glyphFeatures(l, box), Y: y})
			}
		})
	}
	return out
}

// keepReject is the share of the boxes that are no digit kept as samples
// (most of the boxes tried are: a class that large would crowd the digits).
const keepReject = 0.3

// trainEm is the size the figures are drawn at before they are made small.
const trainEm = 128

// charSpan is where one character of a drawn figure stands, in x.
type charSpan struct {
	ch   byte
	a, b float64
}

// chance is true with probability p.
func chance(rng *rand.Rand, p float64) bool { return rng.Float64() < p }

// between is uniform in [a, b).
func between(rng *rand.Rand, a, b float64) float64 { return a + (b-a)*rng.Float64() }

// trainText is a figure as the panel shows one: a count or a K/D.
func trainText(rng *rand.Rand) string {
	if chance(rng, 0.2) {
		return string(rune('0'+rng.IntN(10))) + "." + string(rune('0'+rng.IntN(10))) + string(rune('0'+rng.IntN(10)))
	}
	n := 1 + rng.IntN(6)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rng.IntN(10))
	}
	return string(b)
}

// eachGlyph draws one figure and calls each for every box of it the
// reader would classify, with its label.
func eachGlyph(face font.Face, rng *rand.Rand, each func(l *glyphLine, box image.Rectangle, y int)) {
	text := trainText(rng)
	img, spans, digitH := drawFigure(face, text, rng)
	// Made small: the digits 9-36 px tall, their width 0.8-1.15 of the
	// typeface's (a turned screen, the game's own wider digits).
	hd := math.Exp(between(rng, math.Log(9), math.Log(36)))
	k := hd / digitH
	sx := k * between(rng, 0.8, 1.15)
	photos.Blur(img, int(0.5/k))
	b := img.Bounds()
	small := photos.Resize(img, int(float64(b.Dx())*sx+0.5), int(float64(b.Dy())*k+0.5))
	// A photo resamples the screen again, blurs, adds moiré and grain; a
	// capture (a quarter of the figures) has only its own antialiasing.
	f := 1.0
	if !chance(rng, 0.25) {
		small, f = asPhotographed(small, rng)
	}
	fill, box, scale := trainBar(small)
	eachCandidate(small, fill, box, scale, spans, func(x float64) float64 { return x * sx * f }, each)
}

// asPhotographed is what a phone's photo does to small: resampled (by f),
// blurred, moiré, grain, JPEG, and the straightening's sharpening.
func asPhotographed(small *image.RGBA, rng *rand.Rand) (*image.RGBA, float64) {
	f := 1.0
	if chance(rng, 0.5) {
		f = between(rng, 0.7, 2.5)
		small = photos.Scale(small, f)
	}
	photos.Blur(small, rng.IntN(3))
	if chance(rng, 0.3) {
		photos.Moire(small, rng, between(rng, 0, 0.12))
	}
	photos.Noise(small, rng, between(rng, 0, 12))
	if chance(rng, 0.7) {
		if d, err := photos.Decode(photos.JPEG(small, 30+rng.IntN(66))); err == nil {
			small = d
		}
	}
	if chance(rng, 0.3) {
		sharpen(small, 1+rng.IntN(2), 2)
	}
	return small, f
}

// trainBar is the figure's box on a drawn bar, the bar's colour and the
// scale the reader reads it at.
func trainBar(small *image.RGBA) (rgb, image.Rectangle, float64) {
	sb := small.Bounds()
	rowH := sb.Dy()
	inset := max(1, rowH/10)
	// The bar's empty middle is the left quarter: its colour is the fill.
	fill := meanColor(small, image.Rect(sb.Min.X, sb.Min.Y+rowH/4, sb.Min.X+sb.Dx()/4, sb.Max.Y-rowH/4))
	box := image.Rect(sb.Min.X+sb.Dx()/4, sb.Min.Y+inset, sb.Max.X-inset, sb.Max.Y-inset)
	return fill, box, barH / float64(rowH)
}

// eachCandidate reads the bar small as the reader does, at each cut of
// white, and calls each for every box it would classify; at maps a drawn
// x to small's.
func eachCandidate(small *image.RGBA, fill rgb, box image.Rectangle, scale float64, spans []charSpan, at func(float64) float64, each func(l *glyphLine, box image.Rectangle, y int)) {
	xOf := func(x float64) float64 { return (at(x) - float64(box.Min.X)) * scale }
	for _, cut := range inkCuts {
		g, ok := lightInkAt(small, box, fill, scale, cut[0], cut[1])
		if !ok {
			continue
		}
		l, ok := lineOf(g)
		if !ok {
			continue
		}
		for _, c := range l.digits {
			for _, bx := range candidates(l, c) {
				each(l, bx, labelOf(bx, spans, xOf))
			}
		}
	}
}

// candidates are the boxes of component c that splitGlyphs may classify.
func candidates(l *glyphLine, c image.Rectangle) []image.Rectangle {
	xs := glyphCuts(l, c)
	if xs == nil {
		return []image.Rectangle{tightBox(l.m, l.w, c)}
	}
	var out []image.Rectangle
	for j := 1; j < len(xs); j++ {
		for i := 0; i < j; i++ {
			if xs[j]-xs[i] > l.tall {
				continue
			}
			if box := tightBox(l.m, l.w, image.Rect(xs[i], c.Min.Y, xs[j], c.Max.Y)); l.digitTall(box.Dy()) {
				out = append(out, box)
			}
		}
	}
	return out
}

// labelOf is the digit box stands for: the one character whose middle is
// in the box, most of it covered and the others hardly touched; else
// Reject.
func labelOf(box image.Rectangle, spans []charSpan, xOf func(float64) float64) int {
	const most, little = 0.7, 0.25
	label := glyphnet.Reject
	x0, x1 := float64(box.Min.X), float64(box.Max.X)
	for _, s := range spans {
		a, b := xOf(s.a), xOf(s.b)
		ov := min(b, x1) - max(a, x0)
		switch mid := (a + b) / 2; {
		case mid >= x0 && mid < x1 && label == glyphnet.Reject && s.ch != '.' && ov >= most*(b-a):
			label = int(s.ch - '0')
		case ov > little*(b-a):
			return glyphnet.Reject
		}
	}
	return label
}

// drawFigure draws text as the panel does, flush right on a bar whose left
// quarter is empty, and returns it with where each character stands and
// the digits' height.
func drawFigure(face font.Face, text string, rng *rand.Rand) (*image.RGBA, []charSpan, float64) {
	digitH := float64(face.Metrics().CapHeight) / 64
	// The bar is 2.3-2.8 digits tall (the game's 2.5).
	rowH := int(digitH * between(rng, 2.3, 2.8))
	adv := font.MeasureString(face, text).Ceil()
	pad := int(digitH * between(rng, 0.3, 0.8))
	w := adv*4/3 + 2*pad
	cov := image.NewGray(image.Rect(0, 0, w, rowH))
	base := (rowH + int(digitH)) / 2
	d := font.Drawer{Dst: cov, Src: image.NewUniform(color.Gray{255}), Face: face, Dot: fixed.P(w-pad-adv, base)}
	var spans []charSpan
	for _, r := range text {
		gb, _, _ := face.GlyphBounds(r)
		x := float64(d.Dot.X) / 64
		spans = append(spans, charSpan{byte(r), x + float64(gb.Min.X)/64, x + float64(gb.Max.X)/64})
		d.DrawString(string(r))
	}
	// The outline: the ink grown by a sixteenth of the digits' height.
	o := int(digitH * between(rng, 0.04, 0.09))
	grown := growGray(cov, o)
	fill := [3]float64{between(rng, 60, 140), between(rng, 110, 190), between(rng, 180, 250)}
	if chance(rng, 0.3) {
		fill = [3]float64{between(rng, 30, 220), between(rng, 30, 220), between(rng, 30, 220)}
	}
	dark := between(rng, 0.1, 0.5)
	white := between(rng, 225, 255)
	img := image.NewRGBA(cov.Bounds())
	for i, c := range cov.Pix {
		gw, cw := float64(grown.Pix[i])/255, float64(c)/255
		for ch := range 3 {
			v := fill[ch] * (1 - gw*(1-dark))
			img.Pix[i*4+ch] = uint8(v*(1-cw) + white*cw)
		}
		img.Pix[i*4+3] = 255
	}
	return img, spans, digitH
}

// growGray is g with each pixel the brightest within r of it (a square).
func growGray(g *image.Gray, r int) *image.Gray {
	return growAlong(growAlong(g, r, 1, 0), r, 0, 1)
}

// growAlong is g with each pixel the brightest within r of it along the
// step (dx, dy).
func growAlong(g *image.Gray, r, dx, dy int) *image.Gray {
	b := g.Bounds()
	out := image.NewGray(b)
	for y := range b.Dy() {
		for x := range b.Dx() {
			var v uint8
			for d := -r; d <= r; d++ {
				if p := image.Pt(x+d*dx, y+d*dy); p.In(b) {
					v = max(v, g.Pix[p.Y*g.Stride+p.X])
				}
			}
			out.Pix[y*out.Stride+x] = v
		}
	}
	return out
}
