package extract

import (
	"image"
	"slices"
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

// The XP's slash stands taller than its digits and a space apart, and a
// digit JPEG made shorter breaks the digits' line: the slash and the
// digits either side are still one XP text ("345150 / 355000" on a chat
// app's copy), which starts at its first digit, not at the slash.
func TestXPTextWithItsSlashOnNoLine(t *testing.T) {
	w, h := 200, 40
	m := make([]bool, w*h)
	fill := func(r image.Rectangle) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				m[y*w+x] = true
			}
		}
	}
	left := []image.Rectangle{image.Rect(81, 20, 87, 29), image.Rect(88, 21, 96, 28), image.Rect(97, 20, 104, 29), image.Rect(105, 20, 116, 29), image.Rect(117, 21, 124, 29)}
	slash := image.Rect(130, 19, 134, 30)
	right := []image.Rectangle{image.Rect(140, 20, 147, 29), image.Rect(147, 21, 154, 29), image.Rect(155, 20, 161, 29), image.Rect(162, 20, 186, 29)}
	badge := []image.Rectangle{image.Rect(48, 20, 57, 32), image.Rect(59, 20, 68, 32)}
	var text []image.Rectangle
	for _, r := range slices.Concat(badge, left, right) {
		fill(r)
		text = append(text, r)
	}
	for y := slash.Min.Y; y < slash.Max.Y; y++ { // leaning: its top further right
		m[y*w+slash.Max.X-1-(y-slash.Min.Y)*3/10] = true
	}
	text = append(text, slash)
	xp, ok := xpText(m, w, glyphLines(text))
	if !ok || len(xp) != len(left)+1+len(right) || xp[0] != left[0] {
		t.Fatalf("the XP text: %v (%v), want %v / %v", xp, ok, left, right)
	}
}

// Blurred, the badge's digits ("24", taller than the XP's) can fall on the
// XP text's line: they are taken off it, across the rim's gap, and the
// badge is found left of the XP's own digits. The XP's digits stay.
func TestBadgeDigitsRunIntoTheXPLineAreTakenOff(t *testing.T) {
	badge := []image.Rectangle{image.Rect(147, 99, 164, 126), image.Rect(170, 100, 191, 125)}
	xp := []image.Rectangle{image.Rect(216, 98, 304, 120), image.Rect(312, 98, 323, 122), image.Rect(333, 98, 425, 120)}
	if got := badgeOff(append(append([]image.Rectangle{}, badge...), xp...)); len(got) != len(xp) || got[0] != xp[0] {
		t.Errorf("the line with the badge's digits: %v, want %v", got, xp)
	}
	if got := badgeOff(xp); len(got) != len(xp) {
		t.Errorf("the XP line alone: %v, want %v", got, xp)
	}
	// An XP starting with a 1 that JPEG made taller, a little apart from
	// the digits blurred together after it: no badge there.
	one := []image.Rectangle{image.Rect(135, 30, 141, 47), image.Rect(148, 31, 157, 45), image.Rect(158, 31, 170, 45), image.Rect(171, 31, 183, 45)}
	if got := badgeOff(one); len(got) != len(one) {
		t.Errorf("the XP's first 1 taken off: %v", got)
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
