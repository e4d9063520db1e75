package extract_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/upload"
)

// testOptions is the offline reader as the tests build it. They check what is
// read, not how fast (benchmarks do that), so a screen may take as long as a
// busy machine needs: the 20 s a player is given would fail them under load.
var testOptions = extract.Options{Timeout: 5 * time.Minute}

// The offline reader on stats screens the test draws itself: every layout
// (rows, tiles, columns, portrait), several fonts, themes and sizes, PNG and
// JPEG with noise; each compared field by field with what was drawn. One
// screen of each layout under go test (Tesseract takes seconds a screen),
// two under EXTRACT_SWEEP.
func TestOCRReadsSyntheticScreens(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract-ocr is not installed (make test installs it)")
	}
	dir := t.TempDir()
	n := len(screens.Layouts)
	if extract.Sweep() {
		n *= 2
	}
	truths, err := screens.WriteScreens(dir, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := extract.New(testOptions)
	if err != nil {
		t.Fatal(err)
	}
	layouts := map[string]bool{}
	doubtful := 0
	for _, tr := range truths {
		layouts[tr.Layout] = true
		t.Run(fmt.Sprintf("%s/%s/%s", tr.Layout, tr.Format, tr.File), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tr.File))
			if err != nil {
				t.Fatal(err)
			}
			img, err := upload.Check(data)
			if err != nil {
				t.Fatal(err)
			}
			read, err := ex.Read(context.Background(), img, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := read.Extracted(nil)
			for _, f := range []struct{ name, got, want string }{
				{"name", got.DiscordUsername, tr.Name}, {"level", got.Level, tr.Level}, {"kills", got.Kills, tr.Kills},
				{"deaths", got.Deaths, tr.Deaths}, {"games", got.TotalGames, tr.TotalGames}, {"sk_id", got.SkID, tr.SkID},
				{"kd", got.KDRatio, tr.KDRatio},
			} {
				// A figure misread is the player's to confirm (rarely: see
				// below), shown as read; never wrong unflagged.
				if _, doubtful := got.Doubtful[f.name]; f.got != f.want && !doubtful {
					t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
				}
			}
			if !read.Sure() {
				doubtful++
				t.Logf("doubtful fields on a clean screen: %v", read.Doubt)
			}
			if len(read.CartImage) == 0 {
				t.Error("no kart cropped")
			}
		})
	}
	// A misread K/D is shown to the player to confirm, never corrected
	// silently; on drawn screens that should be rare.
	if doubtful > len(truths)/10 {
		t.Errorf("%d of %d clean screens had doubtful fields", doubtful, len(truths))
	}
	if len(layouts) != len(screens.Layouts) {
		t.Fatalf("drew layouts %v, want all of %v", layouts, screens.Layouts)
	}
}

func TestCLI(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract-ocr is not installed (make test installs it)")
	}
	dir := t.TempDir()
	truths, _ := screens.WriteScreens(dir, 1, 3)
	ex, _ := extract.New(testOptions)
	var out, errOut bytes.Buffer
	err := extract.RunCLI(context.Background(), ex, []string{filepath.Join(dir, truths[0].File), filepath.Join(dir, "truth.json")},
		&out, &errOut, func() float64 { return 0 })
	if err == nil {
		t.Fatal("a non-image file did not fail the run")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"kills":"`+truths[0].Kills+`"`) ||
		!strings.Contains(lines[1], `"error":"Only PNG, JPEG or WebP images are accepted"`) {
		t.Fatalf("output:\n%s", out.String())
	}
}
