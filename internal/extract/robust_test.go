package extract_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/upload"
)

// readOdd reads data as an upload would be read, with the reader as the
// server makes it, and fails the test unless the answer is a reading or an
// error a player can be shown (a 4xx kind with a message), and not a panic
// the reader's guard caught.
func readOdd(t *testing.T, ex stats.Reader, name string, data []byte) {
	t.Helper()
	img, err := upload.Check(data)
	if err == nil {
		_, err = ex.Read(context.Background(), img, nil)
	}
	if err == nil {
		return
	}
	if p := (*extract.Panic)(nil); errors.As(err, &p) {
		t.Errorf("%s: the reader panicked in %s: %v at %v", name, p.Stage, p.Value, p.At)
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

// Screens that once crashed the reader (the glyph splitter ran off its
// component on ink a few pixels tall): a clean drawn screen, and every real
// capture with its colours inverted (six of them under go test, all
// under EXTRACT_SWEEP). Each is read, or refused with a
// message.
func TestReaderSurvivesScreensThatCrashedIt(t *testing.T) {
	ex, _ := extract.New(testOptions)
	drawn, err := screens.GenerateLayout(354, "rows")
	if err != nil {
		t.Fatal(err)
	}
	readOdd(t, ex, "drawn screen 354 (rows)", photos.PNG(drawn.Image))
	readOdd(t, ex, "drawn screen 354 (rows), inverted", photos.PNG(photos.Invert(drawn.Image)))

	dir := realScreens(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.[pj][np]g"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", dir)
	}
	for _, f := range extract.Sample(files, 6) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := upload.Check(data)
		if err != nil {
			t.Fatal(err)
		}
		readOdd(t, ex, filepath.Base(f)+", inverted", photos.PNG(photos.Invert(img.Pixels())))
	}
}
