package extract

import (
	"slices"
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

// The game writes its figures flush right: on a panel whose figures end
// unevenly (a photo straightened askew), one whose ink reaches the end of
// its box may have lost its last digit to it and is held; on a panel whose
// figures end together, one reaching its box's end is not.
func TestAFigureCutByItsBoxOnAPanelNotFlushIsHeld(t *testing.T) {
	fields := map[core.Field][]glyphRead{core.FieldKills: reads("1054"), core.FieldBotsKills: reads("11"),
		core.FieldDeaths: reads("666"), core.FieldKD: reads("1.58"), core.FieldWins: reads("41")}
	askew := panelRead{fields: fields, ends: map[core.Field]endGap{core.FieldKills: {41, 96}, core.FieldBotsKills: {25, 100},
		core.FieldDeaths: {10, 103}, core.FieldKD: {0, 110}, core.FieldWins: {0, 113}}}
	r := askew.reading()
	for f, held := range map[core.Field]bool{core.FieldKD: true, core.FieldWins: true, core.FieldKills: false, core.FieldDeaths: false} {
		if (r.Doubt[f] != "") != held {
			t.Errorf("askew panel, %s: doubts %v", f, r.Doubt)
		}
	}
	flush := panelRead{fields: fields, ends: map[core.Field]endGap{core.FieldKills: {3, 50}, core.FieldBotsKills: {2, 50},
		core.FieldDeaths: {3, 50}, core.FieldKD: {1, 50}, core.FieldWins: {0, 50}}}
	if r := flush.reading(); len(r.Doubt) != 0 {
		t.Errorf("a flush panel held: %v", r.Doubt)
	}
}

// A value every cut reads alike is held when no read was sure of its
// worst glyph: the cuts of one blurred glyph agree on a coin toss (a 7
// shaped as a 2 at every cut). The same reads, a little surer, stand.
func TestAValueReadAlikeButNeverSurelyIsHeld(t *testing.T) {
	unsure := func(text string, sure float64) []glyphRead {
		out := reads(text)
		for i := range out {
			out[i].sure = sure
		}
		return out
	}
	for sure, held := range map[float64]bool{0: true, leastSure / 2: true, 2 * leastSure: false} {
		pr := panelRead{fields: map[core.Field][]glyphRead{core.FieldKills: reads("66666"), core.FieldBotsKills: reads("940"),
			core.FieldDeaths: unsure("32228", sure), core.FieldKD: reads("2.07"), core.FieldWins: reads("4971")}}
		r := pr.reading()
		if r.Deaths != 32228 || (r.Doubt[core.FieldDeaths] != "") != held {
			t.Errorf("deaths read alike at sureness %.3f: %d, doubts %v", sure, r.Deaths, r.Doubt)
		}
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

// The game's panel shows kills ÷ deaths rounded to two places: a K/D a
// hundredth off, which the core lets pass for screens that truncate, holds
// the three read off the panel.
func TestAKDAHundredthOffTheRoundingIsHeld(t *testing.T) {
	for _, c := range []struct {
		kd            float64
		kills, deaths int
		shown         bool
	}{
		{1.36, 10063, 7389, true}, {1.36, 10003, 7389, false}, {1.35, 10063, 7389, false},
		{0.5, 1, 2, true}, {0.67, 2, 3, true}, {0.66, 2, 3, false}, {7, 7, 0, true},
	} {
		if got := panelKD(c.kd, c.kills, c.deaths); got != c.shown {
			t.Errorf("K/D %.2f beside %d kills and %d deaths: shown %v, want %v", c.kd, c.kills, c.deaths, got, c.shown)
		}
	}
	for _, c := range []struct {
		kills, deaths int
		kd            float64
		held          int
	}{{10003, 7389, 1.36, 3}, {10063, 7389, 1.36, 0}} {
		var r core.Reading
		r.Set(core.FieldKills, c.kills)
		r.Set(core.FieldDeaths, c.deaths)
		r.SetKD(c.kd)
		roundsOff(&r)
		if len(r.Doubt) != c.held {
			t.Errorf("%d, %d and %.2f: held %v, want %d held", c.kills, c.deaths, c.kd, r.Doubt, c.held)
		}
	}
}

// The bars take the game's labels in the game's order: a label blurred a
// little past a match between Kills and Deaths is still Bots Kills, a Wins
// that looks a little more like Games is Wins (Games never comes without
// it), and a crop that starts at Deaths skips Kills and Bots Kills freely.
func TestBarsTakeTheLabelsInTheGamesOrder(t *testing.T) {
	const no = 0.95 // a label that is plainly not this one
	row := func(c map[core.Field]float64) []float64 {
		out := make([]float64, len(panelSlots))
		for j, s := range panelSlots {
			out[j] = no
			if v, ok := c[s.field]; ok {
				out[j] = v
			}
		}
		return out
	}
	for _, c := range []struct {
		name  string
		costs [][]float64
		want  []int
	}{
		{"bots' kills blurred", [][]float64{
			row(map[core.Field]float64{core.FieldKills: 0.43}),
			row(map[core.Field]float64{core.FieldBotsKills: 0.47, core.FieldDeaths: 0.35}),
			row(map[core.Field]float64{core.FieldDeaths: 0.28}),
			row(map[core.Field]float64{core.FieldKD: 0.21}),
			row(map[core.Field]float64{core.FieldWins: 0.31}),
		}, []int{0, 1, 2, 3, 4}},
		{"wins like games", [][]float64{
			row(map[core.Field]float64{core.FieldKills: 0.21}),
			row(map[core.Field]float64{core.FieldBotsKills: 0.41}),
			row(map[core.Field]float64{core.FieldDeaths: 0.29}),
			row(map[core.Field]float64{core.FieldKD: 0.24}),
			row(map[core.Field]float64{core.FieldWins: 0.39, core.FieldGames: 0.38}),
		}, []int{0, 1, 2, 3, 4}},
		{"cropped from deaths", [][]float64{
			row(map[core.Field]float64{core.FieldDeaths: 0.23}),
			row(map[core.Field]float64{core.FieldKD: 0.24}),
			row(map[core.Field]float64{core.FieldWins: 0.34}),
		}, []int{2, 3, 4}},
		{"a build with games", [][]float64{
			row(map[core.Field]float64{core.FieldKills: 0.2}),
			row(map[core.Field]float64{core.FieldBotsKills: 0.3}),
			row(map[core.Field]float64{core.FieldDeaths: 0.2}),
			row(map[core.Field]float64{core.FieldKD: 0.2}),
			row(map[core.Field]float64{core.FieldWins: 0.3}),
			row(map[core.Field]float64{core.FieldGames: 0.3}),
		}, []int{0, 1, 2, 3, 4, 5}},
		{"kills blurred over bots' kills", [][]float64{
			row(map[core.Field]float64{core.FieldKills: 0.4525, core.FieldKD: 0.47}),
			row(map[core.Field]float64{core.FieldBotsKills: 0.43, core.FieldDeaths: 0.43}),
			row(map[core.Field]float64{core.FieldDeaths: 0.36}),
			row(map[core.Field]float64{core.FieldKD: 0.38}),
			row(map[core.Field]float64{core.FieldWins: 0.46}),
		}, []int{0, 1, 2, 3, 4}},
		{"wins blurred under the K/D", [][]float64{
			row(map[core.Field]float64{core.FieldDeaths: 0.36}),
			row(map[core.Field]float64{core.FieldKD: 0.38}),
			row(map[core.Field]float64{core.FieldWins: 0.46, core.FieldGames: 0.5}),
		}, []int{2, 3, 4}},
		{"a stray bar over a crop", [][]float64{
			row(nil),
			row(map[core.Field]float64{core.FieldBotsKills: 0.3}),
			row(map[core.Field]float64{core.FieldDeaths: 0.2}),
		}, []int{-1, 1, 2}},
		{"a stray bar", [][]float64{
			row(nil),
			row(map[core.Field]float64{core.FieldKills: 0.2}),
			row(map[core.Field]float64{core.FieldBotsKills: 0.3}),
			row(map[core.Field]float64{core.FieldDeaths: 0.2}),
		}, []int{-1, 0, 1, 2}},
	} {
		if got := alignSlots(c.costs); !slices.Equal(got, c.want) {
			t.Errorf("%s: slots %v, want %v", c.name, got, c.want)
		}
	}
}
