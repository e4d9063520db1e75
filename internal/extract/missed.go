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
			on[y*w+x] = row[x*step] < 60 // strong ink only: soft edges of panels are grey
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
		clear(wd.box.Inset(-2))
	}
	clear(kart)

	// Components, kept when letter-sized: at least most of the height of
	// the words read (a comma between two pieces of a number is not a
	// missed word) and not much wider than tall.
	var heights []int
	for _, wd := range ws {
		if wd.conf >= 60 {
			heights = append(heights, wd.box.Dy())
		}
	}
	minH := 14
	if len(heights) > 0 {
		sort.Ints(heights)
		minH = max(minH, heights[len(heights)/2]*7/10)
	}
	var comps []image.Rectangle
	for _, box := range components(on, w) {
		bh, bw := box.Dy()*step, box.Dx()*step
		if bh >= minH && bh <= 130 && bw <= 3*bh {
			comps = append(comps, image.Rect(box.Min.X*step, box.Min.Y*step, box.Max.X*step, box.Max.Y*step))
		}
	}
	if len(comps) > 400 {
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
				if overlap >= min(line.Dy(), c.Dy())/2 && gap <= hh && c.Dy()*2 >= line.Dy() && line.Dy()*2 >= c.Dy() {
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
				if a.box.Max.X <= l.Min.X+2 && b.box.Min.X >= l.Max.X-2 && sameLine(a.box, b.box, 1.2) &&
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
	sem := make(chan struct{}, 2)
	for _, l := range lines {
		box := l.Inset(-max(3, l.Dy()/6)).Intersect(pg.ink.Bounds())
		scale := min(4, max(0.5, float64(textH)/float64(l.Dy())))
		w, h := int(float64(box.Dx())*scale), int(float64(box.Dy())*scale)
		sheet := image.NewGray(image.Rect(0, 0, w+2*margin, h+2*margin))
		for i := range sheet.Pix {
			sheet.Pix[i] = 255
		}
		xdraw.BiLinear.Scale(sheet, image.Rect(margin, margin, margin+w, margin+h), pg.ink, box, draw.Src, nil)
		args := []string{"--psm", "7"}
		for _, wd := range ws {
			if _, _, ok := classifyValue(wd.text); ok && (sameLine(l, wd.box, 1) || sameLine(wd.box, l, 1)) {
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
