package photos

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"

	"github.com/pitlane/pitlane/internal/extract/warp"
)

// What a player's photo of the monitor has around the game: the browser's
// tab bar above it, a keyboard in front of it, a lamp's glare on it.

// Browser is img under a browser's tab bar, a light strip a fortieth of
// its width tall with a few tabs and their titles; it returns the new
// image and the bar's height.
func Browser(img image.Image, rng *rand.Rand) (*image.RGBA, int) {
	src := RGBA(img)
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	bar := max(8, w/40)
	out := Blank(w, h+bar, color.RGBA{222, 225, 230, 255})
	draw.Draw(out, image.Rect(0, bar, w, h+bar), src, image.Point{}, draw.Src)
	tabW := w / (6 + rng.IntN(4))
	active := rng.IntN(3)
	for i, x := 0, bar; x+tabW < w*3/4; i, x = i+1, x+tabW+bar/6 {
		shade := uint8(205)
		if i == active {
			shade = 250
		}
		draw.Draw(out, image.Rect(x, bar/4, x+tabW, bar), image.NewUniform(color.RGBA{shade, shade, shade + 3, 255}), image.Point{}, draw.Src)
		// The tab's title: a dark line of "words".
		for tx := x + bar/2; tx < x+tabW-bar; tx += bar/2 + rng.IntN(bar) {
			draw.Draw(out, image.Rect(tx, bar/2, min(tx+bar/3+rng.IntN(bar), x+tabW-bar/2), bar*3/4), image.NewUniform(color.RGBA{60, 62, 68, 255}), image.Point{}, draw.Src)
		}
	}
	return out, bar
}

// keyboard draws a keyboard on the desk in front of the monitor whose
// frame's corners are pf: a dark slab with rows of lighter keys, seen at
// the monitor's angle.
func keyboard(out *image.RGBA, rng *rand.Rand, pf [4]warp.Point) {
	const cols, rows, key = 15, 5, 20
	kb := Blank(cols*key, rows*key, color.RGBA{30, 31, 34, 255})
	top := uint8(70 + rng.IntN(60))
	for r := range rows {
		for c := range cols {
			draw.Draw(kb, image.Rect(c*key+2, r*key+2, c*key+key-2, r*key+key-3), image.NewUniform(color.RGBA{top, top, top + 4, 255}), image.Point{}, draw.Src)
		}
	}
	down := warp.Pt(pf[3].X-pf[0].X, pf[3].Y-pf[0].Y)
	at := func(p warp.Point, t float64) warp.Point { return warp.Pt(p.X+down.X*t, p.Y+down.Y*t) }
	in := 0.08 * (pf[2].X - pf[3].X)
	l, r := warp.Pt(pf[3].X+in, pf[3].Y), warp.Pt(pf[2].X-in, pf[2].Y)
	Onto(out, kb, [4]warp.Point{at(l, 0.15), at(r, 0.15), at(r, 0.5), at(l, 0.5)})
}

// glare adds a soft bright spot, its peak strength grey levels, somewhere
// on the photo.
func glare(img *image.RGBA, rng *rand.Rand, strength float64) {
	b := img.Bounds()
	cx := float64(b.Dx()) * (0.1 + 0.8*rng.Float64())
	cy := float64(b.Dy()) * (0.1 + 0.8*rng.Float64())
	r := float64(b.Dx()) * (0.08 + 0.2*rng.Float64())
	for y := max(b.Min.Y, int(cy-3*r)); y < min(b.Max.Y, int(cy+3*r)); y++ {
		for x := max(b.Min.X, int(cx-3*r)); x < min(b.Max.X, int(cx+3*r)); x++ {
			d2 := ((float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)) / (r * r)
			add := strength * math.Exp(-d2/2)
			o := img.PixOffset(x, y)
			for c := range 3 {
				img.Pix[o+c] = clamp(float64(img.Pix[o+c]) + add)
			}
		}
	}
}

// WithOrientation puts an EXIF APP1 segment with the Orientation tag o
// right after a JPEG's SOI marker, as a phone stores a photo it took held
// another way than its sensor.
func WithOrientation(jpg []byte, o int) []byte {
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00")
	binary.BigEndian.PutUint16(tiff[18:], uint16(o))
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(seg)+2))
	out := append(append(append([]byte{}, jpg[:2]...), app1...), seg...)
	return append(out, jpg[2:]...)
}

// The "portrait" photo: the phone held upright, aimed at the Stats panel
// on a monitor, as players take them: the panel somewhere off the middle,
// a third of the photo's width down to a tenth, the right of the game
// screen cut off when the panel is large, the browser's tab bar above the
// game, a keyboard on the desk, the monitor turned up to 25°, moiré and a
// lamp's glare; a third of them stored sideways with the EXIF orientation
// that turns them upright.
const (
	// portraitLeast and portraitMost are the narrowest and widest the
	// panel is drawn, as shares of the photo's width.
	portraitLeast, portraitMost = 0.10, 0.33
	// portraitTurn is the most the monitor is turned away, in degrees.
	portraitTurn = 25
	// bezelShare: the monitor's frame around the screen is this share of
	// the screen's longest side on each side (as Photo draws it).
	bezelShare = 0.035
)

// Portrait photographs the monitor showing capture, upright, aimed at
// panel (the Stats panel's bars, their pitch apart), and encodes it as a
// JPEG. badgeShown says whether the corner above the panel where the
// level's badge sits (the capture's top left down to the panel) is all in
// the photo, a fiftieth of its width inside its edges.
func Portrait(capture *image.RGBA, rng *rand.Rand, panel image.Rectangle, pitch int) (enc []byte, s Shot, badgeShown bool) {
	screen, bar := Browser(capture, rng)
	sw, sh := float64(screen.Bounds().Dx()), float64(screen.Bounds().Dy())
	// Where the panel is on the screen (below the tab bar), and its width.
	panelW := float64(panel.Dx()) / sw
	cx, cy := float64(panel.Min.X+panel.Max.X)/2/sw, (float64(panel.Min.Y+panel.Max.Y)/2+float64(bar))/sh

	w, h := 1536, 2048
	if rng.IntN(2) == 0 {
		w, h = 3024, 4032
	}
	share := portraitLeast + (portraitMost-portraitLeast)*rng.Float64()
	s = RandomShot(rng, w, h, 10+(portraitTurn-10)*rng.Float64(), 0.5)
	s.Fill = share / panelW * (1 + 2*bezelShare)
	s.Aim = []float64{cx, cy, 0.3 + 0.4*rng.Float64(), 0.3 + 0.4*rng.Float64()}
	s.Glare = 30 + 50*rng.Float64()
	s.Keyboard = true
	s.Moire = 0.03 + 0.07*rng.Float64()
	img, corners := Photo(screen, rng, s)

	hm, ok := warp.Between(warp.Corners(sw, sh), corners)
	top, left := float64(max(0, panel.Min.Y-6*pitch)+bar), float64(panel.Min.X-pitch)
	badge := [4]warp.Point{{X: left, Y: top}, {X: float64(panel.Max.X), Y: top},
		{X: float64(panel.Max.X), Y: float64(panel.Min.Y + bar)}, {X: left, Y: float64(panel.Min.Y + bar)}}
	margin := float64(w) / 50
	badgeShown = ok
	for _, c := range badge {
		m := hm.Map(c)
		if m.X < margin || m.Y < margin || m.X > float64(w)-margin || m.Y > float64(h)-margin {
			badgeShown = false
		}
	}
	if rng.IntN(3) == 0 {
		// Stored as the sensor saw it, turned a quarter to the left, with
		// orientation 6 turning it back.
		return WithOrientation(JPEG(Quarter(img, 3), s.Quality), 6), s, badgeShown
	}
	return JPEG(img, s.Quality), s, badgeShown
}
