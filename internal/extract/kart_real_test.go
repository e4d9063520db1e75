package extract_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/pitlane/pitlane/internal/extract"
)

// On the game's menu the reader cuts the player's kart out: of the 70 real
// captures, the 51 that show a kart (checked by eye on the contact sheet:
// 46 whole, 5 cut by the capture's own edge or blurred) give one, and a
// capture of the Stats panel alone gives none. Each is mostly kart, not the
// dark it is set on. With KART_SHEET=dir it also writes every kart and a
// contact sheet of them (sheet.png, in file-name order) there. Under go
// test it reads the seven captures named below, and every capture under
// EXTRACT_SWEEP or KART_SHEET (make bench-extract).
func TestKartOnRealCaptures(t *testing.T) {
	dir := realScreens(t)
	ex, files := readerAndCaptures(t, shown(t, dir))
	out := os.Getenv("KART_SHEET")
	kart := []string{"Allen.png", "Corpse.png", "Rottweiler.png", "Muttley.jpg"}
	none := []string{"Rafayute.png", "FrankEpic.png", "Sub2PewDiePie.png"}
	all := extract.Sweep() || out != ""
	if !all {
		files = append(slices.Clone(kart), none...)
	}
	const cell = 160
	var karts []image.Image
	var names []string
	for _, f := range files {
		r, err := readCapture(t, ex, dir, f)
		if err != nil || len(r.CartImage) == 0 {
			continue
		}
		k, err := png.Decode(bytes.NewReader(r.CartImage))
		if err != nil {
			t.Fatalf("%s: the kart is not a PNG: %v", f, err)
		}
		if share := lit(k); share < 0.2 {
			t.Errorf("%s: only %.0f%% of the kart's picture is not the dark it is set on", f, 100*share)
		}
		karts, names = append(karts, k), append(names, f)
		if out != "" {
			_ = os.WriteFile(filepath.Join(out, f+".kart.png"), r.CartImage, 0o644)
		}
	}
	t.Logf("karts cut out of %d of %d captures: %v", len(karts), len(files), names)
	if all && len(karts) < 48 {
		t.Errorf("karts cut out of %d captures, want the 51 that show one (48 at least)", len(karts))
	}
	for _, f := range kart {
		if !slices.Contains(names, f) {
			t.Errorf("%s shows a kart, none was cut out", f)
		}
	}
	for _, f := range none {
		if slices.Contains(names, f) {
			t.Errorf("%s shows no kart (or a sliver of one), yet one was cut out", f)
		}
	}
	if out != "" && len(karts) > 0 {
		cols := 8
		sheet := image.NewRGBA(image.Rect(0, 0, cols*cell, (len(karts)+cols-1)/cols*cell))
		for i, k := range karts {
			at := image.Rect(i%cols*cell, i/cols*cell, i%cols*cell+cell, i/cols*cell+cell)
			xdraw.ApproxBiLinear.Scale(sheet, at.Inset(4), k, k.Bounds(), draw.Src, nil)
		}
		f, err := os.Create(filepath.Join(out, "sheet.png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, sheet); err != nil {
			t.Fatal(err)
		}
	}
}

// lit is the share of img's pixels that are not the dark a kart is set on
// (#1A1A1A).
func lit(img image.Image) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if d := max(diff(r>>8, 0x1A), diff(g>>8, 0x1A), diff(bl>>8, 0x1A)); d > 6 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
