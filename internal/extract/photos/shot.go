package photos

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/pitlane/pitlane/internal/extract/warp"
)

// Shot is how a phone photographs a monitor showing a capture.
type Shot struct {
	W, H int // the photo's size
	// The monitor's turn away from the camera, in degrees: about the
	// vertical axis (yaw), the horizontal one (pitch), and in the photo's
	// plane (roll).
	Yaw, Pitch, Roll float64
	// Fill is the share of the photo's width (or height, whichever binds)
	// the screen takes.
	Fill float64
	// Camera faults: blur radius in pixels, grain (0-255), moiré strength
	// (0-0.2), and the photo's JPEG quality.
	Blur    int
	Grain   float64
	Moire   float64
	Quality int
	// Aim, when set, places the screen so that the point at shares
	// (Aim[0], Aim[1]) of the screen's width and height lands at shares
	// (Aim[2], Aim[3]) of the photo's: Fill may then pass 1, the photo
	// showing part of the screen only.
	Aim []float64 `json:"aim,omitempty"`
	// Glare is a lamp's or a window's reflection on the screen: the grey
	// levels it adds at its brightest (0 for none).
	Glare float64 `json:"glare,omitempty"`
	// Keyboard puts a keyboard on the desk in front of the monitor.
	Keyboard bool `json:"keyboard,omitempty"`
}

// RandomShot draws a shot of a w x h photo: the monitor turned by up to
// turn degrees, filling fill (give or take a tenth).
func RandomShot(rng *rand.Rand, w, h int, turn, fill float64) Shot {
	sign := func() float64 {
		if rng.IntN(2) == 0 {
			return -1
		}
		return 1
	}
	return Shot{
		W: w, H: h,
		Yaw:     sign() * turn * (0.5 + 0.5*rng.Float64()),
		Pitch:   sign() * turn * 0.6 * rng.Float64(),
		Roll:    sign() * math.Min(8, turn*0.3) * rng.Float64(),
		Fill:    math.Min(0.98, fill*(0.9+0.2*rng.Float64())),
		Blur:    max(0, int(float64(w)/1500*rng.Float64()+0.5)),
		Grain:   4 + 8*rng.Float64(),
		Moire:   0.02 + 0.06*rng.Float64(),
		Quality: 80 + rng.IntN(13),
	}
}

// Photo is a simulated phone photo of a monitor showing img: the screen
// seen at the shot's angle, in a dark bezel, on a desk, with the camera's
// faults. It returns the photo and where the screen's corners landed (top
// left, top right, bottom right, bottom left).
func Photo(img image.Image, rng *rand.Rand, s Shot) (*image.RGBA, [4]warp.Point) {
	src := RGBA(img)
	sw, sh := float64(src.Bounds().Dx()), float64(src.Bounds().Dy())
	out := desk(rng, s.W, s.H)

	// The screen, a flat rectangle, turned and seen through a lens about
	// as wide as a phone's.
	bezel := 0.035 * math.Max(sw, sh)
	screen := warp.Corners(sw, sh)
	frame := [4]warp.Point{warp.Pt(-bezel, -bezel), warp.Pt(sw+bezel, -bezel), warp.Pt(sw+bezel, sh+bezel*1.6), warp.Pt(-bezel, sh+bezel*1.6)}
	f := 1.1 * math.Max(sw, sh)
	project := func(p warp.Point) warp.Point {
		x, y, z := p.X-sw/2, p.Y-sh/2, 0.0
		x, z = rotate(x, z, s.Yaw)
		y, z = rotate(y, z, s.Pitch)
		x, y = rotate(x, y, s.Roll)
		d := f / (z + 1.4*f)
		return warp.Point{X: x * d, Y: y * d}
	}
	var pf, ps [4]warp.Point
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range 4 {
		pf[i], ps[i] = project(frame[i]), project(screen[i])
		minX, maxX = math.Min(minX, pf[i].X), math.Max(maxX, pf[i].X)
		minY, maxY = math.Min(minY, pf[i].Y), math.Max(maxY, pf[i].Y)
	}
	k := math.Min(s.Fill*float64(s.W)/(maxX-minX), s.Fill*float64(s.H)/(maxY-minY))
	// Somewhere in the photo, not always centred.
	ox := (float64(s.W) - k*(maxX-minX)) * (0.2 + 0.6*rng.Float64())
	oy := (float64(s.H) - k*(maxY-minY)) * (0.2 + 0.6*rng.Float64())
	if len(s.Aim) == 4 {
		a := project(warp.Pt(s.Aim[0]*sw, s.Aim[1]*sh))
		ox, oy = s.Aim[2]*float64(s.W)-k*(a.X-minX), s.Aim[3]*float64(s.H)-k*(a.Y-minY)
	}
	place := func(p warp.Point) warp.Point { return warp.Point{X: ox + k*(p.X-minX), Y: oy + k*(p.Y-minY)} }
	for i := range 4 {
		pf[i], ps[i] = place(pf[i]), place(ps[i])
	}
	if s.Keyboard {
		keyboard(out, rng, pf)
	}
	Onto(out, Blank(8, 8, color.RGBA{18, 18, 20, 255}), pf)
	// A lit screen photographed: its black is not black, its colours a
	// little cast.
	shown := RGBA(src)
	lift := 10 + 14*rng.Float64()
	for i := range shown.Pix {
		if i%4 != 3 {
			shown.Pix[i] = clamp(lift + float64(shown.Pix[i])*(1-lift/255))
		}
	}
	Tint(shown, 0.92+0.1*rng.Float64(), 0.95+0.08*rng.Float64(), 0.97+0.1*rng.Float64())
	Onto(out, shown, ps)

	if s.Glare > 0 {
		glare(out, rng, s.Glare)
	}
	if s.Moire > 0 {
		Moire(out, rng, s.Moire)
	}
	Blur(out, s.Blur)
	vignette(out, 0.25)
	Noise(out, rng, s.Grain)
	return out, ps
}

func rotate(a, b, deg float64) (float64, float64) {
	r := deg * math.Pi / 180
	return a*math.Cos(r) - b*math.Sin(r), a*math.Sin(r) + b*math.Cos(r)
}

// desk is the background of a photo: a lit wall or desk, a gradient of
// one dull colour with some texture.
func desk(rng *rand.Rand, w, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	base := [3]float64{40 + 120*rng.Float64(), 40 + 100*rng.Float64(), 40 + 90*rng.Float64()}
	dx, dy := rng.Float64()-0.5, rng.Float64()-0.5
	for y := range h {
		for x := range w {
			t := 0.7 + 0.6*(dx*float64(x)/float64(w)+dy*float64(y)/float64(h))
			grain := 6 * math.Sin(float64(x)*0.05+3*math.Sin(float64(y)*0.01))
			o := out.PixOffset(x, y)
			for c := range 3 {
				out.Pix[o+c] = clamp(base[c]*t + grain)
			}
			out.Pix[o+3] = 255
		}
	}
	return out
}

// vignette darkens the photo's corners by up to share.
func vignette(img *image.RGBA, share float64) {
	b := img.Bounds()
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	r2 := cx*cx + cy*cy
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			d := ((float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)) / r2
			k := 1 - share*d
			o := img.PixOffset(x, y)
			for c := range 3 {
				img.Pix[o+c] = uint8(float64(img.Pix[o+c]) * k)
			}
		}
	}
}
