package extract

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	xdraw "golang.org/x/image/draw"
)

// What stays tuned in finding the kart on the page and cutting it out:
const (
	// kartMinWorkPx is the least width and height (pixels, at a quarter of
	// the page's resolution) of a page worth looking for a kart on.
	kartMinWorkPx = 8
	// kartEdgeStep is the least colour distance between neighbours (at a
	// quarter of the page's resolution) that makes a colour edge.
	kartEdgeStep = 40
	// textMinRunes is the fewest letters (runes, trimmed) of a word that
	// looks like text to be taken for text when read with sureTextConf.
	textMinRunes = 3
	// sureTextConf is the least OCR confidence (per cent) at which a
	// text-like word is text, not marks read into the kart.
	sureTextConf = 70
	// longWordConf and longWordLetters: a word of at least longWordLetters
	// letters read with at least longWordConf (per cent) is text.
	longWordConf, longWordLetters = 30, 5
	// kartMaxAspect is the most times a kart's box is as wide as tall, or
	// as tall as wide: longer and thinner is a line of text.
	kartMaxAspect = 3
	// kartMinCropPx is the least width and height (pixels of the
	// screenshot) of a kart worth cutting out.
	kartMinCropPx = 16
	// kartMaxSide is the most pixels a side of the kart's PNG has.
	kartMaxSide = 512
	// bgColourShift drops the low bits of each channel (8 to 4 bits) so
	// that a background's shades count as one colour.
	bgColourShift = 4
	// bgDriftStep is the most colour distance (8 bits a channel) from the
	// neighbour it was reached from at which a pixel joins the background.
	bgDriftStep = 12
	// textPadDiv: a text word's edges are dropped within 1/textPadDiv of
	// its height around its box.
	textPadDiv = 4
	// minBorderRun and borderRunDiv: a straight run of edges at least
	// 1/borderRunDiv of the page's short side long, and at least
	// minBorderRun pixels (a quarter of the resolution), is a border.
	minBorderRun, borderRunDiv = 6, 20
	// minClusterGap and clusterGapDiv: edges closer than 1/clusterGapDiv of
	// the page's short side, and at least minClusterGap pixels (a quarter
	// of the resolution), belong together.
	minClusterGap, clusterGapDiv = 2, 30
	// kartMinSideDiv: a kart is at least 1/kartMinSideDiv of the page's
	// short side wide and tall.
	kartMinSideDiv = 8
	// kartPadDiv: the kart's crop is padded by 1/kartPadDiv of its longer
	// side.
	kartPadDiv = 12
)

// coarse is c with each channel cut to its high bits (bgColourShift), so
// that a background's shades count as one colour.
func (c rgb) coarse() rgb {
	return rgb{c.r >> bgColourShift, c.g >> bgColourShift, c.b >> bgColourShift}
}

// less orders colours by red, then green, then blue.
func (c rgb) less(d rgb) bool {
	if c.r != d.r {
		return c.r < d.r
	}
	if c.g != d.g {
		return c.g < d.g
	}
	return c.b < d.b
}

// findKart locates the drawing on the page: the largest cluster of colour
// edges that are neither text nor straight panel borders. Text is what OCR
// read with some confidence as a label, a number or a name-like word. ok
// is false when nothing big enough is left, e.g. a screen cropped to the
// stats panel.
func findKart(pg *page, ws []word) (image.Rectangle, bool) {
	const q = 4 // work at a quarter of the page's resolution per side
	src := pg.rgba
	w, h := src.Bounds().Dx()/q, src.Bounds().Dy()/q
	if w < kartMinWorkPx || h < kartMinWorkPx {
		return image.Rectangle{}, false
	}
	small := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(small, small.Bounds(), src, src.Bounds(), draw.Src, nil)
	at := func(x, y int) rgb {
		i := small.PixOffset(x, y)
		return rgb{int32(small.Pix[i]), int32(small.Pix[i+1]), int32(small.Pix[i+2])}
	}
	edge := make([]bool, w*h)
	for y := 0; y < h-1; y++ {
		for x := 0; x < w-1; x++ {
			c := at(x, y)
			edge[y*w+x] = max(dist(c, at(x+1, y)), dist(c, at(x, y+1))) >= kartEdgeStep
		}
	}
	// Text is not the kart.
	for _, wd := range ws {
		// Marks read into the kart come with little confidence and few
		// letters; a long word is text even when OCR is unsure of it.
		// Two letters read well ("na") are as often a mark on the kart as a
		// label; leaving a short label's edges costs nothing, as they form
		// a cluster far smaller than the kart.
		_, _, isValue := classifyValue(wd.text)
		textish := isValue || isTextish(wd.text) && len([]rune(trimName(wd.text))) >= textMinRunes
		if !(wd.conf >= sureTextConf && textish || wd.conf >= longWordConf && letters(wd.text) >= longWordLetters) {
			continue
		}
		r := wd.box.Inset(-wd.box.Dy() / textPadDiv)
		for y := max(0, r.Min.Y/q); y < min(h, r.Max.Y/q+1); y++ {
			for x := max(0, r.Min.X/q); x < min(w, r.Max.X/q+1); x++ {
				edge[y*w+x] = false
			}
		}
	}
	// Neither are the straight borders of panels and tiles.
	run := max(minBorderRun, min(w, h)/borderRunDiv)
	straight := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; {
			e := x
			for e < w && edge[y*w+e] {
				e++
			}
			if e-x >= run {
				for k := x; k < e; k++ {
					straight[y*w+k] = true
				}
			}
			x = e + 1
		}
	}
	for x := 0; x < w; x++ {
		for y := 0; y < h; {
			e := y
			for e < h && edge[e*w+x] {
				e++
			}
			if e-y >= run {
				for k := y; k < e; k++ {
					straight[k*w+x] = true
				}
			}
			y = e + 1
		}
	}
	for i := range edge {
		edge[i] = edge[i] && !straight[i]
	}
	// Group what is left: edges closer than gap belong together.
	gap := max(minClusterGap, min(w, h)/clusterGapDiv)
	cell := gap
	gw, gh := (w+cell-1)/cell, (h+cell-1)/cell
	count := make([]int, gw*gh)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if edge[y*w+x] {
				count[(y/cell)*gw+x/cell]++
			}
		}
	}
	type cluster struct {
		box image.Rectangle
		n   int
	}
	var clusters []cluster
	on := make([]bool, len(count))
	for k, n := range count {
		on[k] = n > 0
	}
	blobs(on, gw, true, func(box image.Rectangle, cells []int) {
		c := cluster{box: box}
		for _, k := range cells {
			c.n += count[k]
		}
		clusters = append(clusters, c)
	})
	// Parts of one drawing whose boxes touch are one drawing (a wheel
	// inside the body's outline, a helmet over the seat).
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(clusters); i++ {
			for j := i + 1; j < len(clusters); j++ {
				if clusters[i].box.Inset(-1).Overlaps(clusters[j].box) {
					clusters[i].box = clusters[i].box.Union(clusters[j].box)
					clusters[i].n += clusters[j].n
					clusters = append(clusters[:j], clusters[j+1:]...)
					merged = true
					j--
				}
			}
		}
	}
	// A kart is about as tall as it is wide; a long thin cluster is a line
	// of text OCR did not read.
	var best image.Rectangle
	bestN := 0
	for _, c := range clusters {
		if c.box.Dx() > kartMaxAspect*c.box.Dy() || c.box.Dy() > kartMaxAspect*c.box.Dx() {
			continue
		}
		if c.n > bestN {
			best, bestN = c.box, c.n
		}
	}
	minSide := min(w, h) / kartMinSideDiv
	box := image.Rect(best.Min.X*cell*q, best.Min.Y*cell*q, best.Max.X*cell*q, best.Max.Y*cell*q).Intersect(src.Bounds())
	if best.Dx()*cell < minSide || best.Dy()*cell < minSide {
		return image.Rectangle{}, false
	}
	return box, true
}

// isTextish tells whether OCR output looks like real text (a label, a
// number, a name) rather than marks read into a drawing.
func isTextish(s string) bool {
	if _, _, ok := classifyValue(s); ok {
		return true
	}
	t := trimName(s)
	return len(t) >= minNameLen && nameRe.MatchString(t)
}

// kartBackground is the dark background the kart is placed on, the site's
// background colour.
var kartBackground = color.RGBA{R: 0x1A, G: 0x1A, B: 0x1A, A: 0xFF}

// cropKart cuts the kart out of the original screenshot (box is in page
// coordinates), replaces the screen's background around it with a dark
// one and returns a square PNG of at most 512 pixels a side.
func cropKart(pg *page, src image.Image, box image.Rectangle) ([]byte, bool) {
	sb := src.Bounds()
	inv := 1 / pg.scale
	r := image.Rect(int(float64(box.Min.X)*inv), int(float64(box.Min.Y)*inv), int(float64(box.Max.X)*inv)+1, int(float64(box.Max.Y)*inv)+1)
	pad := max(r.Dx(), r.Dy()) / kartPadDiv
	return kartPNG(src, r.Inset(-pad).Add(sb.Min).Intersect(sb))
}

// kartPNG cuts r out of src, replaces the screen's background around the
// kart with a dark one and returns a square PNG of at most 512 pixels a side.
func kartPNG(src image.Image, r image.Rectangle) ([]byte, bool) {
	if r.Dx() < kartMinCropPx || r.Dy() < kartMinCropPx {
		return nil, false
	}
	crop := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(crop, crop.Bounds(), src, r.Min, draw.Src)
	removeBackground(crop)

	side := max(r.Dx(), r.Dy())
	out := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(out, out.Bounds(), image.NewUniform(kartBackground), image.Point{}, draw.Src)
	off := image.Pt((side-r.Dx())/2, (side-r.Dy())/2)
	draw.Draw(out, crop.Bounds().Add(off), crop, image.Point{}, draw.Over)
	var final image.Image = out
	if side > kartMaxSide {
		small := image.NewRGBA(image.Rect(0, 0, kartMaxSide, kartMaxSide))
		xdraw.ApproxBiLinear.Scale(small, small.Bounds(), out, out.Bounds(), draw.Src, nil)
		final = small
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, final); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

// removeBackground makes transparent every pixel reachable from the crop's
// border through colours close to the border's most common colour: the
// screen around the kart, not the kart's own parts.
func removeBackground(img *image.RGBA) {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	at := func(x, y int) rgb {
		i := img.PixOffset(x, y)
		return rgb{int32(img.Pix[i]), int32(img.Pix[i+1]), int32(img.Pix[i+2])}
	}
	counts := map[rgb]int{}
	var border []image.Point
	for x := 0; x < w; x++ {
		border = append(border, image.Pt(x, 0), image.Pt(x, h-1))
	}
	for y := 0; y < h; y++ {
		border = append(border, image.Pt(0, y), image.Pt(w-1, y))
	}
	for _, p := range border {
		c := at(p.X, p.Y)
		counts[c.coarse()]++
	}
	// The most common colour; between colours as common, the least (the
	// map's order varies from run to run, the kart cut out must not).
	var mode rgb
	best := -1
	for k, n := range counts {
		if n > best || n == best && k.less(mode) {
			mode, best = k, n
		}
	}
	seen := make([]bool, w*h)
	stack := border
	near := func(c rgb) bool {
		return dist(c.coarse(), mode) <= bgNear
	}
	// The background drifts (gradients), so a pixel also joins when it is
	// close to the neighbour it was reached from.
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := p.Y*w + p.X
		if seen[i] {
			continue
		}
		seen[i] = true
		c := at(p.X, p.Y)
		if !near(c) {
			continue
		}
		o := img.PixOffset(p.X, p.Y)
		img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = 0, 0, 0, 0
		for _, d := range [4]image.Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := p.Add(d)
			if q.X >= 0 && q.Y >= 0 && q.X < w && q.Y < h && !seen[q.Y*w+q.X] && dist(at(q.X, q.Y), c) <= bgDriftStep {
				stack = append(stack, q)
			}
		}
	}
}
