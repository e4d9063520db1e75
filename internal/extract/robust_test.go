package extract_test

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/upload"
)

// readOdd reads data as an upload would be read, with the reader as the
// server makes it, and fails the test unless the answer is a reading or an
// error a player can be shown: a 4xx kind with a message.
func readOdd(t *testing.T, ex core.StatsReader, name string, data []byte) {
	t.Helper()
	img, err := upload.Check(data)
	if err == nil {
		_, err = ex.Read(context.Background(), img, nil)
	}
	if err == nil {
		return
	}
	switch errs.KindOf(err) {
	case errs.Unprocessable, errs.Unsupported, errs.TooLarge, errs.Unavailable:
		if errs.MessageOf(err) == "" {
			t.Errorf("%s: %v without a message", name, err)
		}
	default:
		t.Errorf("%s: %v, want a reading or an error the player is told", name, err)
	}
}

func pngOf(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// inverted is img with every colour turned to its opposite.
func inverted(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(b.Sub(b.Min))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	for i := range out.Pix {
		if i%4 != 3 {
			out.Pix[i] = 255 - out.Pix[i]
		}
	}
	return out
}

// Screens that once crashed the reader (the glyph splitter ran off its
// component on ink a few pixels tall): a clean drawn screen, and every real
// capture with its colours inverted. Each is read, or refused with a
// message.
func TestReaderSurvivesScreensThatCrashedIt(t *testing.T) {
	ex, _ := extract.New(extract.Options{})
	drawn, err := screens.GenerateLayout(354, "rows")
	if err != nil {
		t.Fatal(err)
	}
	readOdd(t, ex, "drawn screen 354 (rows)", pngOf(t, drawn.Image))
	readOdd(t, ex, "drawn screen 354 (rows), inverted", pngOf(t, inverted(drawn.Image)))

	dir := realScreens(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.[pj][np]g"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", dir)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := upload.Check(data)
		if err != nil {
			t.Fatal(err)
		}
		readOdd(t, ex, filepath.Base(f)+", inverted", pngOf(t, inverted(img.Pixels())))
	}
}
