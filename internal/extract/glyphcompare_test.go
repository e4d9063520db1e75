package extract

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/extract/glyphnet"
	xdraw "golang.org/x/image/draw"
)

// heldOutGlyphSeed draws the glyphs the readers are compared on: a seed of
// the generator the training never used (it uses glyphnet.TrainSeed and,
// for its own check, the next).
const heldOutGlyphSeed = 9041

// The three glyph readers (the drawn models on the thresholded ink, the
// classifier on the grey levels, the two together as the reader uses
// them) and stock Tesseract (--psm 10, digits only) on the same held-out
// glyphs: the boxes of the generator's figures that are one digit. Run by
// hand (docs/extract.md, round 13):
//
//	GLYPH_COMPARE=400 go test -run TestGlyphReadersOnHeldOutGlyphs -v ./internal/extract
func TestGlyphReadersOnHeldOutGlyphs(t *testing.T) {
	var n int
	if _, err := fmt.Sscan(os.Getenv("GLYPH_COMPARE"), &n); err != nil || n <= 0 {
		t.Skip("GLYPH_COMPARE=figures runs it")
	}
	_, tessErr := exec.LookPath("tesseract")
	face := lilitaFace(trainEm)
	defer face.Close()
	defer func(was bool) { useNet = was }(useNet)
	names := []string{"models", "classifier", "both", "tesseract"}
	right := make([]int, len(names))
	sure := make([]int, len(names))    // read with a sureness of 1
	sureBad := make([]int, len(names)) // of those, wrong
	total := 0
	for i := range n {
		rng := rand.New(rand.NewPCG(heldOutGlyphSeed, uint64(i)))
		cut := 0
		eachGlyph(face, rng, func(l *glyphLine, box image.Rectangle, y int) {
			cut++
			// One threshold of three, and digits only: what a reader must name.
			if y == glyphnet.Reject || cut%len(inkCuts) != 0 {
				return
			}
			total++
			useNet = false
			m := classify(l, box, false)
			useNet = true
			guesses := []glyphGuess{m, classifyNet(l, box), classify(l, box, false)}
			for k, g := range guesses {
				ok := int(g.ch-'0') == y
				if ok {
					right[k]++
				}
				if (g.runnerUp-g.cost)*sureGain >= 1 && g.cost <= unsureCost {
					sure[k]++
					if !ok {
						sureBad[k]++
					}
				}
			}
			if tessErr == nil {
				if got := tesseractGlyph(l.grey, box); got == string(rune('0'+y)) {
					right[3]++
				}
			}
		})
	}
	for k, name := range names {
		t.Logf("%-10s %5d/%d = %5.1f%% right; read surely %d, of them wrong %d", name, right[k], total, 100*float64(right[k])/float64(max(1, total)), sure[k], sureBad[k])
	}
}

// tesseractGlyph is stock Tesseract's reading of box of g as one character.
func tesseractGlyph(g *image.Gray, box image.Rectangle) string {
	pad := max(2, box.Dy()/4)
	r := box.Inset(-pad).Intersect(g.Bounds())
	big := image.NewGray(image.Rect(0, 0, r.Dx()*64/r.Dy(), 64))
	xdraw.CatmullRom.Scale(big, big.Bounds(), g, r, xdraw.Src, nil)
	var b bytes.Buffer
	png.Encode(&b, big)
	cmd := exec.Command("tesseract", "stdin", "stdout", "--psm", "10", "-c", "tessedit_char_whitelist=0123456789")
	cmd.Stdin = &b
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
