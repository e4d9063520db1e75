package extract

import (
	"image"
	"image/draw"
	"sort"

	xdraw "golang.org/x/image/draw"
)

// The game's Stats panel is a stack of rounded bars of one colour, one per
// figure (Kills, Bots Kills, Deaths, KDR, Wins, Games), with the label at
// the left and the number at the right, on a panel of another colour. A
// vertical line through the empty middle of the bars crosses bar, gap, bar,
// gap... at a steady pitch: a "ladder". findPanels looks for ladders column
// by column, whatever the colours (builds, themes, photos of monitors and
// JPEG all shift them), and groups neighbouring columns that agree.

// detectSide is the longest side, in pixels, panels are looked for at:
// rows are then at least 15 px tall on a full screen, and a scan costs a
// few milliseconds.
const detectSide = 1000

// What stays tuned in finding the bars, each measured at detectSide:
const (
	// segTol is how far (colour distance) a pixel may stray from its run's
	// mean down a column and stay in the run: JPEG and a slow gradient.
	segTol = 26
	// colTol is how far two bars' colours may differ and still be one
	// ladder's bars (one panel's), down a column and across columns.
	colTol = 24
	// minBarPx is the fewest pixels a bar stands tall at detection.
	minBarPx = 6
	// pitchSlack is how far, in twentieths, a ladder's pitch may stray
	// from its first (17/20 to 23/20): a perspective's steady change.
	pitchSlack = 3
	// edgeSlack is how far (pixels) a bar's top or bottom may move from one
	// column to the next and still be the same bar.
	edgeSlack = 2
	// columnGap is the widest step (pixels) between columns whose ladders
	// join into one stack: the scan steps by 2, a label's letter takes a few.
	columnGap = 6
	// minColumns is the fewest columns a stack of bars is found in.
	minColumns = 3
	// fillTol is how far (colour distance) a pixel may be from a bar's fill
	// and still be the bar when its ends are followed left and right.
	fillTol = 30
	// missRun is how many pixels off the fill in a row end a bar (one
	// or two are a digit's stroke or a speck).
	missRun = 2
	// barLineInset: a bar's ends are followed along lines its height over
	// this (at least a pixel) inside its top and bottom.
	barLineInset = 8
	// minLadderBars is the fewest bars a column's ladder (and so a panel) has.
	minLadderBars = 3
	// barOfColumn: a bar stands at most the column's height over this.
	barOfColumn = 2
	// sliverOfBar: a run under a bar's height over this is a sliver of
	// the gap (blurred edges), not a bar.
	sliverOfBar = 4
	// barHeightNum/barHeightDen to its inverse is how far a bar's height
	// may stray from the first uncut bar's (3/4 to 4/3).
	barHeightNum, barHeightDen = 3, 4
	// A bar cut by the image's bottom edge counts when at least
	// 1/cutShowsOf of a bar shows and it is at most cutMaxNum/cutMaxDen
	// of a bar.
	cutShowsOf           = 2
	cutMaxNum, cutMaxDen = 5, 4
	// minBarAspect: a Stats panel's bar is at least this many times as
	// wide as it is tall. The game draws them about 6.5 times; a panel
	// tilted in the frame is traced along level lines that leave a bar
	// early, and at 10° of roll and 30° of yaw it measured about 3 (4
	// lost such panels: TestStraightensAPanelSeenAtAnAngle). A stack of
	// squarer "bars" (about 1) is a column of a keyboard's keys, a
	// window's panes, a tiled wall: the phone photos of part of a monitor
	// have a keyboard in them, and its key columns are ladders as steady
	// as the panel's that outscored it.
	minBarAspect = 2
)

// panel is a stack of bars found on the screenshot, in its coordinates.
type panel struct {
	rows []image.Rectangle // the bars, top to bottom, full width
	// mid is the empty middle shared by every bar: labels end before
	// mid.Min.X, numbers start after mid.Max.X.
	mid   image.Rectangle
	fill  []rgb // each bar's colour
	score int
}

// segment is a run of one colour down a column.
type segment struct {
	y0, y1 int
	c      rgb
}

// ladder is the bars one column crosses.
type ladder struct {
	x    int
	rows []segment
}

// findPanels returns the stacks of at least three bars on img, the most
// likely Stats panel first.
func findPanels(img image.Image) []panel { return findPanelsAt(img, detectSide) }

// findPanelsAt is findPanels looking at side pixels on the longest side.
func findPanelsAt(img image.Image, side int) []panel { return findPanelsIn(img, side, false) }

// findPanelsOnCanvas is findPanelsAt on a straightened canvas (straighten):
// the canvas is looked at at most at 1/canvasShrink of its size, shrunk
// by a whole factor, averaging (shrinkBy), before it is sampled down to
// side. The warp drew the photographed screen's pixel grid and moiré onto
// it as fine stripes across the bars (straight or slanting); at the
// canvas's own size, or sampled down, they cut every bar into runs, and a
// clean canvas (a 4032 px photo's, its figures plain to the eye) showed no
// panel. A photo itself is still sampled: its panels are found so, and
// averaging it first moved which stack of bars was read on many photos.
func findPanelsOnCanvas(canvas image.Image, side int) []panel {
	return findPanelsIn(canvas, side, true)
}

// canvasShrink is the least factor a canvas is shrunk by, averaging, to be
// looked at (findPanelsOnCanvas): its bars are at least minRowH tall, so at
// least 22 px once halved. Measured on the simulated photos of two seeds
// already looked at: 2 read 19 figures more than 1 (15 more on 4032 px
// photos, 6 on 2000 px ones, 2 crops fewer), 3 read 8 fewer than 2.
const canvasShrink = 2

// findPanelsIn is findPanelsAt, img first shrunk by averaging when smooth
// (a canvas: to at most 1/canvasShrink of its size).
func findPanelsIn(img image.Image, side int, smooth bool) []panel {
	b := img.Bounds()
	s := min(1, float64(side)/float64(max(b.Dx(), b.Dy())))
	if smooth {
		s = min(s, 1.0/canvasShrink)
	}
	w, h := max(1, int(float64(b.Dx())*s+0.5)), max(1, int(float64(b.Dy())*s+0.5))
	small := image.NewRGBA(image.Rect(0, 0, w, h))
	switch {
	case s == 1:
		draw.Draw(small, small.Bounds(), img, b.Min, draw.Src)
	case smooth: // s is at most 1/canvasShrink: a whole factor of 2 or more
		avg := shrinkBy(toRGBA(img), int(1/s))
		xdraw.ApproxBiLinear.Scale(small, small.Bounds(), avg, avg.Bounds(), draw.Src, nil)
	default:
		xdraw.ApproxBiLinear.Scale(small, small.Bounds(), img, b, draw.Src, nil)
	}
	var ladders []ladder
	col := make([]rgb, h)
	for x := 1; x < w-1; x += 2 {
		for y := 0; y < h; y++ {
			// Three pixels across, to calm JPEG and moiré noise.
			var r, g, bl int32
			for dx := -1; dx <= 1; dx++ {
				i := small.PixOffset(x+dx, y)
				r += int32(small.Pix[i])
				g += int32(small.Pix[i+1])
				bl += int32(small.Pix[i+2])
			}
			col[y] = rgb{r / 3, g / 3, bl / 3}
		}
		if rows := findLadder(segments(col), h); len(rows) >= minLadderBars {
			ladders = append(ladders, ladder{x: x, rows: rows})
		}
	}
	var out []panel
	for _, g := range groupLadders(ladders) {
		p := g.panel(small)
		if !widePanel(p) {
			continue
		}
		p.rows = scaleRects(p.rows, 1/s, b)
		p.mid = scaleRect(p.mid, 1/s, b)
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// segments cuts a column into runs of one colour: a run ends where a pixel
// strays from its mean by more than segTol, so slow gradients stay whole.
func segments(col []rgb) []segment {
	var out []segment
	start := 0
	var sr, sg, sb int32
	for y := 0; y <= len(col); y++ {
		if y < len(col) && y > start {
			n := int32(y - start)
			m := rgb{sr / n, sg / n, sb / n}
			if dist(col[y], m) <= segTol {
				sr, sg, sb = sr+col[y].r, sg+col[y].g, sb+col[y].b
				continue
			}
		}
		if y > start {
			n := int32(y - start)
			out = append(out, segment{start, y, rgb{sr / n, sg / n, sb / n}})
		}
		if y < len(col) {
			start = y
			sr, sg, sb = col[y].r, col[y].g, col[y].b
		}
	}
	return out
}

// findLadder returns the longest run of bars in a column: segments of one
// colour and one height (within a quarter), each followed by a short gap
// of other colours, at a steady pitch. A bar cut by the image's top or
// bottom edge counts when at least half of it shows.
func findLadder(segs []segment, h int) []segment {
	var best []segment
	for i, first := range segs {
		ln := first.y1 - first.y0
		if ln < minBarPx || ln > h/barOfColumn {
			continue
		}
		rows := []segment{first}
		ref := ln // the height of an uncut bar
		if first.y0 == 0 {
			ref = 0
		}
		pitch := 0
		for j := i + 1; j < len(segs); j++ {
			last := rows[len(rows)-1]
			c := segs[j]
			cl := c.y1 - c.y0
			gap := c.y0 - last.y1
			if gap > max(ref, last.y1-last.y0) {
				break
			}
			if dist(c.c, last.c) > colTol || cl*sliverOfBar < max(ref, ln) {
				continue // part of the gap (edges blur into slivers)
			}
			if gap < 1 {
				break
			}
			cut := c.y1 == h
			var ok bool
			switch {
			case ref == 0: // after a bar cut by the top edge, this one sets the height
				ok, ref = cl >= ln && !cut, cl
			case cut:
				ok = cl*cutShowsOf >= ref && cl*cutMaxDen <= ref*cutMaxNum
			default:
				ok = cl*barHeightDen >= ref*barHeightNum && cl*barHeightNum <= ref*barHeightDen
			}
			if !ok {
				break
			}
			p := c.y0 - last.y0
			if pitch > 0 && (p*twentieths < pitch*(twentieths-pitchSlack) || p*twentieths > pitch*(twentieths+pitchSlack)) {
				break
			}
			if pitch == 0 && last.y0 > 0 {
				pitch = p
			}
			rows = append(rows, c)
			if cut {
				break
			}
		}
		if len(rows) > len(best) {
			best = rows
		}
	}
	return best
}

// group is neighbouring columns whose ladders agree bar for bar.
type group []ladder

func sameLadder(a, b []segment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if abs(a[i].y0-b[i].y0) > edgeSlack || abs(a[i].y1-b[i].y1) > edgeSlack || dist(a[i].c, b[i].c) > colTol {
			return false
		}
	}
	return true
}

func groupLadders(ls []ladder) []group {
	var out []group
	used := make([]bool, len(ls))
	for i := range ls {
		if used[i] {
			continue
		}
		g := group{ls[i]}
		used[i] = true
		for j := i + 1; j < len(ls); j++ {
			last := g[len(g)-1]
			if ls[j].x-last.x > columnGap {
				break
			}
			if !used[j] && sameLadder(last.rows, ls[j].rows) {
				g = append(g, ls[j])
				used[j] = true
			}
		}
		if len(g) >= minColumns {
			out = append(out, g)
		}
	}
	return out
}

// panel measures the group's bars: their height from the columns, their
// width by following each bar's colour left and right along lines above
// and below its text.
func (g group) panel(img *image.RGBA) panel {
	n := len(g[0].rows)
	p := panel{mid: image.Rect(g[0].x-1, 0, g[len(g)-1].x+2, 0)}
	w := img.Bounds().Dx()
	var lefts, rights []int
	for r := 0; r < n; r++ {
		var y0s, y1s []int
		var c rgb
		for _, l := range g {
			y0s = append(y0s, l.rows[r].y0)
			y1s = append(y1s, l.rows[r].y1)
		}
		c = g[len(g)/2].rows[r].c
		y0, y1 := median(y0s), median(y1s)
		hgt := y1 - y0
		lines := []int{y0 + max(1, hgt/barLineInset), y1 - 1 - max(1, hgt/barLineInset)}
		on := func(x int) bool {
			for _, y := range lines {
				i := img.PixOffset(x, y)
				if dist(rgb{int32(img.Pix[i]), int32(img.Pix[i+1]), int32(img.Pix[i+2])}, c) <= fillTol {
					return true
				}
			}
			return false
		}
		follow := func(x, step int) int {
			miss := 0
			last := x
			for ; x >= 0 && x < w; x += step {
				if on(x) {
					miss, last = 0, x
				} else if miss++; miss > missRun {
					break
				}
			}
			return last
		}
		lefts = append(lefts, follow(p.mid.Min.X, -1))
		rights = append(rights, follow(p.mid.Max.X-1, 1)+1)
		p.rows = append(p.rows, image.Rect(0, y0, 0, y1))
		p.fill = append(p.fill, c)
	}
	x0, x1 := median(lefts), median(rights)
	for i := range p.rows {
		p.rows[i].Min.X, p.rows[i].Max.X = x0, x1
	}
	p.mid.Min.Y, p.mid.Max.Y = p.rows[0].Min.Y, p.rows[n-1].Max.Y
	// Prefer stacks of many bars with a wide empty middle: the Stats
	// panel's five or six against the News panel's three.
	p.score = n*1000 + p.mid.Dx()*100/max(1, x1-x0)
	return p
}

// widePanel says whether p's bars are as wide against their height as
// the Stats panel's (minBarAspect).
func widePanel(p panel) bool {
	hs := make([]int, len(p.rows))
	for i, r := range p.rows {
		hs[i] = r.Dy()
	}
	wide := p.rows[0].Dx() // every row spans the panel's width
	return wide >= minBarAspect*median(hs)
}

func median(v []int) int {
	s := append([]int(nil), v...)
	sort.Ints(s)
	return s[len(s)/2]
}

func scaleRect(r image.Rectangle, s float64, b image.Rectangle) image.Rectangle {
	f := func(v int) int { return int(float64(v)*s + 0.5) }
	return image.Rect(f(r.Min.X)+b.Min.X, f(r.Min.Y)+b.Min.Y, f(r.Max.X)+b.Min.X, f(r.Max.Y)+b.Min.Y).Intersect(b)
}

func scaleRects(rs []image.Rectangle, s float64, b image.Rectangle) []image.Rectangle {
	out := make([]image.Rectangle, len(rs))
	for i, r := range rs {
		out[i] = scaleRect(r, s, b)
	}
	return out
}

// meanColor is the most common colour of r (4 bits a channel), averaged.
func meanColor(src *image.RGBA, r image.Rectangle) rgb {
	r = r.Intersect(src.Bounds())
	counts := map[uint16]*[4]int32{}
	var best *[4]int32
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := src.PixOffset(x, y)
			p := src.Pix[i : i+3]
			k := uint16(p[0]>>4)<<8 | uint16(p[1]>>4)<<4 | uint16(p[2]>>4)
			c := counts[k]
			if c == nil {
				c = &[4]int32{}
				counts[k] = c
			}
			c[0] += int32(p[0])
			c[1] += int32(p[1])
			c[2] += int32(p[2])
			c[3]++
			if best == nil || c[3] > best[3] {
				best = c
			}
		}
	}
	if best == nil {
		return rgb{}
	}
	return rgb{best[0] / best[3], best[1] / best[3], best[2] / best[3]}
}
