package extract

import (
	"testing"

	"github.com/pitlane/pitlane/internal/core"
)

// reads is one read per ink cut, all spelling text, matched surely.
func reads(text string) []glyphRead {
	out := make([]glyphRead, len(inkCuts))
	for i := range out {
		out[i] = glyphRead{text: text, sure: 0.9}
	}
	return out
}

// A panel that lost two or more of the figures every build shows (blur or
// glare took their digits, their label or their bar) holds every figure
// read beside them, however clear: the blur that took those may have taken
// a digit of these, and kills, deaths and K/D no longer check one another. One lost (under a tooltip) holds nothing.
func TestAPanelThatLostItsFiguresIsHeld(t *testing.T) {
	broken := panelRead{fields: map[core.Field][]glyphRead{core.FieldDeaths: reads("77"), core.FieldWins: reads("4"), core.FieldLevel: reads("15")}}
	r := broken.reading()
	for _, f := range []core.Field{core.FieldDeaths, core.FieldWins, core.FieldLevel} {
		if !r.Has(f) || r.Doubt[f] == "" {
			t.Errorf("%s read beside lost figures: doubts %v", f, r.Doubt)
		}
	}
	tooltip := panelRead{fields: map[core.Field][]glyphRead{core.FieldBotsKills: reads("191"), core.FieldDeaths: reads("253"), core.FieldKD: reads("2.00"), core.FieldWins: reads("120")}}
	if r := tooltip.reading(); len(r.Doubt) != 0 {
		t.Fatalf("one figure lost held the others: %v", r.Doubt)
	}
	all := panelRead{fields: map[core.Field][]glyphRead{core.FieldKills: reads("506"), core.FieldBotsKills: reads("191"), core.FieldDeaths: reads("253"), core.FieldKD: reads("2.00"), core.FieldWins: reads("120")}}
	if r := all.reading(); len(r.Doubt) != 0 {
		t.Fatalf("a panel read whole held: %v", r.Doubt)
	}
}

// The game's levels start at 1: a badge read as 0 lost a digit.
func TestLevelZeroIsHeld(t *testing.T) {
	for level, held := range map[string]bool{"0": true, "1": false, "22": false} {
		pr := panelRead{fields: map[core.Field][]glyphRead{core.FieldLevel: reads(level), core.FieldKills: reads("506"),
			core.FieldBotsKills: reads("191"), core.FieldDeaths: reads("253"), core.FieldKD: reads("2.00"), core.FieldWins: reads("120")}}
		if r := pr.reading(); !r.Has(core.FieldLevel) || (r.Doubt[core.FieldLevel] != "") != held {
			t.Errorf("level %s: doubts %v", level, r.Doubt)
		}
	}
}

// Each figure is read once more at another size: one that reads otherwise
// there (a 5 blur makes a 6 at one size) is held, one that reads the same,
// or not at all, stands on its reads.
func TestAFigureReadDifferentlyAtAnotherSizeIsHeld(t *testing.T) {
	pr := panelRead{
		fields: map[core.Field][]glyphRead{core.FieldKills: reads("506"), core.FieldBotsKills: reads("246"), core.FieldDeaths: reads("253"),
			core.FieldKD: reads("2.00"), core.FieldWins: reads("120"), core.FieldLevel: reads("31")},
		checks: map[core.Field]string{core.FieldBotsKills: "245", core.FieldWins: "120", core.FieldLevel: ""},
	}
	r := pr.reading()
	if r.BotsKills != 246 || r.Doubt[core.FieldBotsKills] == "" {
		t.Fatalf("bots' kills read 246 and 245: %d, doubts %v", r.BotsKills, r.Doubt)
	}
	if r.Doubt[core.FieldWins] != "" || r.Doubt[core.FieldLevel] != "" {
		t.Fatalf("a figure read alike, or not checked, held: %v", r.Doubt)
	}
}
