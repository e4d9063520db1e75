package extract

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/upload"
)

// A tooltip over the Kills bar's figure: its box is found and painted
// over, the other bars read as without it, and kills is not read (neither
// the tooltip's text nor the digits peeking out beside it) but proposed by
// the screen's arithmetic, for the player to confirm.
func TestTooltipHidesOneFigureOnly(t *testing.T) {
	values := []string{"4791", "209", "2678", "1.79", "325"}
	for _, at := range []struct {
		name string
		x, y int // the tooltip's top left corner
		bar  int // the bar whose figure it hides, -1: none
	}{
		{"over kills", 340, 196 + 10, 0},
		{"over deaths", 330, 196 + 2*62 + 8, 2},
		{"beside the figure of wins", 200, 196 + 4*62 + 12, -1},
	} {
		t.Run(at.name, func(t *testing.T) {
			menu, _ := statsMenu(values)
			clean := statsPanel(t, menu)
			photos.Tooltip(menu, image.Pt(at.x, at.y), "26,288", 40)
			tips := findTooltips(menu, clean)
			if len(tips) != 1 || at.bar >= 0 && (len(tips[0].rows) != 1 || tips[0].rows[0] != at.bar) || at.bar < 0 && len(tips[0].rows) != 0 {
				t.Fatalf("tooltips found: %+v", tips)
			}
			r, ok := readStatsScreen(menu)
			if !ok {
				t.Fatal("not read")
			}
			hidden := core.Field("")
			if at.bar >= 0 {
				hidden = []core.Field{core.FieldKills, core.FieldBotsKills, core.FieldDeaths, core.FieldKD, core.FieldWins}[at.bar]
			}
			if hidden != "" && r.Has(hidden) || r.Photo {
				t.Fatalf("the hidden figure was read (%+v) or the panel taken for a photo", r)
			}
			r.Check()
			if at.bar == 0 && (!r.Proposed[core.FieldKills] || r.Sure() || r.Kills < 4780 || r.Kills > 4807) {
				t.Fatalf("kills not proposed from K/D × deaths: %+v", r)
			}
			got := map[core.Field]int{core.FieldBotsKills: r.BotsKills, core.FieldDeaths: r.Deaths, core.FieldWins: r.Wins}
			for f, want := range map[core.Field]int{core.FieldBotsKills: 209, core.FieldDeaths: 2678, core.FieldWins: 325} {
				if f != hidden && (!r.Has(f) || got[f] != want) {
					t.Errorf("%s read %d, shown %d", f, got[f], want)
				}
			}
		})
	}
	// The clean menu has no tooltip: white figures are not a box.
	menu, _ := statsMenu(values)
	if tips := findTooltips(menu, statsPanel(t, menu)); len(tips) != 0 {
		t.Fatalf("tooltips on a clean menu: %+v", tips)
	}
}

// statsPanel is the stack of bars on img read as the Stats panel.
func statsPanel(t *testing.T, img *image.RGBA) panel {
	for _, p := range findPanels(img) {
		if _, ok := readPanel(img, p); ok {
			return p
		}
	}
	t.Fatal("no Stats panel")
	return panel{}
}

// On a photo, a bar's upright box takes in what lies beside the tilted
// panel: on a simulated phone photo of a tight crop, the desk past the
// panel's corner passed for a dark tooltip over Wins, and the patch painted
// upright over the tilted bar covered the first digit of its 121, which
// was read, surely, as 21. A panel askew is straightened from the photo's
// own pixels, its tooltips looked for on the straight canvas.
func TestNoTooltipIsPaintedOverATiltedPanel(t *testing.T) {
	dir := realScreensDir()
	if dir == "" {
		t.Skip("the real development set is not here (REAL_SCREENS)")
	}
	data, err := os.ReadFile(filepath.Join(dir, "DarkWarrior1234.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := upload.Check(data)
	if err != nil {
		t.Fatal(err)
	}
	_, enc, ok := simulateSeeded(photos.RGBA(upright(data, img.Pixels())), "DarkWarrior1234.png", "phone-2000", 9)
	if !ok {
		t.Fatal("no photo")
	}
	photo, err := jpeg.Decode(bytes.NewReader(enc))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := readStatsScreen(photo)
	if !ok {
		t.Fatal("not read")
	}
	if _, held := r.Doubt[core.FieldWins]; !r.Has(core.FieldWins) || r.Wins != 121 && !held {
		t.Fatalf("wins read %d (found %v), shown 121, not held: %+v", r.Wins, r.Has(core.FieldWins), r.Doubt)
	}
}
