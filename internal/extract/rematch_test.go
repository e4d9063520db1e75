package extract

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
)

// scaleFmap resamples m by fx across and fy down.
func scaleFmap(m fmap, fx, fy float64) fmap {
	w, h := int(float64(m.w)*fx), int(float64(m.h)*fy)
	out := fmap{w: w, h: h, pix: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			out.pix[y*w+x] = bilinear(m, (float64(x)+0.5)/fx-0.5, (float64(y)+0.5)/fy-0.5)
		}
	}
	return out
}

// photographed draws text as a blurred photo of the game shows it: the
// digits wider than the typeface's, about 15 px tall, a label far to the
// left, grain over all.
func photographed(text string, sigma float64, seed uint64) fmap {
	pix, w, h := synthFaces()[0].blurred(sigma).draw(text)
	fig := fmap{w: w, h: h, pix: pix}
	m := fmap{w: w + 120, h: h, pix: make([]float32, (w+120)*h)}
	for y := range h {
		copy(m.pix[y*m.w+110:], fig.pix[y*w:(y+1)*w])
		for x := 10; x < 40; x++ { // the label
			if y > synthPad && y < synthPad+synthH {
				m.pix[y*m.w+x] = 1
			}
		}
	}
	m = scaleFmap(m, 0.7, 0.62)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range m.pix {
		m.pix[i] = min(1, max(0, m.pix[i]+float32(rng.NormFloat64()*0.06)))
	}
	return m
}

func TestRedrawFindsTheFigureTheGlyphsMisread(t *testing.T) {
	for _, c := range []struct {
		shown string
		seeds []string
		kd    bool
	}{
		{"4896", []string{"4096", "4096", "4696"}, false},
		{"2157", []string{"7157"}, false},
		{"13273", []string{"11725", "13223"}, false},
		{"150", []string{"050"}, true},
		{"410", []string{"2510", "410"}, false},
	} {
		text := c.shown
		if c.kd {
			text = c.shown[:len(c.shown)-2] + "." + c.shown[len(c.shown)-2:]
		}
		for _, sigma := range []float64{1, 1.8} {
			fits, _ := redraw(photographed(text, sigma, 7), c.seeds, c.kd)
			if len(fits) == 0 || fits[0].text != c.shown {
				t.Errorf("%s blurred %.1f, read as %v: redrawn as %v", text, sigma, c.seeds, fits[:min(3, len(fits))])
			}
		}
	}
}

func TestRedrawOfNothingIsNothing(t *testing.T) {
	if fits, _ := redraw(fmap{w: 40, h: 20, pix: make([]float32, 800)}, []string{"12"}, false); len(fits) != 0 {
		t.Errorf("a blank bar redrawn as %v", fits)
	}
	if fits, _ := redraw(photographed("12", 1, 1), nil, false); len(fits) != 0 {
		t.Errorf("no seed, yet redrawn as %v", fits)
	}
}

func TestInkSpanIsTheFigureFlushRight(t *testing.T) {
	m := photographed("4896", 1, 3)
	x0, x1, y0, y1, ok := m.inkSpan()
	if !ok {
		t.Fatal("no ink found")
	}
	// The label stands at 7-28 (10-40 scaled by 0.7); the figure's ink
	// from about 83 (110 and the drawing's margin, scaled) to its end.
	if x0 < 78 || x0 > 88 || x1 < m.w-20 {
		t.Errorf("figure found at columns %d-%d of %d, want from about 83 to the right", x0, x1, m.w)
	}
	if h := y1 - y0 + 1; h < 12 || h > 19 {
		t.Errorf("figure %d rows tall, want about 15", h)
	}
}

func TestNeighboursAreADigitAway(t *testing.T) {
	n := neighbours("12", false)
	for _, want := range []string{"13", "72", "112", "120", "1", "2"} {
		if !slices.Contains(n, want) {
			t.Errorf("neighbours of 12 lack %s", want)
		}
	}
	for _, bad := range []string{"02", "012", "12"} {
		if slices.Contains(n, bad) {
			t.Errorf("neighbours of 12 hold %s", bad)
		}
	}
	for _, d := range neighbours("150", true) {
		if len(d) < 3 {
			t.Errorf("a K/D of %s, less than three digits", d)
		}
	}
	if !slices.Contains(neighbours("150", true), "050") {
		t.Error("a K/D of 0.50 is a neighbour of 1.50")
	}
}

func TestAgreeingKillsDeathsAndKD(t *testing.T) {
	read := func(kills, deaths int, kd float64) core.Reading {
		var r core.Reading
		r.Set(core.FieldKills, kills)
		r.Set(core.FieldDeaths, deaths)
		r.SetKD(kd)
		return r
	}
	// Read 4096 / 3269 and 1.50, which disagree; 4896 is drawn nearly as
	// well as 4096 and agrees.
	r := read(4096, 3269, 1.50)
	fits := map[core.Field][]figureFit{
		core.FieldKills: {{"4096", 0.91}, {"4896", 0.90}, {"4090", 0.85}},
		core.FieldKD:    {{"160", 0.90}, {"150", 0.89}},
	}
	cur := map[core.Field]string{core.FieldKills: "4096", core.FieldKD: "150"}
	got, ok := drawn{fits: fits, cur: cur}.agreeing(r)
	if !ok || got != [3]string{"4896", "3269", "150"} {
		t.Errorf("chose %v (%v), want 4896, 3269, 1.50", got, ok)
	}
	// Read values that agree stand unless agreeing others match better.
	r = read(4896, 3269, 1.50)
	fits[core.FieldKills] = []figureFit{{"4890", 0.905}, {"4896", 0.90}}
	cur[core.FieldKills] = "4896"
	if got, ok := (drawn{fits: fits, cur: cur}).agreeing(r); ok {
		t.Errorf("values that agree were changed to %v", got)
	}
	// Read values that agree stand against agreeing others drawn far better
	// but never read (xSuperStarx's 4032 px photo: 19069 / 8488 read at
	// every threshold, 19149 / 8498 drawn better by 0.18)...
	r = read(19069, 8488, 2.25)
	notRead := map[core.Field][]figureFit{
		core.FieldKills:  {{"19149", 0.79}, {"19069", 0.59}},
		core.FieldDeaths: {{"8498", 0.92}, {"8488", 0.94}},
	}
	cur19 := map[core.Field]string{core.FieldKills: "19069", core.FieldDeaths: "8488"}
	also := map[core.Field][]string{core.FieldKills: {"19069", "19069", "79069"}, core.FieldDeaths: {"8488", "8488", "6438"}}
	if got, ok := (drawn{fits: notRead, cur: cur19, also: also}).agreeing(r); ok {
		t.Errorf("values read that agree were changed to %v, never read", got)
	}
	// ... but give way to them once the glyphs read them too.
	also[core.FieldKills] = append(also[core.FieldKills], "19149")
	also[core.FieldDeaths] = append(also[core.FieldDeaths], "8498")
	if got, ok := (drawn{fits: notRead, cur: cur19, also: also}).agreeing(r); !ok || got != [3]string{"19149", "8498", "225"} {
		t.Errorf("chose %v (%v), want 19149, 8498, 2.25: read so too and drawn better", got, ok)
	}
	// Nothing agrees: nothing changes.
	r = read(4096, 3269, 1.50)
	fits[core.FieldKills] = []figureFit{{"4096", 0.91}, {"4090", 0.90}}
	cur[core.FieldKills] = "4096"
	if got, ok := (drawn{fits: fits, cur: cur}).agreeing(r); ok {
		t.Errorf("changed to %v, which does not agree either", got)
	}
}

// The drawing decides between two readings of the glyphs: a value read at
// one threshold or at the check's size, and drawn best, replaces the
// value voted for by any margin; a value of the drawing's own needs
// redrawMargin.
func TestTheDrawingDecidesBetweenTwoReadings(t *testing.T) {
	read := func() core.Reading {
		var r core.Reading
		r.Set(core.FieldKills, 66666)
		r.Set(core.FieldDeaths, 32228) // 66666 / 32278 and / 32228 both round to 2.07
		r.SetKD(2.07)
		r.Doubts(core.FieldDeaths, "read differently at another size: please check")
		return r
	}
	d := drawn{
		fits: map[core.Field][]figureFit{core.FieldDeaths: {{"32278", 0.8896}, {"92278", 0.8772}, {"32228", 0.8715}}},
		cur:  map[core.Field]string{core.FieldDeaths: "32228"},
		also: map[core.Field][]string{core.FieldDeaths: {"32228", "32278", "32228"}},
	}
	r := read()
	d.apply(&r)
	if r.Deaths != 32278 {
		t.Errorf("deaths %d, want 32278: read so at one threshold, and drawn best", r.Deaths)
	}
	d.also[core.FieldDeaths] = []string{"32228", "32228"}
	r = read()
	d.apply(&r)
	if r.Deaths != 32228 {
		t.Errorf("deaths %d, want 32228 as read: 32278 is the drawing's own, by less than redrawMargin", r.Deaths)
	}
}

// Under a tooltip the kills are not read: deaths and K/D are then drawn
// again each on its own (nothing to agree with), and kills is worked out
// from them afterwards.
func TestWithKillsHiddenDeathsAreDrawnOnTheirOwn(t *testing.T) {
	var r core.Reading
	r.Set(core.FieldDeaths, 1021)
	r.SetKD(1.09)
	r.Doubts(core.FieldDeaths, "read differently at another size: please check")
	d := drawn{
		fits: map[core.Field][]figureFit{core.FieldDeaths: {{"1621", 0.876}, {"1821", 0.868}, {"1021", 0.807}}},
		cur:  map[core.Field]string{core.FieldDeaths: "1021"},
		also: map[core.Field][]string{core.FieldDeaths: {"1621", "1021", "1021"}},
	}
	d.apply(&r)
	if r.Deaths != 1621 || r.Has(core.FieldKills) {
		t.Errorf("deaths %d (kills found %v), want 1621 and kills left to work out", r.Deaths, r.Has(core.FieldKills))
	}
}

// Kills misread in two digits (32044 read 17044, drawn best as 12044) is
// no neighbour of its read, but deaths and K/D drawn best give it: of the
// counts K/D 1.88 × deaths 17045 leaves, the one drawn best is taken.
func TestKillsMisreadInTwoDigitsComeFromDeathsAndKD(t *testing.T) {
	var r core.Reading
	r.Set(core.FieldKills, 17044)
	r.Set(core.FieldDeaths, 17045)
	r.SetKD(1.02)
	for _, f := range kdTrio {
		r.Doubts(f, "hard to read on the screenshot")
	}
	drawnAs := func(shown string) func(string) float64 {
		return func(t string) float64 {
			if t == shown {
				return 0.92
			}
			return 0.8
		}
	}
	d := drawn{
		fits: map[core.Field][]figureFit{
			core.FieldKills:  {{"12044", 0.928}, {"17044", 0.913}},
			core.FieldDeaths: {{"17045", 0.919}, {"12045", 0.885}},
			core.FieldKD:     {{"188", 0.930}, {"198", 0.916}, {"102", 0.85}},
		},
		score: map[core.Field]func(string) float64{core.FieldKills: drawnAs("32044"), core.FieldDeaths: drawnAs("17045"), core.FieldKD: drawnAs("188")},
		cur:   map[core.Field]string{core.FieldKills: "17044", core.FieldDeaths: "17045", core.FieldKD: "102"},
	}
	d.apply(&r)
	if r.Kills != 32044 || r.Deaths != 17045 || r.KD != 1.88 {
		t.Errorf("kills %d, deaths %d, K/D %.2f; want 32044, 17045, 1.88", r.Kills, r.Deaths, r.KD)
	}
}

func TestFiguresHeldAsReadStayHeldOnceRedrawn(t *testing.T) {
	// As read: kills 442 over 500 deaths is not a K/D of 0.92, so the
	// arithmetic caught a misread, and the level beside it is held.
	var asRead core.Reading
	asRead.Photo = true
	for f, v := range map[core.Field]int{core.FieldKills: 442, core.FieldDeaths: 500, core.FieldLevel: 8} {
		asRead.Set(f, v)
		asRead.SetConfidence(f, 0.9)
	}
	asRead.SetKD(0.92)
	asRead.SetConfidence(core.FieldKD, 0.9)
	asRead.Doubts(core.FieldKills, "hard to read on the screenshot")
	// Redrawn, kills 462 agrees: the level must be held all the same.
	r := cloneReading(asRead)
	r.Set(core.FieldKills, 462)
	keepHeld(&r, asRead)
	r.Check()
	if _, held := r.Doubt[core.FieldLevel]; !held {
		t.Errorf("the level went unheld once kills was redrawn to agree: %v", r.Doubt)
	}
	if _, held := r.Doubt[core.FieldKills]; !held {
		t.Errorf("kills redrawn went unheld: %v", r.Doubt)
	}
	if r.Kills != 462 || r.Proposed[core.FieldKills] {
		t.Errorf("kills %d (proposed %v), want the 462 drawn", r.Kills, r.Proposed[core.FieldKills])
	}
}
