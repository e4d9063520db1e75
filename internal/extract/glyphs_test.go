package extract

import (
	"image"
	"testing"
)

// A line of ink only a few pixels tall (a speck of noise, a far-off photo,
// a colour-inverted capture whose "digits" are the bars' edges) is read as
// whatever it is, or as nothing, but never runs the glyph splitter off the
// edge of its component.
func TestReadGlyphsOnTinyInk(t *testing.T) {
	for tall := 1; tall <= 12; tall++ {
		for wide := 1; wide <= 3*tall; wide++ {
			g := image.NewGray(image.Rect(0, 0, wide+4, tall+4))
			for i := range g.Pix {
				g.Pix[i] = 255
			}
			for y := 2; y < 2+tall; y++ {
				for x := 2; x < 2+wide; x++ {
					g.Pix[y*g.Stride+x] = 0
				}
			}
			read := readGlyphs(g)
			if len(read.text) > wide {
				t.Errorf("%dx%d of ink read as %q: more glyphs than pixels across", wide, tall, read.text)
			}
		}
	}
}

// A blurred 5 whose top the threshold parted from its bowl is two pieces,
// neither a digit's height: they are one glyph, not two specks dropped
// ("16015" was read 1601).
func TestAFiveInTwoPiecesIsOneGlyph(t *testing.T) {
	m, w := drawText("16015", 48)
	h := len(m) / w
	box := maskBounds(m, w)
	// The 5 is the last glyph: cut its columns through the middle, where
	// its stem meets the bowl.
	five := image.Rect(box.Max.X-box.Dx()/5-2, box.Min.Y, box.Max.X, box.Max.Y)
	cut := box.Min.Y + box.Dy()*45/100
	for y := cut; y < cut+3; y++ {
		for x := five.Min.X; x < five.Max.X; x++ {
			m[y*w+x] = false
		}
	}
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i, on := range m {
		if !on {
			g.Pix[i] = 255
		}
	}
	if got := readGlyphs(g).text; got != "16015" {
		t.Errorf("read %q, want 16015", got)
	}
}
