package extract

import (
	"image"
	"math"
	"slices"

	"github.com/pitlane/pitlane/internal/extract/warp"
)

// A phone photo sees the monitor at an angle: the Stats panel's rectangle
// is a quadrilateral, its bars slope and narrow towards the far side, and
// a label and its number no longer share a line. The panel's own geometry
// gives the perspective away: the bars' edges are straight lines, so the
// top edge of the first bar, the bottom edge of the last, and the lines
// through the bars' left and right ends make the panel's quadrilateral.
// Mapping it back to a rectangle (a homography) undoes the angle and the
// turn; the neighbourhood it is mapped with (the badge above, the kart to
// the right) comes out as upright as the panel.

// quad is a quadrilateral: top left, top right, bottom right, bottom left.
type quad [4]warp.Point

// line is y = a + b x (an edge across), or x = a + b y (an end down).
type line struct{ a, b float64 }

func (l line) at(v float64) float64 { return l.a + l.b*v }

// fitLine fits v = a + b u through the points by least squares, then again
// without the points farthest off (text touching an edge, a speck of
// noise). ok is false with fewer than three points.
func fitLine(us, vs []float64) (line, bool) {
	fit := func(keep []bool) (line, bool) {
		var n, su, sv, suu, suv float64
		for i := range us {
			if keep[i] {
				n++
				su, sv, suu, suv = su+us[i], sv+vs[i], suu+us[i]*us[i], suv+us[i]*vs[i]
			}
		}
		d := n*suu - su*su
		if n < minFitPoints || d == 0 {
			return line{}, false
		}
		b := (n*suv - su*sv) / d
		return line{(sv - b*su) / n, b}, true
	}
	keep := make([]bool, len(us))
	for i := range keep {
		keep[i] = true
	}
	l, ok := fit(keep)
	if !ok {
		return l, false
	}
	res := make([]float64, len(us))
	for i := range us {
		res[i] = math.Abs(vs[i] - l.at(us[i]))
	}
	sorted := slices.Clone(res)
	slices.Sort(sorted)
	cut := max(1, 2*sorted[len(sorted)/2])
	for i := range keep {
		keep[i] = res[i] <= cut
	}
	if l2, ok := fit(keep); ok {
		return l2, true
	}
	return l, true
}

// barEdges traces the top and bottom edges of bar r (the box the ladders
// gave, of colour fill) column by column, out from its middle where the
// box is exact, each column's edge near the last one's: the edges are
// followed however the bar slopes. It returns the two edges as lines and
// how far the bar's colour runs left and right along lines inside its top
// and bottom.
func barEdges(src *image.RGBA, r image.Rectangle, cx int, fill rgb) (top, bot line, left, right float64, ok bool) {
	b := src.Bounds()
	h := r.Dy()
	on := func(x, y int) bool {
		if x < b.Min.X || y < b.Min.Y || x >= b.Max.X || y >= b.Max.Y {
			return false
		}
		i := src.PixOffset(x, y)
		return dist(rgb{int32(src.Pix[i]), int32(src.Pix[i+1]), int32(src.Pix[i+2])}, fill) <= edgeFillTol
	}
	// An edge at column x near y: the first pixel of the bar's colour
	// coming in from outside (down for the top edge, up for the bottom).
	reach := max(minEdgeReach, h/edgeReachOf)
	edge := func(x, y, dir int) (int, bool) {
		for k := -reach; k <= reach; k++ {
			yy := y + dir*k
			if !on(x, yy-dir) && on(x, yy) && on(x, yy+dir) && on(x, yy+2*dir) {
				return yy, true
			}
		}
		return 0, false
	}
	step := max(1, r.Dx()/traceSteps)
	var xs, tops, bots []float64
	trace := func(dir int) {
		yt, yb := r.Min.Y, r.Max.Y-1
		misses := 0
		for x := cx; x >= r.Min.X-r.Dx()/tracePast && x <= r.Max.X+r.Dx()/tracePast && misses < traceMisses; x += dir * step {
			t, okT := edge(x, yt, 1)
			d, okB := edge(x, yb, -1)
			if !okT || !okB || d-t < h/edgeSpanDen || d-t > h*edgeSpanMaxNum/edgeSpanDen {
				misses++
				continue
			}
			misses = 0
			yt, yb = t, d
			xs, tops, bots = append(xs, float64(x)), append(tops, float64(t)), append(bots, float64(d))
		}
	}
	trace(1)
	trace(-1)
	if len(xs) < minEdgePoints {
		return top, bot, 0, 0, false
	}
	// The rounded ends bend the edges: the lines are fitted on the bar's
	// middle four fifths.
	lo, hi := slices.Min(xs), slices.Max(xs)
	var mx, mt, mb []float64
	for i, x := range xs {
		if x >= lo+(hi-lo)/edgeTrimOf && x <= hi-(hi-lo)/edgeTrimOf {
			mx, mt, mb = append(mx, x), append(mt, tops[i]), append(mb, bots[i])
		}
	}
	if top, ok = fitLine(mx, mt); !ok {
		return top, bot, 0, 0, false
	}
	if bot, ok = fitLine(mx, mb); !ok {
		return top, bot, 0, 0, false
	}
	// The bar's ends, along lines a sixth of its height inside its edges
	// (clear of the text, short of the rounded corners' worst).
	end := func(dir int) float64 {
		far := float64(cx)
		for _, frac := range []float64{1.0 / 6, 5.0 / 6} {
			miss, last := 0, cx
			for x := cx; x >= b.Min.X && x < b.Max.X && miss <= endMisses; x += dir {
				y := int(top.at(float64(x))*(1-frac) + bot.at(float64(x))*frac)
				if on(x, y) {
					miss, last = 0, x
				} else {
					miss++
				}
			}
			if dir*(last-int(far)) > 0 {
				far = float64(last)
			}
		}
		return far
	}
	return top, bot, end(-1), end(1) + 1, true
}

// panelQuad measures the bars of p on src and returns the quadrilateral of
// the panel's bars, and the height of a bar and the pitch of the bars
// along its left edge. ok is false when the bars' edges cannot be traced.
func panelQuad(src *image.RGBA, p panel) (q quad, rowH, pitch float64, ok bool) {
	n := len(p.rows)
	var tops, bots []line
	var lefts, rights, mids []float64
	for i, r := range p.rows {
		fill := p.fill[i]
		t, bt, l, rt, ok := barEdges(src, r, (p.mid.Min.X+p.mid.Max.X)/2, fill)
		if !ok {
			continue
		}
		tops, bots = append(tops, t), append(bots, bt)
		lefts, rights = append(lefts, l), append(rights, rt)
		mids = append(mids, float64(i))
	}
	if len(tops) < minTracedBars || len(tops) < n-maxUntracedBars {
		return q, 0, 0, false
	}
	// The ends of the bars, each at its middle height: two lines down.
	var ly, ry []float64
	for i := range tops {
		ly = append(ly, (tops[i].at(lefts[i])+bots[i].at(lefts[i]))/2)
		ry = append(ry, (tops[i].at(rights[i])+bots[i].at(rights[i]))/2)
	}
	leftL, ok1 := fitLine(ly, lefts)
	rightL, ok2 := fitLine(ry, rights)
	if !ok1 || !ok2 {
		return q, 0, 0, false
	}
	// Where an edge across (y = a + b x) meets an end down (x = c + d y).
	meet := func(e, s line) warp.Point {
		y := (e.a + e.b*s.a) / (1 - e.b*s.b)
		return warp.Point{X: s.at(y), Y: y}
	}
	first, last := tops[0], bots[len(bots)-1]
	q = quad{meet(first, leftL), meet(first, rightL), meet(last, rightL), meet(last, leftL)}
	// A bar's height and the bars' pitch, at the left end.
	x := leftL.at((q[0].Y + q[3].Y) / 2)
	var hs []float64
	for i := range tops {
		hs = append(hs, bots[i].at(x)-tops[i].at(x))
	}
	slices.Sort(hs)
	rowH = hs[len(hs)/2]
	if k := mids[len(mids)-1] - mids[0]; k > 0 {
		pitch = (tops[len(tops)-1].at(x) - tops[0].at(x)) / k
	}
	return q, rowH, pitch, rowH > minQuadRowH && pitch > rowH && !tracedPast(q, rowH)
}

// tracedPast tells whether the bars' quadrilateral q is far longer than
// the game's bars are (about 6.5 times as tall; less when a crop cut them
// or a photo foreshortened them): its ends were traced past the bars, as
// on rows a dozen pixels tall, where the bars' ends blur into the panel's
// border. Such a quadrilateral is no panel seen askew.
func tracedPast(q quad, rowH float64) bool {
	return q.across() > maxBarAspect*rowH
}

// maxBarAspect is the longest a bar's quadrilateral may be, in bar
// heights. Measured on the captures and one seed's simulated photos: no
// capture over 6.7, photos mostly 5 to 7; a few traced a little long (up
// to 9.5) and still straightened into a panel read right; those traced
// wrong measured 15 and more.
const maxBarAspect = 12

// across and down are the quadrilateral's mean width (its top and bottom
// edges) and mean height (its left and right edges).
func (q quad) across() float64 { return (length(q[0], q[1]) + length(q[3], q[2])) / 2 }
func (q quad) down() float64   { return (length(q[0], q[3]) + length(q[1], q[2])) / 2 }

// length is the distance from a to b.
func length(a, b warp.Point) float64 { return math.Hypot(b.X-a.X, b.Y-a.Y) }

// askew is how far, in pixels, the farthest corner of q is from where an
// upright rectangle from its top left corner would have it.
func askew(q quad) float64 {
	w := (q[1].X - q[0].X + q[2].X - q[3].X) / 2
	h := (q[3].Y - q[0].Y + q[2].Y - q[1].Y) / 2
	want := [4]warp.Point{q[0], {X: q[0].X + w, Y: q[0].Y}, {X: q[0].X + w, Y: q[0].Y + h}, {X: q[0].X, Y: q[0].Y + h}}
	far := 0.0
	for i := range q {
		far = max(far, math.Hypot(q[i].X-want[i].X, q[i].Y-want[i].Y))
	}
	return far
}

// skewed tells whether q is far enough from an upright rectangle for the
// angle to cost the reader: a corner off by more than a tenth of a bar's
// height.
func skewed(q quad, rowH float64) bool { return askew(q) > max(minAskewPx, rowH/askewPerRow) }

// What stays tuned in straightening a panel:
const (
	// edgeFillTol is how far (colour distance) a pixel at full resolution
	// may be from a bar's fill and count as the bar when its edges are
	// traced (wider than fillTol: a photo's bar shades along its length).
	edgeFillTol = 40
	// traceMisses is how many steps in a row may find no edge before the
	// trace along a bar stops (its end, or a tooltip).
	traceMisses = 6
	// minEdgePoints is the fewest columns a bar's edges are fitted on.
	minEdgePoints = 6
	// minAskewPx and askewPerRow: a panel is straightened when a corner is
	// off by more than 1.5 px and a tenth of a bar's height.
	minAskewPx, askewPerRow = 1.5, 10
	// minFitPoints is the fewest points a line is fitted through.
	minFitPoints = 3
	// tracePast: the trace along a bar runs past the box's ends by at most
	// the box's width over this.
	tracePast = 2
	// A column's top and bottom edges lie more than the box's height over
	// edgeSpanDen apart, and at most edgeSpanMaxNum/edgeSpanDen of it.
	edgeSpanMaxNum, edgeSpanDen = 3, 2
	// edgeTrimOf: the edges are fitted on the bar's middle, a tenth of
	// the traced length left off each end (the rounded ends bend them).
	edgeTrimOf = 10
	// endMisses is how many pixels off the fill in a row a bar's end
	// search steps over.
	endMisses = 2
	// minTracedBars is the fewest bars whose edges are traced, and
	// maxUntracedBars how many of a panel's bars may fail the trace.
	minTracedBars, maxUntracedBars = 3, 1
	// minQuadRowH is the least height (pixels) of a traced bar.
	minQuadRowH = 2
	// minCanvasSide is the shortest side (pixels) of a canvas drawn.
	minCanvasSide = 8
	// edgeReachOf and minEdgeReach: a column's edge is looked for within
	// the box's height over edgeReachOf (at least minEdgeReach pixels) of
	// the last column's.
	edgeReachOf, minEdgeReach = 5, 2
	// traceSteps: the trace along a bar steps by the box's width over this
	// (at least a pixel).
	traceSteps = 60
	// The canvas around the panel: canvasLeft and canvasRight of its
	// width to its left and right, canvasAbove and canvasBelow of the
	// bars' pitch above and below it.
	canvasLeft, canvasRight, canvasAbove, canvasBelow = 0.9, 3, 6.5, 1.5
	// sharpenRad and sharpenAmount are the straightened canvas's sharpening:
	// the square's half side (pixels) and the amount.
	sharpenRad, sharpenAmount = 1, 2
)

// straighten maps the neighbourhood of the panel's quadrilateral q (the
// menu around it: the level's badge above, the kart to the right) onto an
// upright canvas where the panel is a rectangle, at least minRowH pixels
// to a bar.
func straighten(src *image.RGBA, q quad, rowH, pitch float64) (*image.RGBA, bool) {
	if rowH > shrinkRowH {
		// A panel photographed large is shrunk first, by a whole factor,
		// averaging (shrinkBy): the bars are read at barH whatever their size, a
		// canvas of the whole menu around a panel filling the photo would
		// be tens of millions of pixels, and the warp, which samples, would
		// alias the screen's pixel grid into stripes the bars are not found
		// through. (Bars up to twice maxRowH are warped as they are: shrunk
		// by 2, some were no longer found on the canvas.) Only the part of
		// the photo the canvas is drawn from is shrunk, from a corner on
		// the photo's grid of k pixels, so that it is shrunk as the whole
		// photo would be.
		k := int(math.Ceil(rowH / maxRowH))
		area, ok := canvasArea(q, rowH, pitch, src.Bounds(), k)
		if !ok {
			return nil, false
		}
		src = shrinkBy(src.SubImage(area).(*image.RGBA), k)
		for i := range q {
			q[i] = warp.Point{X: (q[i].X - float64(area.Min.X)) / float64(k), Y: (q[i].Y - float64(area.Min.Y)) / float64(k)}
		}
		rowH, pitch = rowH/float64(k), pitch/float64(k)
	}
	hm, cw, ch, ok := canvasFor(q, rowH, pitch)
	if !ok || cw < minCanvasSide || ch < minCanvasSide || cw*ch > maxCanvas {
		return nil, false
	}
	dst := image.NewRGBA(image.Rect(0, 0, cw, ch))
	warp.Image(dst, src, hm)
	// A photo's blur costs the glyphs their corners: sharpened back, they
	// read as the typeface's (tried on the tuning set's simulated photos:
	// amounts 1 to 3 alike, 2 kept). The square is as wide as the blur
	// measured on the first bar's top edge (round 17; one square for all,
	// 5 x 5 or 7 x 7, tried in round 5, gained on 4032 px photos what it
	// lost on 2000 px ones).
	rad := sharpenRad
	x0, y0, w, _ := panelOnCanvas(q, rowH, pitch)
	if rise, ok := edgeRise(dst, x0, y0, w, minRowH/2); ok {
		rad = sharpenRadFor(rise)
	}
	sharpen(dst, rad, sharpenAmount)
	return dst, true
}

// canvasFor lays out the upright canvas for the panel's quadrilateral q:
// its size, and the map from it onto the photo (ok false when q is
// degenerate). Around the panel: the badge up to six bars' pitch above
// it, the kart up to three bar widths to its right.
func canvasFor(q quad, rowH, pitch float64) (hm warp.H, cw, ch int, ok bool) {
	x0, y0, w, h := panelOnCanvas(q, rowH, pitch)
	s := max(1, minRowH/rowH)
	cw, ch = int(x0+w+canvasRight*w), int(y0+h+canvasBelow*(pitch*s))
	hm, ok = warp.Between(quad{{X: x0, Y: y0}, {X: x0 + w, Y: y0}, {X: x0 + w, Y: y0 + h}, {X: x0, Y: y0 + h}}, q)
	return hm, cw, ch, ok
}

// panelOnCanvas is where the panel's quadrilateral q lands on its canvas
// (canvasFor): the top left corner of its bars, their width and height,
// enlarged so that a bar is at least minRowH tall.
func panelOnCanvas(q quad, rowH, pitch float64) (x0, y0, w, h float64) {
	s := max(1, minRowH/rowH)
	w, h = q.across()*s, q.down()*s
	return canvasLeft * w, canvasAbove * (pitch * s), w, h
}

// canvasArea is the part of the photo b (bounds) the canvas for q is drawn
// from, widened by a few pixels (what shrinking by k averages over them)
// and started on the photo's grid of k pixels. The canvas's corners go to
// the photo's by the map; the box of those four holds all it draws from,
// unless the canvas reaches the horizon the map puts its vanishing line
// on (a corner's denominator not positive; the map's is 1 at the origin,
// inside the canvas): then the whole photo is.
func canvasArea(q quad, rowH, pitch float64, b image.Rectangle, k int) (image.Rectangle, bool) {
	hm, cw, ch, ok := canvasFor(q, rowH, pitch)
	if !ok {
		return image.Rectangle{}, false
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range warp.Corners(float64(cw), float64(ch)) {
		if hm[6]*c.X+hm[7]*c.Y+1 <= 0 {
			return b, true // the canvas reaches the horizon: the whole photo
		}
		p := hm.Map(c)
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
	}
	m := float64(3 * k)
	lo := func(v float64, o int) int { return o + int(math.Floor((v-m-float64(o))/float64(k)))*k }
	area := image.Rect(lo(max(x0, -1e7), b.Min.X), lo(max(y0, -1e7), b.Min.Y), int(math.Ceil(min(x1, 1e7)+m)), int(math.Ceil(min(y1, 1e7)+m)))
	// Clipped to the photo, the corner is the photo's: on the grid too.
	area = area.Intersect(b)
	return area, !area.Empty()
}

// shrinkBy shrinks img by the whole factor k, each pixel a weighted mean
// of the 2k-1 pixels around its centre each way, the weights falling off
// in a tent (k at the centre, 1 at the ends). A plain k x k mean lets the
// photographed screen's pixel grid through as stripes (a square's mean
// passes some of what lies near its own period, a tent's hardly any). The
// result starts at the origin: a point p of img is (p-min)/k on it.
func shrinkBy(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h := (sw+k-1)/k, (sh+k-1)/k
	// taps gives, for an output index, the first source index and the
	// weights from there on, summing to 1.
	taps := func(x, n int) (lo int, ws []float64) {
		c := (float64(x) + 0.5) * float64(k) // the output pixel's centre
		lo = max(0, int(c)-k)
		var sum float64
		for s := lo; s < min(n, int(c)+k+1); s++ {
			w := max(0, float64(k)-math.Abs(float64(s)+0.5-c))
			ws, sum = append(ws, w), sum+w
		}
		for i := range ws {
			ws[i] /= sum
		}
		return lo, ws
	}
	// Across: a source row to w columns, each row done once, when the
	// first output row that needs it comes (the rows two output rows share
	// are kept until the next has passed them).
	xlo, xws := make([]int, w), make([][]float64, w)
	for x := range w {
		xlo[x], xws[x] = taps(x, sw)
	}
	across := map[int][]float64{}
	rowAcross := func(y int) []float64 {
		if m, ok := across[y]; ok {
			return m
		}
		row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
		m := make([]float64, 4*w)
		for x := range w {
			var acc [4]float64
			for i, v := range xws[x] {
				o := 4 * (xlo[x] + i)
				for c := range 4 {
					acc[c] += v * float64(row[o+c])
				}
			}
			copy(m[4*x:], acc[:])
		}
		across[y] = m
		return m
	}
	// Down: the rows across to each output row.
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		lo, ws := taps(y, sh)
		for sy := range across {
			if sy < lo {
				delete(across, sy)
			}
		}
		rows := make([][]float64, len(ws))
		for i := range ws {
			rows[i] = rowAcross(lo + i)
		}
		for x := range w {
			var acc [4]float64
			for i, v := range ws {
				for c := range 4 {
					acc[c] += v * rows[i][4*x+c]
				}
			}
			o := out.PixOffset(x, y)
			for c := range 4 {
				out.Pix[o+c] = uint8(min(255, acc[c]+0.5))
			}
		}
	}
	return out
}

// minRowH is the height, in pixels, a straightened bar gets at least: a
// panel photographed small is enlarged as it is straightened, so that its
// blurred digits are cut into ink at more than a dozen pixels tall (44
// since round 15: against 28 before, 10 more figures of 1,233 on the 2000
// px photos of three seeds already looked at, and one more on the 4032
// px ones; 56 lost 12 of those).
const minRowH = 44

// maxCanvas is the most pixels a straightened canvas may have.
const maxCanvas = 16 << 20

// maxRowH is the height, in pixels, a bar over twice as tall is shrunk to
// or below (by a whole factor) before it is straightened.
const maxRowH = 64

// shrinkRowH is the height, in pixels, over which a bar is shrunk before
// it is straightened.
const shrinkRowH = 2 * maxRowH
