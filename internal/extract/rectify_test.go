package extract

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/extract/warp"
)

// statsMenu draws a menu like the game's, 1280 x 720: a Stats panel of
// five bars (label left, number right, white in the game's typeface) on a
// blue screen, and returns it with the corners of the panel's bars.
func statsMenu(values []string) (*image.RGBA, quad) {
	img := photos.Blank(1280, 720, color.RGBA{58, 108, 196, 255})
	draw.Draw(img, image.Rect(60, 180, 420, 520), image.NewUniform(color.RGBA{24, 70, 150, 255}), image.Point{}, draw.Src)
	labels := []string{"Kills", "Bots Kills", "Deaths", "KDR", "Wins"}
	const x0, x1, top, barH, pitch = 76, 404, 196, 48, 62
	white := image.NewUniform(color.RGBA{255, 255, 255, 255})
	text := func(s string, x, y int, right bool) {
		mask, w := drawText(s, 26)
		m := image.NewAlpha(image.Rect(0, 0, w, len(mask)/w))
		for i, on := range mask {
			if on {
				m.Pix[i] = 255
			}
		}
		box := maskBounds(mask, w)
		at := image.Pt(x-box.Min.X, y-box.Min.Y-box.Dy()/2)
		if right {
			at.X = x - box.Max.X
		}
		draw.DrawMask(img, m.Bounds().Add(at), white, image.Point{}, m, image.Point{}, draw.Over)
	}
	for i, l := range labels {
		y := top + i*pitch
		draw.Draw(img, image.Rect(x0, y, x1, y+barH), image.NewUniform(color.RGBA{92, 150, 232, 255}), image.Point{}, draw.Src)
		text(l, x0+12, y+barH/2, false)
		text(values[i], x1-12, y+barH/2, true)
	}
	bottom := float64(top + 4*pitch + barH)
	return img, quad{{X: x0, Y: top}, {X: x1, Y: top}, {X: x1, Y: bottom}, {X: x0, Y: bottom}}
}

// A phone photo sees the panel at an angle: its quadrilateral is found
// where the monitor put it, and the figures are read off it straightened,
// as they are off the screen itself.
func TestStraightensAPanelSeenAtAnAngle(t *testing.T) {
	values := []string{"4791", "209", "2678", "1.79", "325"}
	menu, bars := statsMenu(values)
	if r, ok := readStatsScreen(menu); !ok || r.Kills != 4791 || r.Deaths != 2678 || r.KD != 1.79 {
		t.Fatalf("the drawn menu itself: %+v", r)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, turn := range []struct{ yaw, pitch, roll float64 }{{25, 8, 3}, {-30, -6, -5}, {18, 14, 8}, {-12, 0, 10}} {
		name := strconv.FormatFloat(turn.yaw, 'f', 0, 64) + "," + strconv.FormatFloat(turn.pitch, 'f', 0, 64) + "," + strconv.FormatFloat(turn.roll, 'f', 0, 64)
		t.Run(name, func(t *testing.T) {
			shot := photos.Shot{W: 2000, H: 1500, Yaw: turn.yaw, Pitch: turn.pitch, Roll: turn.roll, Fill: 0.8, Quality: 90}
			photo, screen := photos.Photo(menu, rng, shot)
			// Where the bars' corners are on the photo.
			h, _ := warp.Between(warp.Corners(1280, 720), screen)
			src := toRGBA(photo)
			ps := findPanels(src)
			if len(ps) == 0 {
				t.Fatal("no panel found")
			}
			q, _, _, ok := panelQuad(src, ps[0])
			if !ok {
				t.Fatal("no quadrilateral")
			}
			for i := range q {
				want := h.Map(bars[i])
				if d := math.Hypot(q[i].X-want.X, q[i].Y-want.Y); d > 4 {
					t.Errorf("corner %d at %.0f,%.0f, want %.0f,%.0f", i, q[i].X, q[i].Y, want.X, want.Y)
				}
			}
			r, ok := readStatsScreen(src)
			readsAll(t, r, ok, values)
		})
	}
}

// A panel photographed large is shrunk before it is straightened, and only
// the part of the photo its canvas is drawn from: the canvas comes out as
// shrinking the whole photo makes it (to a level's rounding), where the
// canvas runs off the photo too, and where drawn at the photo's own size
// it would be too large to draw at all.
func TestALargePanelIsShrunkOnlyWhereItsCanvasLooks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	src := image.NewRGBA(image.Rect(0, 0, 4032, 3024))
	for i := range src.Pix {
		src.Pix[i] = uint8(rng.IntN(256)) // any pixel out of place shows
	}
	for _, c := range []struct {
		name        string
		q           quad
		rowH, pitch float64
	}{
		{"askew, its canvas too large at the photo's size", quad{{X: 1344, Y: 1198}, {X: 2744, Y: 1225}, {X: 2649, Y: 1874}, {X: 1311, Y: 1889}}, 190, 240},
		{"near the photo's top left corner", quad{{X: 101, Y: 53}, {X: 1001, Y: 80}, {X: 983, Y: 702}, {X: 90, Y: 690}}, 150, 180},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := straighten(src, c.q, c.rowH, c.pitch)
			if !ok {
				t.Fatal("not straightened")
			}
			k := int(math.Ceil(c.rowH / maxRowH))
			q := c.q
			for i := range q {
				q[i] = warp.Point{X: q[i].X / float64(k), Y: q[i].Y / float64(k)}
			}
			hm, cw, ch, ok := canvasFor(q, c.rowH/float64(k), c.pitch/float64(k))
			if !ok {
				t.Fatal("no canvas")
			}
			want := image.NewRGBA(image.Rect(0, 0, cw, ch))
			warp.Image(want, shrinkBy(src, k), hm)
			sharpen(want, 1, 2)
			if got.Bounds() != want.Bounds() {
				t.Fatalf("canvas %v, want %v", got.Bounds(), want.Bounds())
			}
			off := 0
			for i := range got.Pix {
				if d := int(got.Pix[i]) - int(want.Pix[i]); d > 1 || d < -1 {
					off++
				}
			}
			if off > 0 {
				t.Errorf("%d of %d levels differ from the whole photo's shrinking", off, len(got.Pix))
			}
		})
	}
	if _, cw, ch, _ := canvasFor(quad{{X: 1344, Y: 1198}, {X: 2744, Y: 1225}, {X: 2649, Y: 1874}, {X: 1311, Y: 1889}}, 190, 240); cw*ch <= maxCanvas {
		t.Errorf("the first case's canvas at the photo's size is %d x %d: not past the limit it should test", cw, ch)
	}
}
