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

// A 1 blurred fat enough to be taken for a 7 (its flag like the 7's bar)
// is told apart by the foot of its stem, on the right of its box; a 7's
// foot is on the left, whatever it was taken for.
func TestOneOrSevenByTheFoot(t *testing.T) {
	fat := func(ch string, n int) ([]bool, int, image.Rectangle) {
		mask, w := drawText(ch, 48)
		h := len(mask) / w
		grown := make([]bool, len(mask)) // the ink grown by n pixels
		for y := n; y < h-n; y++ {
			for x := n; x < w-n; x++ {
				for d := -n; d <= n && !grown[y*w+x]; d++ {
					grown[y*w+x] = mask[(y+d)*w+x] || mask[y*w+x+d]
				}
			}
		}
		return grown, w, maskBounds(grown, w)
	}
	for _, n := range []int{0, 2, 4} {
		m, w, box := fat("1", n)
		if g := oneOrSeven(m, w, box, glyphGuess{ch: '7', cost: 0.1, runnerUp: 0.12}); g.ch != '1' || g.runnerUp > g.cost {
			t.Errorf("a 1 grown by %d taken for a 7 stays %c (sure as %v)", n, g.ch, g)
		}
		m, w, box = fat("7", n)
		if g := oneOrSeven(m, w, box, glyphGuess{ch: '1', cost: 0.1, runnerUp: 0.12}); g.ch != '7' {
			t.Errorf("a 7 grown by %d taken for a 1 stays %c", n, g.ch)
		}
		if g := oneOrSeven(m, w, box, glyphGuess{ch: '7', cost: 0.1, runnerUp: 0.3}); g.ch != '7' || g.runnerUp != 0.3 {
			t.Errorf("a 7 grown by %d read as a 7 changed to %v", n, g)
		}
	}
}
