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
