package extract

import (
	"image"
	"slices"
	"sort"

	xdraw "golang.org/x/image/draw"
)

// The player's level is the number in the blue badge at the top left of
// the main menu, just left of the XP bar ("128630 / 139000"). Both are
// written in white in the game's typeface, above the Player | Stats tabs.
// The badge is found as the white glyphs right before the XP bar's: the
// longest line of glyphs in the strip above the panel.

// badgeDigitH is the height the badge's digits are scaled to before they
// are read, as the bars' digits are.
const badgeDigitH = 45

// What stays tuned in finding the level's badge:
const (
	// rimReach is how far (in the XP's digit heights) left of the XP text
	// the badge's first digit may stand: across the badge's rim.
	rimReach = 6
	// badgeTallTenths: the badge's digits stand at least 11 tenths of the
	// XP's digits' height.
	badgeTallTenths = 11
	// maxLevelDigits is the most digits a level has.
	maxLevelDigits = 3
	// minXPGlyphs is the fewest glyphs on the longest line for it to be
	// taken as the XP text as it is (else the blob rule, xpBlobWidth).
	minXPGlyphs = 5
	// xpBlobWidth: a line at least this many glyph heights wide stands
	// for XP digits a photo's blur ran into a few blobs.
	xpBlobWidth = 6
	// slashLean is how far (share of its width) a slash's top third
	// stands right of its bottom third; a digit's does not.
	slashLean = 0.3
	// brightestShare: the white of the badge's text is that of the
	// brightest 1/200 of the area's pixels.
	brightestShare = 200
	// leastWhite is the darkest a pixel counts as the badge's white.
	leastWhite = 150
	// badgeMinAreaPx is the least width and height (pixels, at the
	// capture's scale) of the strip above the panel worth reading.
	badgeMinAreaPx = 8
	// glyphRowDiv: a glyph stands at least 1/glyphRowDiv of a bar's height.
	glyphRowDiv = 4
	// glyphThinDiv: a glyph is at least 1/glyphThinDiv as wide as tall.
	glyphThinDiv = 6
	// glyphWideNum/glyphWideDen is the most a single glyph is as wide as
	// tall (5/4); wider, it is glyphs run together.
	glyphWideNum, glyphWideDen = 5, 4
	// textRunTalls is the widest (in its heights) glyphs run together
	// (the XP's digits) may stand and still be text.
	textRunTalls = 8
	// xpRunGapDiv: the XP's digits stand closer than 1/xpRunGapDiv of
	// their height to each other.
	xpRunGapDiv = 2
	// xpCentreDiv: a glyph on the XP's line has its centre within
	// 1/xpCentreDiv of the XP digits' height of theirs.
	xpCentreDiv = 2
	// badgeOffMinGlyphs is the fewest glyphs on the XP's line for the
	// badge's to be cut off it: the widest gap and another to weigh it by.
	badgeOffMinGlyphs = 3
	// rimGapRatio: the rim's gap is at least this many times any other gap
	// on the XP's line.
	rimGapRatio = 2
	// strayCoverDiv: stray ink covering at least 1/strayCoverDiv of the
	// digits' height may be a digit the blur broke up.
	strayCoverDiv = 2
	// xpSideTalls is the least width (in digit heights) the XP's digits
	// stand on each side of the slash.
	xpSideTalls = 2
	// besideGapSlashes is the widest gap (in slash heights) from one glyph
	// beside the slash to the next.
	besideGapSlashes = 2
	// besideShortDiv: a digit beside the slash stands at least
	// 1/besideShortDiv of the slash's height.
	besideShortDiv = 2
	// besideTallTenths: a glyph taller than this (tenths of the digits
	// found before it) beside the slash is the level's badge.
	besideTallTenths = 12
	// lineCentreDiv: glyphs on one line have the sums of their top and
	// bottom within 1/lineCentreDiv of the taller's height (centres within
	// a quarter of it).
	lineCentreDiv = 2
	// lineTallTenths: glyphs on one line stand each at least this many
	// tenths of the other's height.
	lineTallTenths = 8
	// stripSideTenths is how far (tenths of a bar's width) the strip the
	// badge is looked for in reaches left and right of the panel's bars.
	stripSideTenths = 6
	// stripTopNum/stripTopDen and stripBottomNum/stripBottomDen are how
	// high above the top bar (in bar pitches: 11/2 and 6/5) the strip's
	// top and bottom stand.
	stripTopNum, stripTopDen       = 11, 2
	stripBottomNum, stripBottomDen = 6, 5
	// firstWhiteCut, blurWhiteCut and dimWhiteCut are how far (8-bit
	// levels) below the brightest white the white is cut, in the order
	// tried: sharp, blurred (only the whitest), dimmer than the brightest.
	firstWhiteCut, blurWhiteCut, dimWhiteCut = 40, 16, 70
	// nextDigitNum/nextDigitDen is the widest gap (share of a digit's
	// height, 2/3) from one of the badge's digits to the next.
	nextDigitNum, nextDigitDen = 2, 3
	// badgePadMinPx and badgePadDiv: the digits' box is padded by
	// 1/badgePadDiv of its height, at least badgePadMinPx pixels.
	badgePadMinPx, badgePadDiv = 2, 6
	// digitInBoxNum/digitInBoxDen is the share (3/4) of the padded box's
	// height taken as the digits' when they are scaled to badgeDigitH.
	digitInBoxNum, digitInBoxDen = 3, 4
	// badgeBlueDiv: the badge's blue is the darkest 1/badgeBlueDiv of the
	// box (the digits may cover half of it).
	badgeBlueDiv = 6
	// minInkSpan is the least span (8-bit levels) from the badge's blue to
	// its white that the ink cuts are laid across.
	minInkSpan = 40
)

// readBadge reads the level above the Stats panel p, at each of inkCuts;
// nil when there is no badge (cropped away, or a build without one).
// whole is false when white ink beside the digits read may be a digit the
// blur broke up or ran into the rim: the level read may lack it.
func readBadge(src *image.RGBA, p panel) (reads []glyphRead, whole bool) {
	if len(p.rows) < 2 {
		return nil, false
	}
	top := p.rows[0]
	pitch := p.rows[1].Min.Y - top.Min.Y
	pw := top.Dx()
	area := image.Rect(top.Min.X-pw*stripSideTenths/tenths, top.Min.Y-pitch*stripTopNum/stripTopDen, top.Max.X+pw*stripSideTenths/tenths, top.Min.Y-pitch*stripBottomNum/stripBottomDen).Intersect(src.Bounds())
	if area.Dx() < badgeMinAreaPx || area.Dy() < badgeMinAreaPx {
		return nil, false
	}
	// Glyph-sized white components: digits of the badge and the XP bar,
	// cut at 40 below the brightest white in view. Blurred (a photo) they
	// run together at that cut: then only the whitest of their white keeps
	// them apart. Dimmer than the brightest (which may be a browser's bar
	// above the game), they show only at a lower cut.
	rowH := top.Dy()
	w := area.Dx()
	var white []bool
	var wval uint8
	var glyphs, text, xp []image.Rectangle
	found := false
	for _, margin := range []int{firstWhiteCut, blurWhiteCut, dimWhiteCut} {
		white, wval = whiteMask(src, area, margin)
		glyphs, text = glyphs[:0], text[:0]
		// Text: glyphs, and glyphs the blur ran together (the XP's
		// digits), of a glyph's height.
		for _, c := range components(white, w) {
			if c.Dy()*glyphRowDiv < rowH || c.Dy() > rowH || c.Dx()*glyphThinDiv < c.Dy() {
				continue
			}
			if c.Dx() <= c.Dy()*glyphWideNum/glyphWideDen {
				glyphs = append(glyphs, c)
			}
			if c.Dx() <= c.Dy()*textRunTalls {
				text = append(text, c)
			}
		}
		if xp, found = xpText(white, w, glyphLines(text)); found {
			break
		}
	}
	if !found {
		return nil, false
	}
	xp = badgeOff(xp)
	// The badge: the glyphs nearest left of the XP text, taller than its
	// digits and centred on them, one beside the other.
	first := xp[0]
	h := first.Dy()
	cy := (first.Min.Y + first.Max.Y) / 2
	var badge []image.Rectangle
	edge := first.Min.X
	// The XP's digits run on left while they stand close together (JPEG
	// can make some shorter, and glyphLines put them on a line apart); the
	// badge is beyond the gap of its rim.
	xpLeft := edge
	for more := true; more; {
		more = false
		for _, g := range text {
			if g.Max.X <= edge && edge-g.Max.X < h/xpRunGapDiv && abs((g.Min.Y+g.Max.Y)/2-cy)*xpCentreDiv <= h {
				edge, more = g.Min.X, true
			}
		}
	}
	for {
		next := -1
		for i, g := range glyphs {
			gcy := (g.Min.Y + g.Max.Y) / 2
			reach := rimReach * h // from the XP text across the badge's rim
			if len(badge) > 0 {
				reach = g.Dy() * nextDigitNum / nextDigitDen // from one digit to the next
			}
			if g.Max.X <= edge && edge-g.Max.X <= reach && abs(gcy-cy)*xpCentreDiv <= h && g.Dy()*tenths >= h*badgeTallTenths && !isSlash(white, w, g) &&
				(next < 0 || g.Max.X > glyphs[next].Max.X) {
				next = i
			}
		}
		if next < 0 || len(badge) > maxLevelDigits {
			break
		}
		badge = append(badge, glyphs[next])
		edge = glyphs[next].Min.X
	}
	if len(badge) == 0 || len(badge) > maxLevelDigits {
		return nil, false
	}
	for _, g := range badge {
		if g.Min.X+area.Min.X <= src.Bounds().Min.X || g.Min.Y+area.Min.Y <= src.Bounds().Min.Y {
			return nil, false // a badge cut by the capture's edge: its digits are not all there
		}
	}
	var box image.Rectangle
	for _, g := range badge {
		box = box.Union(g)
	}
	whole = !strayInk(white, w, box, xpLeft)
	box = box.Inset(-max(badgePadMinPx, box.Dy()/badgePadDiv)).Intersect(image.Rect(0, 0, w, area.Dy()))
	scale := float64(badgeDigitH) / float64(box.Dy()*digitInBoxNum/digitInBoxDen)
	// The badge's blue is the dark end of the box; the digits' white is
	// what whiteMask found.
	box = box.Add(area.Min)
	var vals []int
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			vals = append(vals, int(minChannel(src, x, y)))
		}
	}
	sort.Ints(vals)
	bg := int32(vals[len(vals)/badgeBlueDiv]) // the digits may cover half the box
	span := max(minInkSpan, int32(wval)-bg)
	var out []glyphRead
	for _, cut := range inkCuts {
		g := image.NewGray(image.Rect(0, 0, box.Dx(), box.Dy()))
		lo, hi := bg+span*cut[0]/100, bg+span*cut[1]/100
		for y := 0; y < box.Dy(); y++ {
			for x := 0; x < box.Dx(); x++ {
				v := int32(minChannel(src, box.Min.X+x, box.Min.Y+y))
				switch {
				case v <= lo:
					g.Pix[y*g.Stride+x] = 255
				case v >= hi:
					g.Pix[y*g.Stride+x] = 0
				default:
					g.Pix[y*g.Stride+x] = uint8(255 - (v-lo)*255/(hi-lo))
				}
			}
		}
		sw, sh := max(1, int(float64(box.Dx())*scale)), max(1, int(float64(box.Dy())*scale))
		big := image.NewGray(image.Rect(0, 0, sw, sh))
		xdraw.CatmullRom.Scale(big, big.Bounds(), g, g.Bounds(), xdraw.Src, nil)
		out = append(out, readGlyphs(big))
	}
	return out, whole
}

// badgeOff drops from the XP text's line the badge's digits that
// glyphLines ran into it (a blurred photo narrows the rim's gap between
// them): the glyphs before the line's widest gap, when that gap is at
// least a digit's height (the rim's; the XP's digits stand closer, even a
// 1 beside the next) and twice any other, and each glyph before it stands
// a tenth or more taller than the glyph after it, the XP's first digits.
// The badge is then found left of what is left.
func badgeOff(xp []image.Rectangle) []image.Rectangle {
	if len(xp) < badgeOffMinGlyphs {
		return xp
	}
	at, widest, next := 0, -1, 0
	for i := 1; i < len(xp); i++ {
		switch gap := xp[i].Min.X - xp[i-1].Max.X; {
		case gap > widest:
			next, widest, at = max(next, widest), gap, i
		default:
			next = max(next, gap)
		}
	}
	if at == len(xp)-1 || widest < rimGapRatio*next || widest < xp[at].Dy() {
		return xp
	}
	for _, g := range xp[:at] {
		if g.Dy()*tenths < xp[at].Dy()*badgeTallTenths {
			return xp
		}
	}
	return xp[at:]
}

// strayInk tells whether white ink other than the badge's digits (box)
// lies beside them, within a digit's height left or right and short of the
// XP text (from xpLeft), covering half their height or more: a digit blur
// broke into pieces (its top and bottom apart) or ran into the badge's rim
// no longer passes for a glyph, and the digits read are not all there.
func strayInk(m []bool, w int, box image.Rectangle, xpLeft int) bool {
	near := image.Rect(box.Min.X-box.Dy(), box.Min.Y, min(box.Max.X+box.Dy(), xpLeft), box.Max.Y)
	var stray image.Rectangle
	for _, c := range components(m, w) {
		if c.In(box) || !c.Overlaps(near) || c.Max.X > xpLeft {
			continue
		}
		stray = stray.Union(c)
	}
	return stray.Intersect(image.Rect(stray.Min.X, box.Min.Y, stray.Max.X, box.Max.Y)).Dy()*strayCoverDiv >= box.Dy()
}

func minChannel(src *image.RGBA, x, y int) uint8 {
	i := src.PixOffset(x, y)
	return min(src.Pix[i], src.Pix[i+1], src.Pix[i+2])
}

// xpText finds the XP bar's text ("128630 / 139000"): digits, a slash
// and digits (at least two digits' width each side, whether their glyphs
// stand apart or not), the leftmost such on the strip. The slash, taller
// than the digits, may be on a line of its own, on either side's line or on
// none, so it is looked for among every line's glyphs (slashedGlyphs).
// Without a slash (cut off, or misjudged) the longest line of five glyphs
// or more stands in for it. ok is false when there is neither.
func xpText(m []bool, w int, lines [][]image.Rectangle) (xp []image.Rectangle, ok bool) {
	if xp := slashedGlyphs(m, w, lines); xp != nil {
		return xp, true
	}
	var best []image.Rectangle
	for _, l := range lines {
		if len(l) > len(best) {
			best = l
		}
	}
	if len(best) >= minXPGlyphs {
		return best, true
	}
	// A photo's blur runs the XP's digits into a few blobs: then the
	// widest line at least six glyphs' height wide stands in for it.
	best = nil
	wide := func(l []image.Rectangle) int { return l[len(l)-1].Max.X - l[0].Min.X }
	for _, l := range lines {
		if wide(l) >= xpBlobWidth*l[0].Dy() && (best == nil || wide(l) > wide(best)) {
			best = l
		}
	}
	return best, best != nil
}

// slashedGlyphs is the leftmost slash among the glyphs of lines with
// digits either side (beside), wherever glyphLines put them: a slash
// taller than a digit that JPEG made short goes on no line with it.
func slashedGlyphs(m []bool, w int, lines [][]image.Rectangle) []image.Rectangle {
	var all []image.Rectangle
	for _, l := range lines {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Min.X < all[j].Min.X })
	var best []image.Rectangle
	for _, s := range all {
		if !isSlash(m, w, s) {
			continue
		}
		left, right := beside(all, s, -1), beside(all, s, 1)
		if len(left) == 0 || len(right) == 0 || s.Min.X-left[0].Min.X < xpSideTalls*left[0].Dy() || right[len(right)-1].Max.X-s.Max.X < xpSideTalls*right[0].Dy() {
			continue
		}
		if best == nil || left[0].Min.X < best[0].Min.X {
			best = append(append(append([]image.Rectangle(nil), left...), s), right...)
		}
	}
	return best
}

// beside are the glyphs of gs (in order of x) that run on from the slash s
// to its left (dir -1) or right (dir 1), left to right: each within two
// slashes' height of the last (room for a thin 1 the threshold lost), on
// its line, no taller than the slash nor a fifth taller than the digits
// before it (the badge's digits stand taller, maybe as tall as the slash
// on a small crop). The slash stands taller than the digits, so
// glyphLines may have put it on either side's line or on neither.
func beside(gs []image.Rectangle, s image.Rectangle, dir int) []image.Rectangle {
	h, cy := s.Dy(), s.Min.Y+s.Max.Y
	var out []image.Rectangle
	var hs []int // the heights of out
	last := s
	gap := func(g image.Rectangle) int {
		if dir < 0 {
			return last.Min.X - g.Max.X
		}
		return g.Min.X - last.Max.X
	}
	for {
		next, digitH := -1, 0
		if len(hs) > 0 {
			digitH = median(hs)
		}
		for i, g := range gs {
			if gap(g) < 0 || gap(g) > besideGapSlashes*h || abs(g.Min.Y+g.Max.Y-cy) > h || g.Dy() > h || g.Dy()*besideShortDiv < h {
				continue
			}
			if len(out) > 0 && g.Dy()*tenths > digitH*besideTallTenths {
				continue // taller than the digits found: the level's badge
			}
			if next < 0 || gap(g) < gap(gs[next]) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		last = gs[next]
		out, hs = append(out, last), append(hs, last.Dy())
	}
	if dir < 0 {
		slices.Reverse(out)
	}
	return out
}

// isSlash tells a "/" from a digit: its ink leans, the top further right
// than the bottom.
func isSlash(m []bool, w int, r image.Rectangle) bool {
	cx := func(y0, y1 int) float64 {
		sum, n := 0, 0
		for y := y0; y < y1; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if m[y*w+x] {
					sum += x
					n++
				}
			}
		}
		return float64(sum) / float64(max(1, n))
	}
	third := r.Dy() / 3
	return cx(r.Min.Y, r.Min.Y+third)-cx(r.Max.Y-third, r.Max.Y) > slashLean*float64(r.Dx())
}

// whiteMask marks the pixels of area that are white: every channel within
// margin of the brightest white found there (a photo's white is not 255).
func whiteMask(src *image.RGBA, area image.Rectangle, margin int) ([]bool, uint8) {
	var hist [256]int
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			hist[minChannel(src, x, y)]++
		}
	}
	n := area.Dx() * area.Dy()
	top, seen := 255, 0
	for ; top > 0; top-- {
		if seen += hist[top]; seen*brightestShare >= n {
			break
		}
	}
	cut := uint8(max(leastWhite, top-margin))
	m := make([]bool, n)
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			m[(y-area.Min.Y)*area.Dx()+x-area.Min.X] = minChannel(src, x, y) >= cut
		}
	}
	return m, uint8(top)
}

// glyphLines groups glyph boxes into lines: side by side, centred on one
// height, at most a glyph's height apart. Each line runs left to right.
func glyphLines(gs []image.Rectangle) [][]image.Rectangle {
	sort.Slice(gs, func(i, j int) bool { return gs[i].Min.X < gs[j].Min.X })
	used := make([]bool, len(gs))
	var lines [][]image.Rectangle
	for i := range gs {
		if used[i] {
			continue
		}
		line := []image.Rectangle{gs[i]}
		used[i] = true
		for j := i + 1; j < len(gs); j++ {
			last := line[len(line)-1]
			g := gs[j]
			h := max(last.Dy(), g.Dy())
			if used[j] || g.Min.X-last.Max.X > h {
				continue
			}
			if abs((g.Min.Y+g.Max.Y)-(last.Min.Y+last.Max.Y)) <= h/lineCentreDiv && g.Dy()*tenths >= last.Dy()*lineTallTenths && last.Dy()*tenths >= g.Dy()*lineTallTenths {
				line = append(line, g)
				used[j] = true
			}
		}
		lines = append(lines, line)
	}
	return lines
}
