package extract

import (
	"image"
	"image/color"
	"image/draw"
	"slices"
)

// A player hovering over the game in a browser may capture a tooltip with
// it: a small box of one pale (or dark) grey with its own text, drawn over
// a bar. Under it the bar's figure is hidden; around it the box spoils the
// bar's edges, which then look sloped, as a photo's would. The box is
// found on each bar as a run of columns mostly of one unsaturated colour
// (the game's white digits fill less than half a bar's height), and
// painted over with the bar's and the panel's colours; the figure it
// covers is not read at all, so that the screen's arithmetic proposes it
// for the player to confirm rather than a stray digit passing for it.

// What stays tuned in finding a tooltip:
const (
	// tipGreyness is how far apart (of 255) a tooltip pixel's channels may
	// be: a grey, where the game's bars and outlines are blue.
	tipGreyness = 40
	// tipPale and tipDark are the least channel of a pale tooltip's grey
	// and the greatest of a dark one's.
	tipPale, tipDark = 190, 70
	// tipFillPct is the share (per cent) of a bar's height a tooltip's grey
	// fills in its columns; the game's white digits fill under half.
	tipFillPct = 55
	// tipMinBarPx is the shortest bar (pixels) a tooltip is looked for on.
	tipMinBarPx = 6
	// tipBandDen: a tooltip is looked for on a bar's band reaching
	// 1/tipBandDen of the gap between bars above and below it.
	tipBandDen = 2
	// tipBreakDen: text in the box may break a run of full columns for up
	// to 1/tipBreakDen of a bar's height.
	tipBreakDen = 4
	// tipLineDen: a line of the box is at least 1/tipLineDen of its grey.
	tipLineDen = 2
	// tipCoverDen: a box reaching 1/tipCoverDen of a bar's height into its
	// figure, where the digits begin, covers it.
	tipCoverDen = 4
	// tipJoinPx is the most pixels apart two boxes found on neighbouring
	// bars may be and be one box.
	tipJoinPx = 2
	// A box's shadow reaches 1/tipShadowDen of a bar's height past it, at
	// least tipShadowPx.
	tipShadowDen, tipShadowPx = 6, 2
)

// tooltip is a box found over a bar of a panel.
type tooltip struct {
	box  image.Rectangle
	rows []int // the bars whose figure it covers
}

// tipLike tells whether a pixel could be a tooltip's: grey (hardly
// coloured), and pale or dark. The game's bars and outlines are blue.
func tipLike(c rgb) bool {
	hi, lo := max(c.r, c.g, c.b), min(c.r, c.g, c.b)
	return hi-lo <= tipGreyness && (lo >= tipPale || hi <= tipDark)
}

// findTooltips returns the tooltips over the bars of p on src.
func findTooltips(src *image.RGBA, p panel) []tooltip {
	if len(p.rows) < 2 {
		return nil
	}
	b := src.Bounds()
	var out []tooltip
	for _, r := range p.rows {
		h := r.Dy()
		gap := max(1, (p.rows[1].Min.Y-p.rows[0].Max.Y)/tipBandDen)
		band := image.Rect(r.Min.X, r.Min.Y-gap, r.Max.X+h, r.Max.Y+gap).Intersect(b)
		if band.Dx() < h || h < tipMinBarPx {
			continue
		}
		// Columns where the grey fills more than half a bar's height; a run
		// of them (text in the box may break it for a few columns) at least
		// a bar's height wide is a box.
		full := func(x int) bool {
			n := 0
			for y := band.Min.Y; y < band.Max.Y; y++ {
				if tipLike(pixel(src, x, y)) {
					n++
				}
			}
			return n*100 >= h*tipFillPct
		}
		start, last := -1, -1
		flush := func() {
			if start >= 0 && last-start+1 >= h {
				out = append(out, tipBox(src, p, image.Rect(start, band.Min.Y, last+1, band.Max.Y)))
			}
			start = -1
		}
		for x := band.Min.X; x < band.Max.X; x++ {
			if !full(x) {
				if start >= 0 && x-last > h/tipBreakDen {
					flush()
				}
				continue
			}
			if start < 0 {
				start = x
			}
			last = x
		}
		flush()
	}
	return mergeTips(out)
}

// tipBox narrows cols (the tooltip's columns over a bar, the band's
// height) to the lines mostly of its grey, and lists the bars it covers.
func tipBox(src *image.RGBA, p panel, cols image.Rectangle) tooltip {
	y0, y1 := cols.Max.Y, cols.Min.Y
	for y := cols.Min.Y; y < cols.Max.Y; y++ {
		n := 0
		for x := cols.Min.X; x < cols.Max.X; x++ {
			if tipLike(pixel(src, x, y)) {
				n++
			}
		}
		if n*tipLineDen >= cols.Dx() {
			y0, y1 = min(y0, y), max(y1, y+1)
		}
	}
	if y0 >= y1 {
		y0, y1 = cols.Min.Y, cols.Max.Y
	}
	t := tooltip{box: image.Rect(cols.Min.X, y0, cols.Max.X, y1)}
	// The bars whose figure it covers: right of the empty middle, the
	// box as painted (with its shadow) reaching a quarter of the bar's
	// height or more into it, where the digits begin. A figure painted
	// over in part would be read short of a digit, as if whole.
	for k, r := range p.rows {
		ov := painted(t.box, p).Intersect(image.Rect(p.mid.Max.X, r.Min.Y, r.Max.X, r.Max.Y))
		if ov.Dy()*tipCoverDen >= r.Dy() && ov.Dx() > 0 {
			t.rows = append(t.rows, k)
		}
	}
	return t
}

// mergeTips joins the boxes found on neighbouring bars that are one box.
func mergeTips(ts []tooltip) []tooltip {
	var out []tooltip
	for _, t := range ts {
		joined := false
		for k := range out {
			if out[k].box.Inset(-tipJoinPx).Overlaps(t.box) {
				out[k].box = out[k].box.Union(t.box)
				for _, i := range t.rows {
					if !slices.Contains(out[k].rows, i) {
						out[k].rows = append(out[k].rows, i)
					}
				}
				joined = true
				break
			}
		}
		if !joined {
			out = append(out, t)
		}
	}
	return out
}

// maskTooltips returns a copy of src with each tooltip (and its shadow)
// painted over: inside a bar with the bar's colour, between bars with the
// panel's; the figures of the bars covered are blanked whole, so that
// nothing of them is read.
func maskTooltips(src *image.RGBA, p panel, ts []tooltip) *image.RGBA {
	out := image.NewRGBA(src.Bounds())
	copy(out.Pix, src.Pix)
	fills := make([]rgb, len(p.rows))
	for i, r := range p.rows {
		fills[i] = barFill(src, p, r)
	}
	back := meanColor(src, image.Rect(p.mid.Min.X, p.rows[0].Max.Y+1, p.mid.Max.X, p.rows[1].Min.Y-1))
	paint := func(r image.Rectangle, c rgb) {
		draw.Draw(out, r.Intersect(out.Bounds()), image.NewUniform(c.color()), image.Point{}, draw.Src)
	}
	for _, t := range ts {
		box := painted(t.box, p)
		paint(box, back)
		for i, r := range p.rows {
			paint(box.Intersect(r), fills[i])
		}
		for _, i := range t.rows {
			r := p.rows[i]
			paint(image.Rect(p.mid.Max.X, r.Min.Y, r.Max.X, r.Max.Y), fills[i])
		}
	}
	return out
}

// painted is the area painted over for a tooltip's box: the box and its
// shadow.
func painted(box image.Rectangle, p panel) image.Rectangle {
	return box.Inset(-max(tipShadowPx, p.rows[0].Dy()/tipShadowDen))
}

func pixel(src *image.RGBA, x, y int) rgb {
	i := src.PixOffset(x, y)
	return rgb{int32(src.Pix[i]), int32(src.Pix[i+1]), int32(src.Pix[i+2])}
}

func (c rgb) color() color.RGBA { return color.RGBA{uint8(c.r), uint8(c.g), uint8(c.b), 255} }
