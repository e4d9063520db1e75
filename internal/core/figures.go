// What the figures of one reading say of each other: kills, deaths and K/D
// checked against one another, a figure worked out from the other two, and
// the figures of a hard screenshot held together.

package core

import (
	"math"
	"strconv"
)

// ClearRead is the confidence from which a figure stands on its own beside
// figures in doubt: every read agreeing on it (the panel reader reads each
// figure three times), its glyphs matching at least half as well as a clean
// capture's. On the simulated photos of the captures tuned on, no figure
// read at 0.7 or more was wrong.
const ClearRead = 0.75

// The figures of one screenshot stand or fall together: one typeface, one
// size, one blur, one lens. When the screen's arithmetic caught a misread
// digit, the figures no arithmetic checks (level, wins, bots' kills, games)
// may hide another, and are held. When a figure is in doubt, or the
// reading is off a photo, the screenshot is a hard one, and every figure
// not read clearly (below ClearRead) is held: a reader that cannot say how
// sure it is (Gemini) is held by the arithmetic only.
func (r *Reading) standTogether(misread bool) {
	hard := r.Photo
	for f := range r.Doubt {
		hard = hard || f != FieldName && f != FieldSkID
	}
	if !hard && !misread {
		return
	}
	for _, f := range []Field{FieldLevel, FieldKills, FieldBotsKills, FieldDeaths, FieldKD, FieldWins, FieldGames} {
		if !r.Has(f) || r.Proposed[f] {
			continue
		}
		unchecked := f != FieldKills && f != FieldDeaths && f != FieldKD
		c, known := r.Confidence[f]
		switch {
		case misread && unchecked:
			r.Doubts(f, "another figure on this screenshot was misread: please check")
		case hard && known && c < ClearRead:
			r.Doubts(f, "hard to read on the screenshot")
		}
	}
}

// Sure tells whether nothing the player keeps needs their confirmation: no
// doubt on a figure that is saved, and no figure worked out rather than
// read. Wins and bots' kills are shown beside the stats, never saved: a
// doubt on them is shown, and does not hold the stats back.
func (r Reading) Sure() bool {
	for f := range r.Doubt {
		if f != FieldWins && f != FieldBotsKills {
			return false
		}
	}
	return len(r.Proposed) == 0
}

// The screen's own arithmetic: the game shows KDR = kills / deaths to two
// places. Of the three, one the reader could not read (occluded by a
// tooltip, cut, blurred) follows from the other two, nearly: kills and
// deaths only to within the K/D's rounding. And of three that disagree, the
// one at fault is the one a digit away from agreeing, or the only one read
// unsurely. Either way the figure is proposed, never saved: it is marked
// for the player to confirm, saying where it came from.

// unsure is the confidence below which a reader's read is one it doubts.
const unsure = 0.5

// balance applies the arithmetic: it proposes a missing figure of kills,
// deaths and K/D from the other two; of three that disagree it proposes
// the one at fault, or marks all three when it cannot tell which. misread
// tells that three were read and disagreed.
func (r *Reading) balance() (misread bool) {
	three := []Field{FieldKills, FieldDeaths, FieldKD}
	var missing []Field
	for _, f := range three {
		if !r.Has(f) {
			missing = append(missing, f)
		}
	}
	switch {
	case len(missing) == 1:
		f := missing[0]
		if v, ok := r.workedOut(f, ""); ok {
			r.propose(f, v, "worked out from "+r.others(f)+": please check")
		}
		return false
	case len(missing) == 0 && !KDMatches(r.KD, r.Kills, r.Deaths):
		var suspects []Field
		for _, f := range three {
			read := r.text(f)
			fix, ok := r.workedOut(f, read)
			oneDigit := ok && oneEdit(read, r.textOf(f, fix))
			alone := r.unsure(f)
			for _, o := range three {
				alone = alone && (o == f || !r.unsure(o))
			}
			if oneDigit || alone {
				suspects = append(suspects, f)
			}
		}
		if len(suspects) == 1 {
			f := suspects[0]
			read := r.text(f)
			if v, ok := r.workedOut(f, read); ok {
				r.propose(f, v, "read "+read+", but "+r.others(f)+" give "+r.textOf(f, v)+": please check")
				return true
			}
		}
		why := "K/D " + r.text(FieldKD) + " does not match kills / deaths"
		for _, f := range three {
			r.Doubts(f, why)
		}
		return true
	}
	return false
}

// others names the two figures f is worked out from.
func (r *Reading) others(f Field) string {
	switch f {
	case FieldKills:
		return "K/D × deaths"
	case FieldDeaths:
		return "kills ÷ K/D"
	}
	return "kills ÷ deaths"
}

func (r *Reading) unsure(f Field) bool {
	c, ok := r.Confidence[f]
	return ok && c < unsure
}

// text is f as the screen writes it.
func (r *Reading) text(f Field) string {
	switch f {
	case FieldKills:
		return strconv.Itoa(r.Kills)
	case FieldDeaths:
		return strconv.Itoa(r.Deaths)
	}
	return strconv.FormatFloat(r.KD, 'f', 2, 64)
}

// textOf writes v, a value of f, as the screen does.
func (r *Reading) textOf(f Field, v float64) string {
	if f == FieldKD {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.Itoa(int(v))
}

// workedOut returns the value of f that the other two of kills, deaths and
// K/D give: of several (the K/D's rounding leaves room), the one a digit
// from read when there is one, else the middle one. ok is false when the
// other two give none, or too many to choose from.
func (r *Reading) workedOut(f Field, read string) (float64, bool) {
	if f == FieldKD {
		return KD(r.Kills, r.Deaths), true
	}
	// Kills or deaths: every count that agrees with the other two.
	var lo, hi int
	var mid float64
	kd := r.KD
	switch {
	case f == FieldKills && r.Deaths == 0: // the game shows the kills as the K/D
		if kd != math.Trunc(kd) {
			return 0, false
		}
		lo, hi, mid = int(kd), int(kd), kd
	case f == FieldKills:
		d := float64(r.Deaths)
		lo, hi, mid = int(math.Floor((kd-0.0101)*d)), int(math.Ceil((kd+0.0101)*d)), kd*d
	case kd < 0.02: // no deaths follow from a K/D this small
		return 0, false
	default:
		k := float64(r.Kills)
		lo, hi, mid = int(math.Floor(k/(kd+0.0101))), int(math.Ceil(k/(kd-0.0101))), k/kd
	}
	lo, hi = max(lo, 0), min(hi, MaxCount)
	if hi-lo > 100_000 {
		return 0, false
	}
	best, bestScore := -1, math.Inf(1)
	for v := lo; v <= hi; v++ {
		k, d := v, r.Deaths
		if f == FieldDeaths {
			k, d = r.Kills, v
		}
		if !KDMatches(kd, k, d) {
			continue
		}
		score := math.Abs(float64(v) - mid)
		if read != "" && oneEdit(read, strconv.Itoa(v)) {
			score -= MaxCount // a digit from what was read: the likeliest
		}
		if score < bestScore {
			best, bestScore = v, score
		}
	}
	return float64(best), best >= 0
}

// propose sets f to v, worked out rather than read, for the player to
// confirm; why says where it came from.
func (r *Reading) propose(f Field, v float64, why string) {
	if f == FieldKD {
		r.SetKD(v)
	} else {
		r.Set(f, int(v))
	}
	if r.Proposed == nil {
		r.Proposed = map[Field]bool{}
	}
	r.Proposed[f] = true
	if r.Doubt == nil {
		r.Doubt = map[Field]string{}
	}
	r.Doubt[f] = why
	delete(r.Confidence, f) // not read: no reader's sureness
}

// oneEdit tells whether a and b differ by at most one character changed,
// added or dropped: a digit misread, or one lost or doubled.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i:] == "" || a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}
