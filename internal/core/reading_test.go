package core

import (
	"strings"
	"testing"
)

// reading is a reading of kills, deaths and K/D; a negative value (or K/D)
// is a figure the reader could not read.
func reading(kills, deaths int, kd float64) Reading {
	var r Reading
	if kills >= 0 {
		r.Set(FieldKills, kills)
	}
	if deaths >= 0 {
		r.Set(FieldDeaths, deaths)
	}
	if kd >= 0 {
		r.SetKD(kd)
	}
	return r
}

// The screen's arithmetic (KDR = kills / deaths to two places) works out
// the one figure of the three the reader could not read, and proposes it:
// marked for the player to confirm with where it came from, never sure.
func TestArithmeticProposesTheFigureNotRead(t *testing.T) {
	tests := []struct {
		name  string
		r     Reading
		field Field
		want  string // "" when several values fit: any that agrees
		why   string
	}{
		{"KillsUnderATooltip", reading(-1, 7, 1.57), FieldKills, "11", "worked out from K/D × deaths: please check"},
		{"KillsOfManyDeaths", reading(-1, 2678, 1.79), FieldKills, "", "worked out from K/D × deaths: please check"},
		{"DeathsCut", reading(11, -1, 1.57), FieldDeaths, "7", "worked out from kills ÷ K/D: please check"},
		{"KDBlurred", reading(4791, 2678, -1), FieldKD, "1.79", "worked out from kills ÷ deaths: please check"},
		{"KillsOfNoDeaths", reading(-1, 0, 1500), FieldKills, "1500", "worked out from K/D × deaths: please check"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			r.Check()
			if !r.Has(tc.field) || !r.Proposed[tc.field] || r.Doubt[tc.field] != tc.why || r.Sure() {
				t.Fatalf("%s: has %v, proposed %v, doubt %q, sure %v", tc.field, r.Has(tc.field), r.Proposed, r.Doubt[tc.field], r.Sure())
			}
			if got := r.text(tc.field); tc.want != "" && got != tc.want {
				t.Errorf("%s worked out as %s, want %s", tc.field, got, tc.want)
			}
			if !KDMatches(r.KD, r.Kills, r.Deaths) {
				t.Errorf("the proposal %d / %d = %.2f does not agree", r.Kills, r.Deaths, r.KD)
			}
			if len(r.Doubt) != 1 {
				t.Errorf("doubts beyond the proposal: %v", r.Doubt)
			}
			e := r.Extracted(nil)
			if len(e.Proposed) != 1 || e.Proposed[0] != string(tc.field) || strings.Contains(strings.Join(e.Missing, ","), string(tc.field)) {
				t.Errorf("answer: proposed %v, missing %v", e.Proposed, e.Missing)
			}
			before := r.Doubt[tc.field]
			r.Check() // the upload checks again: nothing changes
			if r.Doubt[tc.field] != before || len(r.Proposed) != 1 {
				t.Errorf("a second check changed the reading: %v %v", r.Doubt, r.Proposed)
			}
		})
	}
	t.Run("NothingFromOneFigure", func(t *testing.T) {
		r := reading(-1, -1, 1.79)
		r.Check()
		if r.Has(FieldKills) || r.Has(FieldDeaths) || len(r.Proposed) != 0 {
			t.Fatalf("worked out from one figure: %+v", r)
		}
	})
	t.Run("NoDeathsFromNoKills", func(t *testing.T) {
		r := reading(0, -1, 0)
		r.Check()
		if r.Has(FieldDeaths) {
			t.Fatalf("deaths worked out from 0 kills at K/D 0: %d", r.Deaths)
		}
	})
}

// Of three figures that disagree, the one at fault is proposed anew from
// the other two, saying what was read: the one a digit away from agreeing,
// or the only one read unsurely. When that does not single one out, all
// three are the player's to check.
func TestArithmeticMarksTheFigureAtFault(t *testing.T) {
	t.Run("KDADigitOff", func(t *testing.T) {
		r := reading(13438, 8390, 1.80)
		r.Check()
		if r.KD != 1.60 || !r.Proposed[FieldKD] || r.Doubt[FieldKD] != "read 1.80, but kills ÷ deaths give 1.60: please check" ||
			len(r.Doubt) != 1 {
			t.Fatalf("K/D %.2f, proposed %v, doubts %v", r.KD, r.Proposed, r.Doubt)
		}
	})
	t.Run("DeathsADigitOff", func(t *testing.T) {
		r := reading(13438, 8890, 1.60) // 8390 with its 3 read as an 8
		r.Check()
		if r.Deaths != 8390 || !r.Proposed[FieldDeaths] || len(r.Doubt) != 1 {
			t.Fatalf("deaths %d, proposed %v, doubts %v", r.Deaths, r.Proposed, r.Doubt)
		}
	})
	t.Run("OnlyUnsureRead", func(t *testing.T) {
		r := reading(26288, 7, 1.57) // a tooltip's number read over the Kills row
		r.SetConfidence(FieldKills, 0.2)
		r.SetConfidence(FieldDeaths, 0.9)
		r.SetConfidence(FieldKD, 1)
		r.Check()
		if r.Kills != 11 || r.Doubt[FieldKills] != "read 26288, but K/D × deaths give 11: please check" || len(r.Doubt) != 1 {
			t.Fatalf("kills %d, doubts %v", r.Kills, r.Doubt)
		}
		if _, ok := r.Confidence[FieldKills]; ok {
			t.Error("a worked-out figure keeps the reader's sureness")
		}
	})
	t.Run("NoneSingledOut", func(t *testing.T) {
		r := reading(737, 8390, 1.60)
		r.Check()
		if r.Kills != 737 || r.Deaths != 8390 || r.KD != 1.60 || len(r.Proposed) != 0 {
			t.Fatalf("changed: %+v", r)
		}
		for _, f := range []Field{FieldKills, FieldDeaths, FieldKD} {
			if r.Doubt[f] != "K/D 1.60 does not match kills / deaths" {
				t.Errorf("%s: doubt %q", f, r.Doubt[f])
			}
		}
		// The answer shows the K/D read, not one worked out from the
		// kills and deaths it disagrees with.
		if e := r.Extracted(nil); e.KDRatio != "1.60" {
			t.Errorf("the answer's K/D is %s, want the 1.60 read", e.KDRatio)
		}
	})
	t.Run("SeveralADigitOff", func(t *testing.T) {
		// K/D 1.77 for 4791 / 2678 (1.79): K/D 1.79 would agree, and so
		// would 4751 kills.
		r := reading(4791, 2678, 1.77)
		r.Check()
		if len(r.Proposed) != 0 || len(r.Doubt) != 3 {
			t.Fatalf("proposed %v, doubts %v", r.Proposed, r.Doubt)
		}
	})
}

func TestOneEdit(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"2678", "2618", true}, {"2678", "278", true}, {"278", "2678", true}, {"1.79", "1.79", true}, {"2678", "2167", false}, {"", "1", true}, {"12", "1234", false}} {
		if got := oneEdit(c.a, c.b); got != c.want {
			t.Errorf("oneEdit(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// The figures of one screenshot stand or fall together: beside a figure in
// doubt, or on a photo, a figure read unclearly is held; after a misread
// the arithmetic caught, the figures it cannot check are held too.
func TestFiguresOfAHardScreenshotStandTogether(t *testing.T) {
	// A screen whose kills, deaths and K/D agree and read clearly, plus
	// one more figure read at confidence c.
	screen := func(f Field, v int, c float64) Reading {
		r := reading(4791, 2678, 1.79)
		for _, g := range []Field{FieldKills, FieldDeaths, FieldKD} {
			r.SetConfidence(g, 0.9)
		}
		r.Set(f, v)
		r.SetConfidence(f, c)
		return r
	}
	t.Run("an unclear figure on a clean screen stands", func(t *testing.T) {
		r := screen(FieldBotsKills, 153, 0.6)
		r.Check()
		if len(r.Doubt) != 0 || !r.Sure() {
			t.Fatalf("doubts %v", r.Doubt)
		}
	})
	t.Run("beside a figure in doubt it is held", func(t *testing.T) {
		r := screen(FieldBotsKills, 753, 0.6)
		r.Set(FieldLevel, 12)
		r.SetConfidence(FieldLevel, 0.9)
		r.Doubts(FieldWins, "hard to read on the screenshot")
		r.Check()
		if r.Doubt[FieldBotsKills] == "" || r.Doubt[FieldLevel] != "" || r.Doubt[FieldKills] != "" {
			t.Fatalf("doubts %v", r.Doubt)
		}
	})
	t.Run("on a photo it is held", func(t *testing.T) {
		r := screen(FieldWins, 471, 0.64)
		r.Photo = true
		r.Check()
		if len(r.Doubt) != 1 || r.Doubt[FieldWins] == "" {
			t.Fatalf("doubts %v", r.Doubt)
		}
	})
	t.Run("after a misread the arithmetic caught, the level is held however clear", func(t *testing.T) {
		r := reading(7191, 973, 1.22)
		r.Set(FieldLevel, 1)
		r.SetConfidence(FieldLevel, 0.97)
		r.Check()
		if !r.Proposed[FieldKills] || r.Kills != 1191 || r.Doubt[FieldLevel] == "" || r.Doubt[FieldDeaths] != "" {
			t.Fatalf("kills %d proposed %v doubts %v", r.Kills, r.Proposed, r.Doubt)
		}
	})
	t.Run("a figure under a tooltip proposed, an unclear one beside it held", func(t *testing.T) {
		r := reading(61, 4909, 1.47)
		r.SetConfidence(FieldKills, 0.5)
		r.SetConfidence(FieldDeaths, 0.76)
		r.SetConfidence(FieldKD, 0.4)
		r.Check()
		if r.Doubt[FieldKills] == "" {
			t.Fatalf("kills 61 kept: doubts %v", r.Doubt)
		}
	})
}
