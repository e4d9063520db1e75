package extract

// The redraw's fit and climb (rematch.go): the blur, thinning, size and
// width fitted to the values the glyphs gave, then the values a digit away
// tried while the drawing matches better.

import (
	"slices"
	"sort"
	"sync"
)

// figureFit is a value drawn and how well it matched.
type figureFit struct {
	text  string
	score float64
}

// What redraw tries when it fits a drawing to the screen: the typeface as
// drawn and thinned (synthFaces 0 and 1), blurs (pixels at synthH), sizes,
// and widths beside them (the game's digits stand wider than the
// typeface's; tried on the tuning set's held figures: widths of 1 alone
// lost far more values than they won).
var (
	redrawFaces  = []int{0, 1}
	redrawSigmas = []float64{0.8, 1.3, 2}
	redrawKs     = []float64{0.94, 1, 1.06}
	redrawSxs    = []float64{0.8, 0.85, 0.9, 0.95, 1}
)

// redrawFaceSet are the faces redraw fits, each blurred each way.
var redrawFaceSet = sync.OnceValue(func() []synthFace {
	var out []synthFace
	for _, fi := range redrawFaces {
		for _, sigma := range redrawSigmas {
			out = append(out, synthFaces()[fi].blurred(sigma))
		}
	}
	return out
})

// redraw reads a figure again by drawing: from the values the glyph reads
// gave (seeds, digits only), it fits the blur and size to the screen, then
// climbs from the best value to its neighbours (a digit changed, added or
// dropped) while that matches better. kd puts the point two places from
// the right. It returns the values tried, best first, and how well any
// other value matches, drawn at the same blur and size.
func redraw(raw fmap, seeds []string, kd bool) (fits []figureFit, score func(string) float64) {
	s := lookAt(raw, redrawKs, redrawSxs)
	if len(s) == 0 || len(seeds) == 0 {
		return nil, nil
	}
	show := func(d string) string {
		if kd {
			return pointed(d)
		}
		return d
	}
	var uniq []string
	for _, d := range seeds {
		if !slices.Contains(uniq, d) {
			uniq = append(uniq, d)
		}
	}
	// The blur, thinness and size that fit the values read best.
	best, face, at := -2.0, synthFace{}, seen{}
	for _, bf := range redrawFaceSet() {
		drawings := make([]drawing, len(uniq))
		for i, d := range uniq {
			drawings[i] = drawIn(bf, show(d))
		}
		for _, sv := range s {
			for _, dr := range drawings {
				if v := dr.likeness(sv, 1); v > best {
					best, face, at = v, bf, sv
				}
			}
		}
	}
	if best < 0 {
		return nil, nil
	}
	scores := map[string]float64{}
	score = func(d string) float64 {
		if v, ok := scores[d]; ok {
			return v
		}
		v := likeness(face, show(d), at, 1)
		scores[d] = v
		return v
	}
	cur := uniq[0]
	for _, d := range uniq {
		if score(d) > score(cur) {
			cur = d
		}
	}
	// Climb while a neighbour matches better.
	for range 8 {
		next := cur
		for _, d := range neighbours(cur, kd) {
			if score(d) > score(next) {
				next = d
			}
		}
		if next == cur {
			break
		}
		cur = next
	}
	out := make([]figureFit, 0, len(scores))
	for d, v := range scores {
		out = append(out, figureFit{d, v})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].score > out[j].score || out[i].score == out[j].score && out[i].text < out[j].text
	})
	return out, score
}

// neighbours are the values a digit away from d: one changed, added or
// dropped, each a figure's digits (figureDigits).
func neighbours(d string, kd bool) []string {
	var out []string
	for i := 0; i <= len(d); i++ {
		for c := byte('0'); c <= '9'; c++ {
			if i < len(d) && c != d[i] {
				if s := d[:i] + string(c) + d[i+1:]; figureDigits(s, kd) {
					out = append(out, s)
				}
			}
			if s := d[:i] + string(c) + d[i:]; figureDigits(s, kd) {
				out = append(out, s)
			}
		}
		if i < len(d) {
			if s := d[:i] + d[i+1:]; figureDigits(s, kd) {
				out = append(out, s)
			}
		}
	}
	return out
}

// figureBox is where a figure stands on a panel, for redraw.
