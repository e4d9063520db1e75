package extract

import (
	"image"
	"testing"
)

// On a photo the XP's digits ("315420 / 350000") blur into a few blobs:
// a line that wide still stands for the XP text, beside which the badge
// is; a short line (a word, a coin count) does not.
func TestXPTextBlurredIntoBlobs(t *testing.T) {
	w, h := 420, 140
	m := make([]bool, w*h)
	blobs := []image.Rectangle{image.Rect(207, 85, 263, 107), image.Rect(263, 85, 295, 107), image.Rect(298, 83, 311, 110), image.Rect(316, 84, 412, 107)}
	coins := []image.Rectangle{image.Rect(40, 20, 62, 42), image.Rect(64, 20, 86, 42)}
	xp, ok := xpText(m, w, [][]image.Rectangle{coins, blobs})
	if !ok || len(xp) != len(blobs) || xp[0] != blobs[0] {
		t.Fatalf("the blurred XP line not found: %v %v", xp, ok)
	}
	if xp, ok := xpText(m, w, [][]image.Rectangle{coins}); ok {
		t.Fatalf("a short line taken for the XP text: %v", xp)
	}
}

// A badge's second digit that blur broke into its top and bottom, or ran
// into the rim, is no glyph: the digit read beside it is not the whole
// level. Ink well apart from the digits, or too thin to be a digit's
// pieces, leaves the badge whole.
func TestBadgeDigitBrokenBesideTheOneRead(t *testing.T) {
	w, h := 120, 40
	digit := image.Rect(20, 10, 29, 27) // the digit read: 17 px tall
	xpLeft := 70                        // where the XP text starts
	for _, c := range []struct {
		name  string
		ink   []image.Rectangle
		stray bool
	}{
		{"nothing beside", nil, false},
		{"a second digit in two pieces", []image.Rectangle{image.Rect(31, 10, 40, 14), image.Rect(31, 16, 40, 29)}, true},
		{"a digit run into the rim on the left", []image.Rectangle{image.Rect(5, 10, 19, 26)}, true},
		{"a speck of glare", []image.Rectangle{image.Rect(32, 12, 34, 14)}, false},
		{"ink two digits away", []image.Rectangle{image.Rect(50, 10, 58, 27)}, false},
	} {
		m := make([]bool, w*h)
		for _, r := range append([]image.Rectangle{digit}, c.ink...) {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					m[y*w+x] = true
				}
			}
		}
		if got := strayInk(m, w, digit, xpLeft); got != c.stray {
			t.Errorf("%s: stray ink %v, want %v", c.name, got, c.stray)
		}
	}
}
