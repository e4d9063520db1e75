package extract

import (
	"testing"

	"github.com/pitlane/pitlane/internal/core"
)

// What Tesseract reads is saved unheld only where kills, deaths and K/D
// can check one another: two of them at least.
func TestTesseractFiguresUncheckedAreHeld(t *testing.T) {
	var alone core.Reading
	alone.Set(core.FieldKills, 12)
	alone.Set(core.FieldWins, 8)
	holdUnchecked(&alone)
	for _, f := range []core.Field{core.FieldKills, core.FieldWins} {
		if _, held := alone.Doubt[f]; !held {
			t.Errorf("kills read alone: %s not held", f)
		}
	}

	var checked core.Reading
	checked.Set(core.FieldKills, 120)
	checked.Set(core.FieldDeaths, 60)
	checked.Set(core.FieldWins, 8)
	holdUnchecked(&checked)
	if len(checked.Doubt) != 0 {
		t.Errorf("kills and deaths read: held %v", checked.Doubt)
	}
}
