package extract

// The game's typeface drawn for the redraw (rematch.go): its digits and
// point as coverage maps, thinned, blurred and laid out as the game writes
// a figure.

import (
	"image"
	"image/color"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// synthH is the height, in pixels, the digits are drawn and compared at.
const synthH = 24

// synthPad is the margin around each drawn glyph, room for the blur.
const synthPad = 8

// synthGlyph is one character of the typeface drawn at synthH: its
// coverage from 0 to 1, drawn with its pen at x = synthPad.
type synthGlyph struct {
	w, h int
	pix  []float32
	adv  float64
}

type synthFace struct {
	glyph map[byte]synthGlyph
	kern  map[[2]byte]float64
}

// synthFaces are the digits and the point as the typeface draws them (0)
// and thinned by about a pixel (1), as the game's outline eats into them.
var synthFaces = sync.OnceValue(func() [2]synthFace {
	// The size at which a 0 stands synthH pixels tall.
	m, w := drawText("0", 96)
	face := lilitaFace(96 * float64(synthH) / float64(maskBounds(m, w).Dy()))
	defer face.Close()
	var out [2]synthFace
	for i := range out {
		out[i] = synthFace{glyph: map[byte]synthGlyph{}, kern: map[[2]byte]float64{}}
	}
	chars := "0123456789."
	for _, ch := range []byte(chars) {
		adv, _ := face.GlyphAdvance(rune(ch))
		gw, gh := int(float64(adv)/64)+2*synthPad+2, synthH+2*synthPad
		img := image.NewGray(image.Rect(0, 0, gw, gh))
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.Gray{255}), Face: face, Dot: fixed.P(synthPad, synthPad+synthH)}
		d.DrawString(string(ch))
		g := synthGlyph{w: gw, h: gh, pix: make([]float32, gw*gh), adv: float64(adv) / 64}
		for i, v := range img.Pix {
			g.pix[i] = float32(v) / 255
		}
		out[0].glyph[ch] = g
		out[1].glyph[ch] = thinGlyph(g)
		for _, ch2 := range []byte(chars) {
			k := float64(face.Kern(rune(ch), rune(ch2))) / 64
			for i := range out {
				out[i].kern[[2]byte{ch, ch2}] = k
			}
		}
	}
	return out
})

// thinGlyph takes about a pixel off each edge of a glyph.
func thinGlyph(g synthGlyph) synthGlyph {
	t := g
	t.pix = make([]float32, len(g.pix))
	for y := 1; y < g.h-1; y++ {
		for x := 1; x < g.w-1; x++ {
			i := y*g.w + x
			t.pix[i] = min(g.pix[i], g.pix[i-1], g.pix[i+1], g.pix[i-g.w], g.pix[i+g.w])
		}
	}
	return t
}

// blurred is a face blurred by a Gaussian: drawing is linear, so a value
// drawn from blurred glyphs is the value drawn then blurred.
func (f synthFace) blurred(sigma float64) synthFace {
	out := synthFace{glyph: map[byte]synthGlyph{}, kern: f.kern}
	k := gaussKernel(sigma)
	for ch, g := range f.glyph {
		b := g
		b.pix = convolve(convolve(g.pix, g.w, g.h, k, 1, 0), g.w, g.h, k, 0, 1)
		out.glyph[ch] = b
	}
	return out
}

func gaussKernel(sigma float64) []float32 {
	r := int(math.Ceil(2.5 * sigma))
	k := make([]float32, 2*r+1)
	var sum float32
	for i := range k {
		x := float64(i - r)
		k[i] = float32(math.Exp(-x * x / (2 * sigma * sigma)))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	return k
}

// convolve runs kernel k along x (dx 1) or y (dy 1) over a w x h map.
func convolve(p []float32, w, h int, k []float32, dx, dy int) []float32 {
	out := make([]float32, len(p))
	r := len(k) / 2
	for y := range h {
		for x := range w {
			var s float32
			for i, kv := range k {
				xx, yy := x+(i-r)*dx, y+(i-r)*dy
				if xx >= 0 && xx < w && yy >= 0 && yy < h {
					s += kv * p[yy*w+xx]
				}
			}
			out[y*w+x] = s
		}
	}
	return out
}

// draw lays text out in the typeface, as the game does.
func (f synthFace) draw(text string) (pix []float32, w, h int) {
	pens := make([]float64, len(text))
	pen := 0.0
	for i := range len(text) {
		pens[i] = pen
		pen += f.glyph[text[i]].adv
		if i+1 < len(text) {
			pen += f.kern[[2]byte{text[i], text[i+1]}]
		}
	}
	w, h = int(pen)+2*synthPad+2, synthH+2*synthPad
	pix = make([]float32, w*h)
	for i := range len(text) {
		g := f.glyph[text[i]]
		x0 := int(math.Round(pens[i]))
		for y := range g.h {
			row := pix[y*w:]
			for x := range g.w {
				if xx := x0 + x; xx < w {
					row[xx] += g.pix[y*g.w+x]
				}
			}
		}
	}
	return pix, w, h
}
