package warp

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// The homography takes each of four points where it was asked to, and
// points between them along; three points in a line have none.
func TestBetweenMapsTheFourPoints(t *testing.T) {
	from := [4]Point{{0, 0}, {400, 0}, {400, 300}, {0, 300}}
	to := [4]Point{{120, 80}, {530, 140}, {500, 420}, {90, 350}}
	h, ok := Between(from, to)
	if !ok {
		t.Fatal("no homography between two quadrilaterals")
	}
	for i := range from {
		if p := h.Map(from[i]); math.Hypot(p.X-to[i].X, p.Y-to[i].Y) > 1e-6 {
			t.Errorf("%v went to %v, want %v", from[i], p, to[i])
		}
	}
	back, _ := Between(to, from)
	for _, p := range []Point{{200, 150}, {13, 287}, {399, 1}} {
		if q := back.Map(h.Map(p)); math.Hypot(q.X-p.X, q.Y-p.Y) > 1e-6 {
			t.Errorf("%v went there and back to %v", p, q)
		}
	}
	if _, ok := Between([4]Point{{0, 0}, {1, 1}, {2, 2}, {0, 5}}, to); ok {
		t.Error("three points in a line gave a homography")
	}
}

// An image seen through a homography shows each of its pixels where the
// homography takes it, and leaves the rest of the canvas as it was.
func TestImageResamplesThroughTheHomography(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			src.Set(x, y, color.RGBA{uint8(x * 6), uint8(y * 8), 0, 255})
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, 100, 100))
	// dst's (20+2x, 10+2y) shows src's (x, y): twice the size, moved.
	h, _ := Between([4]Point{{20, 10}, {100, 10}, {100, 70}, {20, 70}}, [4]Point{{0, 0}, {40, 0}, {40, 30}, {0, 30}})
	Image(dst, src, h)
	for _, c := range []struct{ dx, dy, sx, sy int }{{21, 11, 0, 0}, {51, 31, 15, 10}, {97, 67, 38, 28}} {
		got, want := dst.RGBAAt(c.dx, c.dy), src.RGBAAt(c.sx, c.sy)
		if absDiff(got.R, want.R) > 6 || absDiff(got.G, want.G) > 8 {
			t.Errorf("dst(%d,%d) = %v, want about src(%d,%d) = %v", c.dx, c.dy, got, c.sx, c.sy, want)
		}
	}
	if dst.RGBAAt(5, 5).A != 0 || dst.RGBAAt(99, 99).A != 0 {
		t.Error("pixels outside the source were painted")
	}
}

func absDiff(a, b uint8) int { return int(math.Abs(float64(a) - float64(b))) }
