package extract

import (
	"image"
	"image/draw"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/extract/warp"
	"github.com/pitlane/pitlane/internal/upload"
	xdraw "golang.org/x/image/draw"
)

// readsAll fails t for each of the five figures r did not read as shown.
func readsAll(t *testing.T, r core.Reading, ok bool, values []string) {
	t.Helper()
	got := []string{strconv.Itoa(r.Kills), strconv.Itoa(r.BotsKills), strconv.Itoa(r.Deaths), strconv.FormatFloat(r.KD, 'f', 2, 64), strconv.Itoa(r.Wins)}
	for i, f := range mainFigures {
		if !ok || !r.Has(f) || got[i] != values[i] {
			t.Errorf("%s read %s (found %v), shown %s", f, got[i], r.Has(f), values[i])
		}
	}
}

// cropOf is the part r of img, as an image of its own.
func cropOf(img *image.RGBA, r image.Rectangle) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// A screenshot cropped through the labels, their first letters cut short,
// is still the Stats panel: its labels match the game's cut as the crop
// cut them.
func TestReadsAPanelCroppedThroughItsLabels(t *testing.T) {
	values := []string{"19955", "5315", "10599", "1.88", "1354"}
	menu, _ := statsMenu(values)
	for _, left := range []int{90, 92, 94} { // the labels start at 88
		t.Run(strconv.Itoa(left), func(t *testing.T) {
			r, ok := readStatsScreen(cropOf(menu, image.Rect(left, 196, 404, 506)))
			readsAll(t, r, ok, values)
		})
	}
}

// A phone photo taken close, the panel filling it (bars 150 px and more
// tall), is straightened onto a canvas whose bars are at most maxRowH
// tall (shrunk first by a whole factor, averaging, so the warp does not
// alias the screen's grain into stripes), and read right off it.
func TestStraightensAPanelPhotographedCloseOntoASmallCanvas(t *testing.T) {
	values := []string{"4053", "715", "2953", "1.37", "263"}
	menu, _ := statsMenu(values)
	panel := cropOf(menu, image.Rect(60, 180, 420, 520))
	rng := rand.New(rand.NewPCG(3, 3))
	for i, turn := range []struct{ yaw, pitch, roll float64 }{{20, 6, 4}, {-15, -8, -6}} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			shot := photos.Shot{W: 2000, H: 1500, Yaw: turn.yaw, Pitch: turn.pitch, Roll: turn.roll, Fill: 0.9, Moire: 0.1, Grain: 6, Quality: 85}
			photo, _ := photos.Photo(panel, rng, shot)
			ps := findPanels(photo)
			if len(ps) == 0 {
				t.Fatal("no panel found")
			}
			q, rowH, pitch, ok := panelQuad(photo, ps[0])
			if !ok || rowH < 2*maxRowH {
				t.Fatalf("quadrilateral %v, bars %.0f px tall: not a close-up", ok, rowH)
			}
			canvas, ok := straighten(photo, q, rowH, pitch)
			if !ok {
				t.Fatal("not straightened")
			}
			cps := findPanels(canvas)
			if len(cps) == 0 {
				t.Fatal("no panel on the canvas")
			}
			for _, r := range cps[0].rows {
				if r.Dy() > maxRowH*5/4 { // a bar's rows and its antialiased edges
					t.Errorf("a bar %d px tall on the canvas, want at most %d", r.Dy(), maxRowH)
				}
			}
			r, ok := readStatsScreen(photo)
			readsAll(t, r, ok, values)
		})
	}
}

// A straightened canvas carries the photographed screen's pixel grid as
// fine dark stripes across the bars. Sampled down to the detection's
// scale they alias into bands that cut every bar, and a panel plain to the
// eye was not found (a 4032 px photo's canvas); averaged down first, its
// five bars are found and read.
func TestACanvasStripedByTheScreensGridIsRead(t *testing.T) {
	values := []string{"42539", "357", "15744", "2.70", "2905"}
	menu, _ := statsMenu(values)
	canvas := image.NewRGBA(image.Rect(0, 0, 2*1280, 2*720))
	xdraw.CatmullRom.Scale(canvas, canvas.Bounds(), menu, menu.Bounds(), xdraw.Src, nil)
	for y := 0; y < canvas.Bounds().Dy(); y += 4 { // a dark row and a half in every four
		for x := 0; x < canvas.Bounds().Dx(); x++ {
			for dy, dark := range []float64{50, 25} {
				o := canvas.PixOffset(x, y+dy)
				for c := range 3 {
					canvas.Pix[o+c] = uint8(max(0, float64(canvas.Pix[o+c])-dark))
				}
			}
		}
	}
	ps := findPanelsOnCanvas(canvas, detectSide)
	if len(ps) == 0 || len(ps[0].rows) != len(values) {
		t.Fatalf("panels %d, want the five bars", len(ps))
	}
	c, ok := readPanels(canvas, detectSide, false)
	readsAll(t, c.r, ok, values)
}

// Bars a dozen pixels tall blur into the panel's border at their ends: a
// quadrilateral traced through them (measured on a menu shrunk to 415 px)
// is far longer than a bar and is not taken for a panel seen askew; the
// bars of a panel at an angle are.
func TestAQuadrilateralFarLongerThanABarIsNoPanel(t *testing.T) {
	pt := func(x, y float64) warp.Point { return warp.Point{X: x, Y: y} }
	tracedLong := quad{pt(5, 70.9), pt(218.7, 71.1), pt(172, 144), pt(5, 144)}
	if !tracedPast(tracedLong, 12) {
		t.Error("a quadrilateral 16 bars long taken for a panel")
	}
	askew := quad{pt(761, 1186), pt(2056, 1398), pt(1974, 2553), pt(646, 2530)}
	if tracedPast(askew, 234) {
		t.Error("a panel photographed at an angle (bars 5.7 times as long as tall) refused")
	}
}

// Of the stacks of bars on a screen, the reading with the most figures is
// kept, whichever stack came first: bars the text's own strokes made give a
// figure or two of nonsense.
func TestTheFullestReadingOfAScreensStacksIsKept(t *testing.T) {
	var stray, panel core.Reading
	stray.Set(core.FieldDeaths, 4)
	for _, f := range mainFigures {
		panel.Set(f, 10)
		panel.Doubts(f, "hard to read on the screenshot")
	}
	panel.SetKD(1)
	if !fuller(panel, stray) || fuller(stray, panel) {
		t.Error("one figure kept over five")
	}
	if !whole(panel) || whole(stray) {
		t.Error("whole: every figure every build shows")
	}
	sure := panel
	sure.Doubt = nil
	if !fuller(sure, panel) {
		t.Error("as many figures: the surer not kept")
	}
}

// Bots' kills and wins, which no arithmetic checks, read clearly off small
// bars are drawn again: a read the drawing does not bear out (246 where
// the screen shows 245) is held for the player; one it bears out is not.
func TestAClearReadTheDrawingDoesNotBearOutIsHeld(t *testing.T) {
	values := []string{"3195", "245", "2168", "1.47", "148"}
	menu, _ := statsMenu(values)
	small := image.NewRGBA(image.Rect(0, 0, 768, 432))
	xdraw.CatmullRom.Scale(small, small.Bounds(), menu, menu.Bounds(), draw.Src, nil)
	ps := findPanels(small)
	if len(ps) == 0 {
		t.Fatal("no panel")
	}
	pr, ok := readPanel(small, ps[0])
	if !ok || pr.boxes[core.FieldBotsKills].box.Dy() > smallBar {
		t.Fatalf("read %v, bots' kills box %v: not small bars", ok, pr.boxes[core.FieldBotsKills].box)
	}
	r := pr.reading()
	readsAll(t, r, true, values)
	if len(r.Doubt) != 0 {
		t.Fatalf("held as read: %v", r.Doubt)
	}
	pr.holdDrawnOtherwise(&r)
	if len(r.Doubt) != 0 {
		t.Errorf("the figures as shown held: %v", r.Doubt)
	}
	misread := cloneReading(r)
	misread.Set(core.FieldBotsKills, 246)
	pr.holdDrawnOtherwise(&misread)
	if _, held := misread.Doubt[core.FieldBotsKills]; !held {
		t.Error("bots' kills read 246 where 245 is shown: not held")
	}
}

// A phone held upright and aimed at the Stats panel on part of a monitor,
// a keyboard on the desk in front of it (photos.Portrait): the keys'
// columns are ladders as steady as the panel's bars, but square, and are
// not taken for the panel (minBarAspect); the panel is found where it is
// and read, stored sideways with its EXIF orientation or not.
func TestReadsAPortraitPhotoOfPartOfAMonitor(t *testing.T) {
	values := []string{"19955", "5315", "10599", "1.88", "1354"}
	menu, _ := statsMenu(values)
	pn, ok := simPanel(menu)
	if !ok {
		t.Fatal("no panel on the drawn menu")
	}
	area := image.Rectangle{Min: pn.rows[0].Min, Max: pn.rows[len(pn.rows)-1].Max}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			enc, shot, _ := photos.Portrait(menu, rand.New(rand.NewPCG(seed, 57)), area, pn.rows[1].Min.Y-pn.rows[0].Min.Y)
			img, err := upload.Check(enc)
			if err != nil {
				t.Fatal(err)
			}
			r, ok := readStatsScreen(upright(enc, img.Pixels()))
			t.Logf("%dx%d, turned %.0f° %.0f°, panel aimed at %.2f %.2f", shot.W, shot.H, shot.Yaw, shot.Pitch, shot.Aim[2], shot.Aim[3])
			readsAll(t, r, ok, values)
		})
	}
}
