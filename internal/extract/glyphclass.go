package extract

// A glyph read by the learned classifier (glyphnet): its grey levels, not
// its thresholded ink, resampled to the grid and stretched to full
// contrast, with its shape's two ratios. The net was trained on the
// game's typeface drawn through the photo simulator (glyphtrain.go,
// scripts/train-glyphs); its softmax says how sure a read is.

import (
	"image"
	"math"
	"sort"

	"github.com/pitlane/pitlane/internal/extract/glyphnet"
)

// useNet has classify ask the classifier for a second opinion on the
// glyphs the drawn models read unsure (secondOpinion). Off: on a photo
// seed never used before, the held-out captures' photos read 747 of 787
// figures with it and 749 without (docs/extract.md, round 13), so the
// drawn models stay the reader; the comparison test turns it on.
var useNet = false

// glyphFeatures are the classifier's inputs for box of line l.
func glyphFeatures(l *glyphLine, box image.Rectangle) []float32 {
	x := make([]float32, glyphnet.Inputs)
	g := l.grey
	bw, bh := float32(box.Dx()), float32(box.Dy())
	// Each cell is the mean of sub×sub points spread over it.
	const sub = 3
	lo, hi := float32(1), float32(0)
	for cy := range glyphnet.GridH {
		for cx := range glyphnet.GridW {
			var s float32
			for sy := range sub {
				for sx := range sub {
					px := box.Min.X + int((float32(cx)+(float32(sx)+0.5)/sub)*bw/glyphnet.GridW)
					py := box.Min.Y + int((float32(cy)+(float32(sy)+0.5)/sub)*bh/glyphnet.GridH)
					s += 1 - float32(g.Pix[py*g.Stride+px])/255
				}
			}
			v := s / (sub * sub)
			x[cy*glyphnet.GridW+cx] = v
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	grid := x[:glyphnet.GridW*glyphnet.GridH]
	if hi > lo {
		for i, v := range grid {
			grid[i] = (v - lo) / (hi - lo)
		}
	}
	x[len(grid)] = float32(math.Log(float64(max(1, box.Dx())) / float64(max(1, box.Dy()))))
	x[len(grid)+1] = float32(box.Dy()) / float32(max(1, l.tall))
	return x
}

// classifyNet reads box of line l with the classifier: the likeliest digit,
// its cost (1 less its probability) and the runner-up's (the next digit's,
// or no digit's when that is likelier).
func classifyNet(l *glyphLine, box image.Rectangle) glyphGuess {
	p := glyphnet.Default().Probs(glyphFeatures(l, box))
	// The digits by probability, most likely first (no digit is the
	// last class).
	digits := make([]int, glyphnet.Reject)
	for k := range digits {
		digits[k] = k
	}
	sort.SliceStable(digits, func(i, j int) bool { return p[digits[i]] > p[digits[j]] })
	best, next := digits[0], max(p[digits[1]], p[glyphnet.Reject])
	return glyphGuess{ch: byte('0' + best), cost: float64(1 - p[best]), runnerUp: float64(1 - next)}
}

// secondOpinion weighs the drawn models' guess t (of the thresholded ink)
// with the classifier's n (of the grey levels). A guess the models make
// surely and matching well stands. Another, the two agreeing, is as sure
// as the surer of them (and costs, which says how well it matched, the
// less); the two disagreeing, it takes the digit of the one with the
// wider margin and is unsure, so that the figure is held for the player:
// the classifier never overrules the models unseen. Margins are compared
// in the models' units (a sureness of 1 at 1/sureGain).
func secondOpinion(t, n glyphGuess) glyphGuess {
	tm := t.runnerUp - t.cost
	if tm*sureGain >= 1 && t.cost <= unsureCost {
		return t
	}
	nm := (n.runnerUp - n.cost) / sureGain
	switch {
	case n.ch == t.ch:
		t.cost = min(t.cost, n.cost)
		t.runnerUp = t.cost + max(tm, nm)
	case nm > tm && t.cost > unsureCost:
		t.ch, t.runnerUp = n.ch, t.cost
	default:
		t.runnerUp = t.cost
	}
	return t
}
