package photos

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

// quadrants is a w x h image with a colour per quarter, to tell turns apart.
func quadrants(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	cs := []color.RGBA{{200, 0, 0, 255}, {0, 200, 0, 255}, {0, 0, 200, 255}, {200, 200, 0, 255}}
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, cs[2*(2*y/h)+2*x/w])
		}
	}
	return img
}

// Four quarter turns are none; one is a quarter clockwise: the top left
// corner goes to the top right.
func TestQuarterTurns(t *testing.T) {
	img := quadrants(40, 30)
	back := Quarter(Quarter(Quarter(Quarter(img, 1), 1), 1), 1)
	for i := range img.Pix {
		if img.Pix[i] != back.Pix[i] {
			t.Fatal("four quarter turns changed the image")
		}
	}
	q := Quarter(img, 1)
	if q.Bounds().Dx() != 30 || q.Bounds().Dy() != 40 || q.RGBAAt(29, 0) != img.RGBAAt(0, 0) {
		t.Fatalf("a quarter turn clockwise: %v, top right %v, want %v", q.Bounds(), q.RGBAAt(29, 0), img.RGBAAt(0, 0))
	}
}

// A simulated photo is the size asked, with the screen's four corners
// inside it, and the screen's middle shown at the middle of its corners.
func TestPhotoShowsTheScreenInItsCorners(t *testing.T) {
	img := quadrants(640, 360)
	rng := rand.New(rand.NewPCG(3, 4))
	s := RandomShot(rng, 1600, 1200, 30, 0.6)
	s.Moire, s.Grain, s.Blur = 0, 0, 0
	p, corners := Photo(img, rng, s)
	if p.Bounds().Dx() != 1600 || p.Bounds().Dy() != 1200 {
		t.Fatalf("photo %v", p.Bounds())
	}
	for _, c := range corners {
		if c.X < 0 || c.Y < 0 || c.X > 1600 || c.Y > 1200 {
			t.Fatalf("a corner of the screen is outside the photo: %v", corners)
		}
	}
	// The top left quarter's red, a little lifted and cast, near the top
	// left corner.
	tl := corners[0]
	at := p.RGBAAt(int(tl.X+(corners[2].X-tl.X)*0.1), int(tl.Y+(corners[2].Y-tl.Y)*0.1))
	if at.R < 150 || at.G > 60 || at.B > 60 {
		t.Errorf("near the screen's top left corner %v, want its red", at)
	}
}
