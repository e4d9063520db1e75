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

// Of kills, deaths and K/D, one read while the panel shows the others is
// suspect however clear its reads: blur or glare took its neighbours, and
// the screen's arithmetic cannot check it. Read with the others, it stands.
func TestAFigureReadAloneIsHeld(t *testing.T) {
	shown := map[core.Field]bool{core.FieldKills: true, core.FieldDeaths: true, core.FieldKD: true, core.FieldWins: true}
	alone := panelRead{fields: map[core.Field][]glyphRead{core.FieldKills: reads("46"), core.FieldWins: reads("120")}, shown: shown}
	r := alone.reading()
	if r.Kills != 46 || r.Doubt[core.FieldKills] == "" {
		t.Fatalf("kills read alone: %d, doubts %v", r.Kills, r.Doubt)
	}
	if r.Doubt[core.FieldWins] != "" {
		t.Fatalf("wins held with kills: %v", r.Doubt)
	}
	all := panelRead{fields: map[core.Field][]glyphRead{core.FieldKills: reads("506"), core.FieldDeaths: reads("253"), core.FieldKD: reads("2.00")}, shown: shown}
	if r := all.reading(); len(r.Doubt) != 0 {
		t.Fatalf("kills, deaths and K/D read together held: %v", r.Doubt)
	}
	panelOfOne := panelRead{fields: map[core.Field][]glyphRead{core.FieldKills: reads("46")}, shown: map[core.Field]bool{core.FieldKills: true}}
	if r := panelOfOne.reading(); len(r.Doubt) != 0 {
		t.Fatalf("kills held though the panel showed no deaths or K/D: %v", r.Doubt)
	}
}

// The game's levels start at 1: a badge read as 0 lost a digit.
func TestLevelZeroIsHeld(t *testing.T) {
	pr := panelRead{fields: map[core.Field][]glyphRead{core.FieldLevel: reads("0")}, shown: map[core.Field]bool{}}
	if r := pr.reading(); !r.Has(core.FieldLevel) || r.Doubt[core.FieldLevel] == "" {
		t.Fatalf("level 0: doubts %v", r.Doubt)
	}
}
