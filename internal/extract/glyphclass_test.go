package extract

import (
	"image"
	"runtime"
	"testing"

	"github.com/pitlane/pitlane/internal/extract/glyphnet"
)

// The generator and the training are reproducible: a short run twice
// gives the same weights bit for bit, and (on amd64, where the committed
// weights were made) the weights it gave when this test was written, so
// that a change to the generator or the trainer shows here and
// make train-glyphs is run again.
func TestShortTrainingIsDeterministic(t *testing.T) {
	run := func() []byte {
		n := glyphnet.New(glyphnet.TrainSeed)
		n.Train(GlyphSamples(glyphnet.TrainSeed, 12), 1, glyphnet.TrainRate, glyphnet.TrainSeed)
		return n.Marshal()
	}
	a, b := run(), run()
	if string(a) != string(b) {
		t.Fatal("two short training runs gave different weights")
	}
	if runtime.GOARCH == "amd64" && glyphnet.Sum(a) != shortRunSum {
		t.Errorf("a short training run gave %s, was %s: the generator or the trainer changed", glyphnet.Sum(a), shortRunSum)
	}
}

// shortRunSum is the SHA-256 of TestShortTrainingIsDeterministic's weights.
const shortRunSum = "1ff7fc42f776eff8ee852dff2709cf21a85a5ef2fbeb85acbe12ce29eccb40c9"

// A 1 blurred fat (its flag grown like a 7's bar) and a 7 alike are read
// as what they are, at every thickness: the classifier learned it from the
// typeface blurred, where a rule on the stem's foot used to decide.
func TestOneAndSevenGrownAreRead(t *testing.T) {
	for _, ch := range []string{"1", "7", "17", "71"} {
		for _, n := range []int{0, 1, 2} {
			mask, w := drawText(ch, 48)
			h := len(mask) / w
			g := image.NewGray(image.Rect(0, 0, w, h))
			for y := range h {
				for x := range w {
					g.Pix[y*w+x] = 255
					for dy := -n; dy <= n; dy++ {
						for dx := -n; dx <= n; dx++ {
							if yy, xx := y+dy, x+dx; yy >= 0 && yy < h && xx >= 0 && xx < w && mask[yy*w+xx] {
								g.Pix[y*w+x] = 0
							}
						}
					}
				}
			}
			if got := readGlyphs(g); got.text != ch {
				t.Errorf("%q grown by %d px read %q", ch, n, got.text)
			}
		}
	}
}
