package extract

import (
	"context"
	"image"
	"image/draw"
	"sort"
	"sync"

	xdraw "golang.org/x/image/draw"
)

// Tesseract's sparse mode sometimes passes over a whole clean line (a
// "LEVEL 288" under a big name), a lone digit far from its label, or the
// "5," of "5,691". Whatever ink is left once every word read and the kart
// are masked, and is shaped like text, is grouped into lines and read again
// line by line; the words found join the first reading.

// maxMissedLines bounds the second look on a noisy page.
const maxMissedLines = 6

// What stays tuned in finding missed text, in pixels of the page and 8-bit
// grey levels of its ink image.
const (
	// missedStrongInk is the grey a pixel must be darker than to count as
	// ink: soft edges of panels are grey.
	missedStrongInk = 60
	// wordPadPx is how far past a word's box its ink is masked.
	wordPadPx = 2
	// sureWordConf is the least OCR confidence (per cent) of a word whose
	// height tells the height of the page's text.
	sureWordConf = 60
	// minMissedPx is the least height of a missed letter; with sure words
	// it is at least missedHeightNum/missedHeightDen of their median height.
	minMissedPx                      = 14
	missedHeightNum, missedHeightDen = 7, 10
	// maxMissedPx is the most a missed letter stands, maxMissedAspect the
	// most times its height it is wide.
	maxMissedPx     = 130
	maxMissedAspect = 3
	// maxMissedComps: more letter-sized leftovers than this is a photo or
	// a busy background, not a stats screen's.
	maxMissedComps = 400
	// Letters are on one line when they overlap by 1/letterOverlapDen of
	// the shorter's height and their heights differ by at most a factor
	// of letterHeightRatio.
	letterOverlapDen  = 2
	letterHeightRatio = 2
	// betweenSlackPx is how far a line may reach into the words it lies
	// between and still be punctuation OCR left out.
	betweenSlackPx = 2
	// besideNumberGap is the widest gap (heights) between a missed line and
	// a number it is the rest of.
	besideNumberGap = 1
	// A missed line is read with a margin of its height over missedPadDen,
	// at least missedPadPx, scaled to textH but by missedMinScale to
	// missedMaxScale.
	missedPadDen, missedPadPx      = 6, 3
	missedMinScale, missedMaxScale = 0.5, 4
	// ocrRunsAtOnce is how many Tesseract runs a second look makes at a
	// time: one per core.
	ocrRunsAtOnce = 2
)

// missedLines returns boxes (page coordinates) of text-like ink no word
// covers.
func missedLines(pg *page, ws []word, kart image.Rectangle) []image.Rectangle {
	const step = 2
	ink := pg.ink
	w, h := ink.Bounds().Dx()/step, ink.Bounds().Dy()/step
	on := make([]bool, w*h)
	for y := 0; y < h; y++ {
		row := ink.Pix[y*step*ink.Stride:]
		for x := 0; x < w; x++ {
			on[y*w+x] = row[x*step] < missedStrongInk // strong ink only: soft edges of panels are grey
		}
	}
	clear := func(r image.Rectangle) {
		r = image.Rect(r.Min.X/step, r.Min.Y/step, (r.Max.X+step-1)/step, (r.Max.Y+step-1)/step).Intersect(image.Rect(0, 0, w, h))
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				on[y*w+x] = false
			}
		}
	}
	for _, wd := range ws {
		clear(wd.box.Inset(-wordPadPx))
	}
	clear(kart)

	// Components, kept when letter-sized: at least most of the height of
	// the words read (a comma between two pieces of a number is not a
	// missed word) and not much wider than tall.
	var heights []int
	for _, wd := range ws {
		if wd.conf >= sureWordConf {
			heights = append(heights, wd.box.Dy())
		}
	}
	minH := minMissedPx
	if len(heights) > 0 {
		sort.Ints(heights)
		minH = max(minH, heights[len(heights)/2]*missedHeightNum/missedHeightDen)
	}
	var comps []image.Rectangle
	for _, box := range components(on, w) {
		bh, bw := box.Dy()*step, box.Dx()*step
		if bh >= minH && bh <= maxMissedPx && bw <= maxMissedAspect*bh {
			comps = append(comps, image.Rect(box.Min.X*step, box.Min.Y*step, box.Max.X*step, box.Max.Y*step))
		}
	}
	if len(comps) > maxMissedComps {
		return nil // a photo or a busy background, not a stats screen's leftovers
	}

	// Lines: letters side by side at the same height, close together.
	sort.Slice(comps, func(i, j int) bool { return comps[i].Min.X < comps[j].Min.X })
	used := make([]bool, len(comps))
	var lines []image.Rectangle
	for i := range comps {
		if used[i] {
			continue
		}
		line := comps[i]
		used[i] = true
		for grown := true; grown; {
			grown = false
			for j := range comps {
				c := comps[j]
				if used[j] {
					continue
				}
				hh := max(line.Dy(), c.Dy())
				overlap := min(line.Max.Y, c.Max.Y) - max(line.Min.Y, c.Min.Y)
				gap := max(c.Min.X-line.Max.X, line.Min.X-c.Max.X)
				if overlap >= min(line.Dy(), c.Dy())/letterOverlapDen && gap <= hh && c.Dy()*letterHeightRatio >= line.Dy() && line.Dy()*letterHeightRatio >= c.Dy() {
					line = line.Union(c)
					used[j] = true
					grown = true
				}
			}
		}
		lines = append(lines, line)
	}
	// Ink in the narrow gap between two words of one line is punctuation
	// OCR left out of both boxes ("257" "," ",988"), not a missed word.
	kept := lines[:0]
	for _, l := range lines {
		between := false
		for _, a := range ws {
			for _, b := range ws {
				if a.box.Max.X <= l.Min.X+betweenSlackPx && b.box.Min.X >= l.Max.X-betweenSlackPx && sameLine(a.box, b.box, phraseGapHeights) &&
					l.Min.Y < a.box.Max.Y && l.Max.Y > a.box.Min.Y {
					between = true
				}
			}
		}
		if !between {
			kept = append(kept, l)
		}
	}
	lines = kept
	sort.Slice(lines, func(i, j int) bool { return lines[i].Dx()*lines[i].Dy() > lines[j].Dx()*lines[j].Dy() })
	if len(lines) > maxMissedLines {
		lines = lines[:maxMissedLines]
	}
	return lines
}

// readMissed reads each missed line on its own (two at a time) and returns
// the words in page coordinates. A line right beside a number is read as
// digits: it is the rest of that number ("5," of "5,691").
func (o *ocr) readMissed(ctx context.Context, g *guard, pg *page, ws []word, lines []image.Rectangle) []word {
	const textH, margin = 40, 16
	var (
		mu  sync.Mutex
		out []word
		gs  = g.group()
	)
	sem := make(chan struct{}, ocrRunsAtOnce)
	for _, l := range lines {
		box := l.Inset(-max(missedPadPx, l.Dy()/missedPadDen)).Intersect(pg.ink.Bounds())
		scale := min(missedMaxScale, max(missedMinScale, float64(textH)/float64(l.Dy())))
		w, h := int(float64(box.Dx())*scale), int(float64(box.Dy())*scale)
		sheet := image.NewGray(image.Rect(0, 0, w+2*margin, h+2*margin))
		for i := range sheet.Pix {
			sheet.Pix[i] = 255
		}
		xdraw.BiLinear.Scale(sheet, image.Rect(margin, margin, margin+w, margin+h), pg.ink, box, draw.Src, nil)
		args := []string{"--psm", "7"}
		for _, wd := range ws {
			if _, _, ok := classifyValue(wd.text); ok && (sameLine(l, wd.box, besideNumberGap) || sameLine(wd.box, l, besideNumberGap)) {
				args = append(args, "-c", "tessedit_char_whitelist=0123456789,.#%/")
				break
			}
		}
		gs.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			words, err := tesseract(ctx, o.bin, pgm(sheet), args...)
			if err != nil {
				return
			}
			back := func(x, y int) image.Point {
				return image.Pt(box.Min.X+int(float64(x-margin)/scale), box.Min.Y+int(float64(y-margin)/scale))
			}
			mu.Lock()
			defer mu.Unlock()
			for _, wd := range words {
				wd.box = image.Rectangle{Min: back(wd.box.Min.X, wd.box.Min.Y), Max: back(wd.box.Max.X, wd.box.Max.Y)}
				wd.second = true
				out = append(out, wd)
			}
		})
	}
	gs.Wait()
	return out
}
