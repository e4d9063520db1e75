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
