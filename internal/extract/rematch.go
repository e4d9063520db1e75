package extract

import (
	"fmt"
	"image"
	"image/color"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/pitlane/pitlane/internal/core"
)

// A figure the glyph reader is unsure of is read again whole, by drawing:
// each value it could be is drawn in the game's typeface, blurred as the
// photo blurred it, and laid over the screen's grey levels; the value whose
// drawing matches best (normalised correlation) is kept. Thresholding a
// blurred 15 px digit into ink loses what tells an 8 from a 9 or a 3; the
// grey levels still hold it. Only figures already held for the player are
// read so: the drawing may change their value, never whether they are held.

// synthH is the height, in pixels, the digits are drawn and compared at.
const synthH = 24

// synthPad is the margin around each drawn glyph, room for the blur.
const synthPad = 8

// synthGlyph is one character of the typeface drawn at synthH: its
// coverage from 0 to 1, drawn with its pen at x = synthPad.
type synthGlyph struct {
	w, h int
	pix  []float32
	adv  float64
}

type synthFace struct {
	glyph map[byte]synthGlyph
	kern  map[[2]byte]float64
}

// synthFaces are the digits and the point as the typeface draws them (0)
// and thinned by about a pixel (1), as the game's outline eats into them.
var synthFaces = sync.OnceValue(func() [2]synthFace {
	// The size at which a 0 stands synthH pixels tall.
	m, w := drawText("0", 96)
	face := lilitaFace(96 * float64(synthH) / float64(maskBounds(m, w).Dy()))
	defer face.Close()
	var out [2]synthFace
	for i := range out {
		out[i] = synthFace{glyph: map[byte]synthGlyph{}, kern: map[[2]byte]float64{}}
	}
	chars := "0123456789."
	for _, ch := range []byte(chars) {
		adv, _ := face.GlyphAdvance(rune(ch))
		gw, gh := int(float64(adv)/64)+2*synthPad+2, synthH+2*synthPad
		img := image.NewGray(image.Rect(0, 0, gw, gh))
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.Gray{255}), Face: face, Dot: fixed.P(synthPad, synthPad+synthH)}
		d.DrawString(string(ch))
		g := synthGlyph{w: gw, h: gh, pix: make([]float32, gw*gh), adv: float64(adv) / 64}
		for i, v := range img.Pix {
			g.pix[i] = float32(v) / 255
		}
		out[0].glyph[ch] = g
		out[1].glyph[ch] = thinGlyph(g)
		for _, ch2 := range []byte(chars) {
			k := float64(face.Kern(rune(ch), rune(ch2))) / 64
			for i := range out {
				out[i].kern[[2]byte{ch, ch2}] = k
			}
		}
	}
	return out
})

// thinGlyph takes about a pixel off each edge of a glyph.
func thinGlyph(g synthGlyph) synthGlyph {
	t := g
	t.pix = make([]float32, len(g.pix))
	for y := 1; y < g.h-1; y++ {
		for x := 1; x < g.w-1; x++ {
			i := y*g.w + x
			t.pix[i] = min(g.pix[i], g.pix[i-1], g.pix[i+1], g.pix[i-g.w], g.pix[i+g.w])
		}
	}
	return t
}

// blurred is a face blurred by a Gaussian: drawing is linear, so a value
// drawn from blurred glyphs is the value drawn then blurred.
func (f synthFace) blurred(sigma float64) synthFace {
	out := synthFace{glyph: map[byte]synthGlyph{}, kern: f.kern}
	k := gaussKernel(sigma)
	for ch, g := range f.glyph {
		b := g
		b.pix = convolve(convolve(g.pix, g.w, g.h, k, 1, 0), g.w, g.h, k, 0, 1)
		out.glyph[ch] = b
	}
	return out
}

func gaussKernel(sigma float64) []float32 {
	r := int(math.Ceil(2.5 * sigma))
	k := make([]float32, 2*r+1)
	var sum float32
	for i := range k {
		x := float64(i - r)
		k[i] = float32(math.Exp(-x * x / (2 * sigma * sigma)))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	return k
}

// convolve runs kernel k along x (dx 1) or y (dy 1) over a w x h map.
func convolve(p []float32, w, h int, k []float32, dx, dy int) []float32 {
	out := make([]float32, len(p))
	r := len(k) / 2
	for y := range h {
		for x := range w {
			var s float32
			for i, kv := range k {
				xx, yy := x+(i-r)*dx, y+(i-r)*dy
				if xx >= 0 && xx < w && yy >= 0 && yy < h {
					s += kv * p[yy*w+xx]
				}
			}
			out[y*w+x] = s
		}
	}
	return out
}

// draw lays text out in the typeface, as the game does.
func (f synthFace) draw(text string) (pix []float32, w, h int) {
	pens := make([]float64, len(text))
	pen := 0.0
	for i := range len(text) {
		pens[i] = pen
		pen += f.glyph[text[i]].adv
		if i+1 < len(text) {
			pen += f.kern[[2]byte{text[i], text[i+1]}]
		}
	}
	w, h = int(pen)+2*synthPad+2, synthH+2*synthPad
	pix = make([]float32, w*h)
	for i := range len(text) {
		g := f.glyph[text[i]]
		x0 := int(math.Round(pens[i]))
		for y := range g.h {
			row := pix[y*w:]
			for x := range g.w {
				if xx := x0 + x; xx < w {
					row[xx] += g.pix[y*g.w+x]
				}
			}
		}
	}
	return pix, w, h
}

// fmap is a map of grey levels, 1 the letters' white, 0 the bar's fill.
type fmap struct {
	w, h int
	pix  []float32
}

func (m fmap) at(x, y int) float32 {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return 0
	}
	return m.pix[y*m.w+x]
}

// inkSpan is where a map's figure stands. Its digits are the lightest
// thing in the box, flush right: the columns holding pixels over half
// white, the last run of them (a gap of a quarter of the box's height
// parts it from a label or a speck), then the rows those columns fill.
func (m fmap) inkSpan() (x0, x1, y0, y1 int, ok bool) {
	cols := make([]int, m.w)
	for y := range m.h {
		for x := range m.w {
			if m.pix[y*m.w+x] >= 0.5 {
				cols[x]++
			}
		}
	}
	x0, x1, ok = lastRun(cols, max(2, m.h/4))
	if !ok {
		return
	}
	rows := make([]float32, m.h)
	for y := range m.h {
		for x := x0; x <= x1; x++ {
			rows[y] += m.pix[y*m.w+x]
		}
	}
	if y0, y1, ok = span(rows, 0.3); !ok {
		return
	}
	for x := range cols {
		cols[x] = 0
		for y := y0; y <= y1; y++ {
			if m.pix[y*m.w+x] >= 0.5 {
				cols[x]++
			}
		}
	}
	x0, x1, ok = lastRun(cols, max(2, (y1-y0+1)/2))
	return
}

// lastRun is the last run of columns holding ink (two pixels or more, or
// a tenth of the fullest), gaps up to gap columns allowed inside.
func lastRun(cols []int, gap int) (a, b int, ok bool) {
	top := 0
	for _, c := range cols {
		top = max(top, c)
	}
	min := max(2, top/10)
	b = -1
	for x := len(cols) - 1; x >= 0; x-- {
		if cols[x] >= min {
			b = x
			break
		}
	}
	if b < 0 {
		return 0, 0, false
	}
	a = b
	for x, g := b, 0; x >= 0; x-- {
		if cols[x] >= min {
			a, g = x, 0
		} else if g++; g > gap {
			break
		}
	}
	return a, b, true
}

// span is the first and last index whose value reaches share of the most.
func span(v []float32, share float32) (a, b int, ok bool) {
	var top float32
	for _, x := range v {
		top = max(top, x)
	}
	if top <= 0 {
		return 0, 0, false
	}
	a, b = -1, -1
	for i, x := range v {
		if x >= share*top {
			if a < 0 {
				a = i
			}
			b = i
		}
	}
	return a, b, true
}

// seen is a figure's box on the screen as grey levels, scaled so that its
// digits stand about synthH tall.
type seen struct {
	m              fmap
	x0, x1, y0, y1 int       // its ink
	sum, sq        []float64 // running sums of m and of its squares, (w+1) x (h+1)
}

// summed fills in the running sums of s.
func (s seen) summed() seen {
	w := s.m.w + 1
	s.sum, s.sq = make([]float64, w*(s.m.h+1)), make([]float64, w*(s.m.h+1))
	for y := range s.m.h {
		var rs, rq float64
		for x := range s.m.w {
			v := float64(s.m.pix[y*s.m.w+x])
			rs += v
			rq += v * v
			s.sum[(y+1)*w+x+1] = s.sum[y*w+x+1] + rs
			s.sq[(y+1)*w+x+1] = s.sq[y*w+x+1] + rq
		}
	}
	return s
}

// sums are the sums of the screen's grey levels and of their squares over
// columns x0..x1 and rows y0..y1 (0 outside the map).
func (s seen) sums(x0, y0, x1, y1 int) (sum, sq float64) {
	x0, y0 = max(0, x0), max(0, y0)
	x1, y1 = min(s.m.w-1, x1), min(s.m.h-1, y1)
	if x1 < x0 || y1 < y0 {
		return 0, 0
	}
	w := s.m.w + 1
	a, b, c, d := y0*w+x0, y0*w+x1+1, (y1+1)*w+x0, (y1+1)*w+x1+1
	return s.sum[d] - s.sum[b] - s.sum[c] + s.sum[a], s.sq[d] - s.sq[b] - s.sq[c] + s.sq[a]
}

// whiteMap measures the white of box over fill: 1 the letters' white
// (the lightest hundredth of the box), 0 the fill or darker.
func whiteMap(src *image.RGBA, box image.Rectangle, fill rgb) (fmap, bool) {
	box = box.Intersect(src.Bounds())
	if box.Dx() < 4 || box.Dy() < 4 {
		return fmap{}, false
	}
	ex, top, ok := whiteOver(src, box, fill)
	if !ok {
		return fmap{}, false
	}
	m := fmap{w: box.Dx(), h: box.Dy(), pix: make([]float32, len(ex))}
	for i, e := range ex {
		m.pix[i] = min(1, float32(e)/float32(top))
	}
	return m, true
}

// lookAt scales a white map so that its digits stand k times synthH
// tall, and its width sx times more, for each k and sx.
func lookAt(raw fmap, ks, sxs []float64) []seen {
	_, _, y0, y1, ok := raw.inkSpan()
	if !ok || y1-y0 < 3 {
		return nil
	}
	var out []seen
	for _, k := range ks {
		for _, sx := range sxs {
			f := k * synthH / float64(y1-y0+1)
			fx := f * sx
			w, h := int(float64(raw.w)*fx), int(float64(raw.h)*f)
			if w < 8 || h < 8 || w*h > 1<<20 {
				continue
			}
			m := fmap{w: w, h: h, pix: make([]float32, w*h)}
			for y := range h {
				sy := (float64(y)+0.5)/f - 0.5
				for x := range w {
					m.pix[y*w+x] = bilinear(raw, (float64(x)+0.5)/fx-0.5, sy)
				}
			}
			s := seen{m: m}
			if s.x0, s.x1, s.y0, s.y1, ok = m.inkSpan(); ok {
				out = append(out, s.summed())
			}
		}
	}
	return out
}

func bilinear(m fmap, x, y float64) float32 {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	return (m.at(x0, y0)*(1-fx)+m.at(x0+1, y0)*fx)*(1-fy) + (m.at(x0, y0+1)*(1-fx)+m.at(x0+1, y0+1)*fx)*fy
}

// likeness is how well text drawn in face matches s: the best normalised
// correlation over shifts of up to shift pixels, the drawing's ink ending
// where the screen's does (the game writes its figures flush right).
func likeness(face synthFace, text string, s seen, shift int) float64 {
	return drawIn(face, text).likeness(s, shift)
}

// drawing is text drawn in a face, and the columns its ink spans.
type drawing struct {
	t        fmap
	tx0, tx1 int
	ok       bool // false when it has no ink
}

// drawIn draws text in face (the fit draws each value once a face, to
// lay it over every size of the screen's box).
func drawIn(face synthFace, text string) drawing {
	pix, w, h := face.draw(text)
	d := drawing{t: fmap{w: w, h: h, pix: pix}}
	d.tx0, d.tx1, _, _, d.ok = d.t.inkSpan()
	return d
}

// likeness is how well the drawing matches s (likeness above).
func (d drawing) likeness(s seen, shift int) float64 {
	t, tx0, tx1 := d.t, d.tx0, d.tx1
	if !d.ok {
		return -1
	}
	// Where the drawing's digits stand (synthPad to synthPad+synthH) goes
	// over the screen's ink rows.
	best := -1.0
	for dy := -shift; dy <= shift; dy++ {
		for dx := -shift; dx <= shift; dx++ {
			ox := s.x1 - tx1 + dx // drawing x = screen x - ox
			oy := s.y0 - synthPad + dy
			x0 := min(s.x0, tx0+ox) - 3
			x1 := max(s.x1, tx1+ox) + 3
			y0, y1 := s.y0-3, s.y1+3
			// The screen's sums over the window come from its running
			// sums; the drawing's only where it is drawn.
			so, soo := s.sums(x0, y0, x1, y1)
			var st, stt, sot float64
			for y := max(y0, oy); y <= min(y1, oy+t.h-1); y++ {
				trow := t.pix[(y-oy)*t.w:]
				for x := max(x0, ox); x <= min(x1, ox+t.w-1); x++ {
					d := float64(trow[x-ox])
					st += d
					stt += d * d
					if x >= 0 && y >= 0 && x < s.m.w && y < s.m.h {
						sot += d * float64(s.m.pix[y*s.m.w+x])
					}
				}
			}
			n := (x1 - x0 + 1) * (y1 - y0 + 1)
			fn := float64(n)
			cov := sot - so*st/fn
			v := (soo - so*so/fn) * (stt - st*st/fn)
			if v <= 0 {
				continue
			}
			best = max(best, cov/math.Sqrt(v))
		}
	}
	return best
}

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
// dropped; no leading zero, and a K/D keeps three digits at least.
func neighbours(d string, kd bool) []string {
	var out []string
	ok := func(s string) bool {
		if len(s) == 0 || len(s) > 7 || (len(s) > 1 && s[0] == '0' && !(kd && len(s) == 3)) {
			return false
		}
		return !kd || len(s) >= 3
	}
	for i := 0; i <= len(d); i++ {
		for c := byte('0'); c <= '9'; c++ {
			if i < len(d) && c != d[i] {
				if s := d[:i] + string(c) + d[i+1:]; ok(s) {
					out = append(out, s)
				}
			}
			if s := d[:i] + string(c) + d[i:]; ok(s) {
				out = append(out, s)
			}
		}
		if i < len(d) {
			if s := d[:i] + d[i+1:]; ok(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// figureBox is where a figure stands on a panel, for redraw.
type figureBox struct {
	box  image.Rectangle
	fill rgb
}

// redrawHeld reads again by drawing every figure of r held for the player
// (r.Doubt), and may change its value; the figure stays held. Kills,
// deaths and K/D are changed together, to values that agree with each
// other and match better in all than the values read; the other figures
// to the value drawn best, when it matches better than the value read by
// redrawMargin. No figure held on the figures as read goes unheld
// (keepHeld).
func (pr panelRead) redrawHeld(r *core.Reading) {
	asRead := cloneReading(*r)
	d := drawn{fits: map[core.Field][]figureFit{}, score: map[core.Field]func(string) float64{}, cur: map[core.Field]string{}, also: map[core.Field][]string{}}
	for f := range r.Doubt {
		if ft, score, c, ok := pr.redrawOne(*r, f); ok {
			d.fits[f], d.score[f], d.cur[f], d.also[f] = ft, score, c, pr.readAs(f)
		}
	}
	d.apply(r)
	keepHeld(r, asRead)
}

// drawn are the figures of a reading drawn again (redrawOne).
type drawn struct {
	fits  map[core.Field][]figureFit          // the values drawn, best first
	score map[core.Field]func(string) float64 // how well another value matches
	cur   map[core.Field]string               // the value read, as the drawing writes it
	also  map[core.Field][]string             // every value the glyph reader read (readAs)
}

// apply changes the figures of r drawn again to the values drawn best.
// Kills, deaths and K/D: the agreeing three drawn best. With one of them
// not read (under a tooltip, cut), nothing checks the other two: each is
// drawn best like the figures no arithmetic checks, and the one missing is
// worked out from them later, for the player to confirm.
func (d drawn) apply(r *core.Reading) {
	set := func(f core.Field, text string) {
		if f == core.FieldKD {
			r.SetKD(kdOf(text))
			return
		}
		v, _ := strconv.Atoi(text)
		r.Set(f, v)
	}
	trio := !slices.ContainsFunc(kdTrio, func(f core.Field) bool { return !r.Has(f) })
	if trio {
		if best, ok := d.agreeing(*r); ok {
			for i, f := range kdTrio {
				if d.fits[f] != nil {
					set(f, best[i])
				}
			}
		}
	}
	for f, ft := range d.fits {
		if trio && slices.Contains(kdTrio, f) || ft[0].text == d.cur[f] {
			continue
		}
		if better(ft[0].score, scoreOf(ft, d.cur[f]), slices.Contains(d.also[f], ft[0].text)) {
			set(f, ft[0].text)
		}
	}
}

// redrawOne draws figure f of r again (redraw), seeded with the value r
// holds and every read of it: the values drawn best, and r's value as the
// redraw writes it. ok is false when f has no box or no ink to draw over.
func (pr panelRead) redrawOne(r core.Reading, f core.Field) (fits []figureFit, score func(string) float64, cur string, ok bool) {
	fb, ok := pr.boxes[f]
	if !ok || r.Proposed[f] {
		return nil, nil, "", false
	}
	kd := f == core.FieldKD
	c := asDrawn(r, f)
	seeds := append([]string{c}, pr.readAs(f)...)
	raw, ok := whiteMap(pr.src, fb.box, fb.fill)
	if !ok {
		return nil, nil, "", false
	}
	ft, score := redraw(raw, seeds, kd)
	return ft, score, c, len(ft) > 0
}

// holdDrawnOtherwise holds the bots' kills and wins read clearly on a
// panel whose bars are small (figure boxes at most smallBar pixels tall:
// digits under 20 pixels, where JPEG can close a 5 into a 6 at every
// threshold) when, drawn again, they look more like another value.
// Nothing checks those two figures the way kills, deaths and K/D check one
// another. It only holds: the value changes, if at all, as any held
// figure's does (redrawHeld).
func (pr panelRead) holdDrawnOtherwise(r *core.Reading) {
	for _, f := range []core.Field{core.FieldBotsKills, core.FieldWins} {
		if _, held := r.Doubt[f]; held || !r.Has(f) || pr.boxes[f].box.Dy() > smallBar {
			continue
		}
		if ft, _, c, ok := pr.redrawOne(*r, f); ok && ft[0].text != c && ft[0].score >= scoreOf(ft, c)+holdMargin {
			r.Doubts(f, "hard to read on the screenshot")
		}
	}
}

// holdMargin is how much better another drawn value must match than a
// clear read for the read to be held (holdDrawnOtherwise).
const holdMargin = 0.02

// smallBar is the figure box's height (a bar's less its insets), in
// pixels, up to which a clear read of bots' kills and wins is drawn again
// as a check (the one caught, a chat app's JPEG, had 27).
const smallBar = 40

// keepHeld holds every figure the checks would have held on the figures
// as read (asRead): a redrawn value may agree where the value read did not
// (kills with deaths and K/D, wins with games), and that must not let a
// figure go unseen that the disagreement would have held, such as a level
// beside a misread caught by the arithmetic.
func keepHeld(r *core.Reading, asRead core.Reading) {
	asRead.Check()
	for f, why := range asRead.Doubt {
		if _, held := r.Doubt[f]; held || !r.Has(f) {
			continue
		}
		if asRead.Proposed[f] || slices.Contains(kdTrio, f) {
			// The reason spoke of a value since redrawn.
			why = "kills, deaths and K/D did not agree as first read: please check"
		}
		r.Doubts(f, why)
	}
}

// cloneReading copies r, its maps too.
func cloneReading(r core.Reading) core.Reading {
	r.Found, r.Doubt = maps.Clone(r.Found), maps.Clone(r.Doubt)
	r.Confidence, r.Proposed = maps.Clone(r.Confidence), maps.Clone(r.Proposed)
	return r
}

// agreeing chooses kills, deaths and K/D among the values drawn best
// (within redrawNear of each one's best; a figure not redrawn keeps its
// value): the three that agree (panelKD) with the best score in
// all. The values read are kept when they agree and match as well (better).
func (d drawn) agreeing(r core.Reading) ([3]string, bool) {
	fits, cur := d.fits, d.cur
	var opts [3][]figureFit
	var read [3]string
	for i, f := range kdTrio {
		read[i] = asDrawn(r, f)
		ft := fits[f]
		if ft == nil {
			opts[i] = []figureFit{{read[i], 0}}
			continue
		}
		for _, x := range ft {
			if x.score >= ft[0].score-redrawNear && len(opts[i]) < 6 || x.text == cur[f] {
				opts[i] = append(opts[i], x)
			}
		}
	}
	agree := func(k, d, kd string) bool {
		kn, _ := strconv.Atoi(k)
		dn, _ := strconv.Atoi(d)
		return panelKD(kdOf(kd), kn, dn)
	}
	readAgree := agree(read[0], read[1], read[2])
	if !readAgree {
		d.workedOut(&opts)
	}
	best, bestScore, found := [3]string{}, math.Inf(-1), false
	readScore := 0.0
	for i := range 3 {
		readScore += scoreOf(opts[i], read[i])
	}
	for _, k := range opts[0] {
		for _, d := range opts[1] {
			for _, kd := range opts[2] {
				if s := k.score + d.score + kd.score; s > bestScore && agree(k.text, d.text, kd.text) {
					best, bestScore, found = [3]string{k.text, d.text, kd.text}, s, true
				}
			}
		}
	}
	if !found {
		return read, false
	}
	seconded := true
	for i, f := range kdTrio {
		if best[i] != read[i] && !slices.Contains(d.also[f], best[i]) {
			seconded = false
		}
	}
	if readAgree && !better(bestScore, readScore, seconded) {
		return read, false
	}
	return best, true
}

// workedOut adds to the values drawn of kills, deaths and K/D (opts, in
// kdTrio's order) those the best few of the other two give, each drawn:
// kills from deaths × K/D and deaths from kills ÷ K/D (of the counts the
// K/D's rounding leaves, the one drawn best), K/D from kills ÷ deaths,
// each if drawn within redrawNear of the best its figure's drawing found.
// A figure misread in two digits or more is no neighbour of its read (the
// climb's), but the other two, read right, give it. Without the bound, on
// blurred photos a value the arithmetic alone put forward, drawn worse,
// broke more figures than it mended.
func (d drawn) workedOut(opts *[3][]figureFit) {
	top := func(i int) []figureFit { return opts[i][:min(workedFew, len(opts[i]))] }
	var add [3][]string
	// count is, of the counts from lo to hi that agree (ok), the one f
	// drawn matches best.
	count := func(f core.Field, lo, hi int, ok func(int) bool) string {
		score := d.score[f]
		if score == nil || lo < 0 || hi-lo > workedSpan {
			return ""
		}
		best, bestScore := "", math.Inf(-1)
		for v := lo; v <= hi; v++ {
			if t := strconv.Itoa(v); ok(v) {
				if s := score(t); s > bestScore {
					best, bestScore = t, s
				}
			}
		}
		return best
	}
	for _, a := range top(1) {
		for _, b := range top(2) {
			deaths, kd := atoi(a.text), kdOf(b.text)
			lo, hi := int(math.Floor((kd-0.005)*float64(deaths))), int(math.Ceil((kd+0.005)*float64(deaths)))
			add[0] = append(add[0], count(core.FieldKills, lo, hi, func(k int) bool { return panelKD(kd, k, deaths) }))
		}
	}
	for _, a := range top(0) {
		for _, b := range top(2) {
			kills, kd := atoi(a.text), kdOf(b.text)
			if kd < 0.1 {
				continue
			}
			lo, hi := int(float64(kills)/(kd+0.005)), int(float64(kills)/(kd-0.005))+1
			add[1] = append(add[1], count(core.FieldDeaths, max(1, lo), hi, func(dn int) bool { return panelKD(kd, kills, dn) }))
		}
		for _, b := range top(1) {
			if deaths := atoi(b.text); deaths > 0 {
				add[2] = append(add[2], fmt.Sprintf("%03d", int(math.Round(float64(atoi(a.text))*100/float64(deaths)))))
			}
		}
	}
	for i, f := range kdTrio {
		for _, t := range add[i] {
			if t == "" || d.score[f] == nil || slices.ContainsFunc(opts[i], func(x figureFit) bool { return x.text == t }) {
				continue
			}
			if v := d.score[f](t); v >= d.fits[f][0].score-redrawNear {
				opts[i] = append(opts[i], figureFit{t, v})
			}
		}
	}
}

// workedFew is how many of the values drawn best of two figures give the
// third (workedOut); workedSpan the most counts their rounding may leave
// to draw.
const (
	workedFew  = 3
	workedSpan = 400
)

// atoi is s as a number, 0 when it is none.
func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// asDrawn is r's value of f as redraw writes it: digits only, a K/D's
// two places included ("188" for 1.88).
func asDrawn(r core.Reading, f core.Field) string {
	if f == core.FieldKD {
		return strings.Replace(strconv.FormatFloat(r.KD, 'f', 2, 64), ".", "", 1)
	}
	return strconv.Itoa(r.Count(f))
}

// pointed writes a K/D's digits (the redraw's "188") as the game does
// ("1.88"), kdOf as a number.
func pointed(d string) string { return d[:len(d)-2] + "." + d[len(d)-2:] }
func kdOf(d string) float64 {
	v, _ := strconv.ParseFloat(pointed(d), 64)
	return v
}

// scoreOf is the score of text among fits, or -1 when it was not drawn.
func scoreOf(fits []figureFit, text string) float64 {
	for _, f := range fits {
		if f.text == text {
			return f.score
		}
	}
	return -1
}

// redrawMargin is how much better a drawn value must match than the
// value read to replace it.
const redrawMargin = 0.03

// better tells whether a value drawn with score to replaces the value
// read, drawn with score from: by redrawMargin, or by any amount when the
// glyph reader also read the figure so (seconded: at another threshold or
// size), the drawing then deciding between two readings of the screen
// rather than putting forward a value of its own.
func better(to, from float64, seconded bool) bool {
	if seconded {
		return to > from
	}
	return to >= from+redrawMargin
}

// readAs are the values, digits only, the glyph reader read figure f as:
// at each threshold and at the check's size.
func (pr panelRead) readAs(f core.Field) []string {
	norm := normCount
	if f == core.FieldKD {
		norm = normKDR
	}
	digits := func(s string) string { return strings.NewReplacer(".", "", ",", "").Replace(norm(s)) }
	var out []string
	for _, g := range pr.fields[f] {
		if t := digits(g.text); t != "" {
			out = append(out, t)
		}
	}
	if t := digits(pr.checks[f]); t != "" {
		out = append(out, t)
	}
	return out
}

// redrawNear is how far below the best match a value of kills, deaths or
// K/D may match and still be chosen for agreeing with the others.
const redrawNear = 0.03
