// Package screens draws synthetic Smash Karts stats screens with known
// ground truth, for the extractor's tests and benchmark. A seed fixes every
// pixel: layout, theme, fonts, numbers, noise and the drawn kart.
package screens

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"golang.org/x/image/font"
)

// Layouts are the screen arrangements the generator knows.
var Layouts = []string{"rows", "tiles", "columns", "portrait-tiles", "portrait-rows"}

// Truth is what a screen shows, with the extractor's field names.
type Truth struct {
	File       string `json:"file,omitempty"`
	Name       string `json:"discord_username"`
	Level      string `json:"level"`
	Kills      string `json:"kills"`
	Deaths     string `json:"deaths"`
	TotalGames string `json:"total_games"`
	SkID       string `json:"sk_id"`
	KDRatio    string `json:"kd_ratio"`

	Seed   int64  `json:"seed"`
	Layout string `json:"layout"`
	Theme  string `json:"theme"`
	Font   string `json:"font"`
	Format string `json:"format"` // "png" or "jpeg"
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// Kart is the box the drawn kart covers: x0, y0, x1, y1.
	Kart [4]int `json:"kart"`
}

// Screen is a drawn screen and its truth.
type Screen struct {
	Truth Truth
	Image *image.RGBA
	// Quality is the JPEG quality when Truth.Format is "jpeg".
	Quality int
}

// GenerateLayout draws the screen of seed in the given layout.
func GenerateLayout(seed int64, layout string) (Screen, error) {
	for _, l := range Layouts {
		if l == layout {
			r := newRand(seed)
			// The first draw once picked the layout; it is still made, so
			// every seed draws the screen it always has (the truths and the
			// accuracy figures of docs/extract.md depend on it).
			r.IntN(len(Layouts))
			return generate(seed, r, layout), nil
		}
	}
	return Screen{}, fmt.Errorf("screens: unknown layout %q", layout)
}

func newRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}

type theme struct {
	name                  string
	bgTop, bgBottom       color.RGBA
	panel, panelAlt       color.RGBA
	label, value, heading color.RGBA
}

var themes = []theme{
	{"navy", rgb(12, 18, 46), rgb(36, 22, 74), rgb(28, 38, 92), rgb(34, 46, 106), rgb(165, 178, 222), rgb(255, 255, 255), rgb(255, 255, 255)},
	{"gold", rgb(20, 16, 50), rgb(50, 24, 80), rgb(44, 34, 96), rgb(54, 40, 110), rgb(200, 190, 240), rgb(255, 210, 64), rgb(255, 255, 255)},
	{"purple", rgb(48, 18, 84), rgb(92, 30, 124), rgb(72, 40, 124), rgb(82, 48, 138), rgb(214, 196, 244), rgb(255, 255, 255), rgb(255, 236, 130)},
	{"teal", rgb(8, 56, 66), rgb(14, 86, 92), rgb(18, 92, 104), rgb(24, 104, 116), rgb(182, 232, 232), rgb(255, 242, 124), rgb(255, 255, 255)},
	{"ember", rgb(58, 18, 18), rgb(118, 48, 20), rgb(136, 58, 30), rgb(150, 66, 36), rgb(255, 222, 192), rgb(255, 255, 255), rgb(255, 255, 255)},
	{"site", rgb(26, 26, 26), rgb(26, 26, 26), rgb(40, 44, 52), rgb(46, 50, 60), rgb(0, 206, 209), rgb(255, 255, 255), rgb(74, 144, 226)},
	{"light", rgb(226, 232, 244), rgb(200, 212, 236), rgb(255, 255, 255), rgb(242, 245, 252), rgb(96, 104, 128), rgb(24, 30, 56), rgb(30, 40, 110)},
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

// field is one label and the value shown with it. key names the stat it
// carries, "" for distractors.
type field struct {
	key, label, value string
}

type stats struct {
	name, level, kills, deaths, games, id, kd string
}

var (
	namePrefixes = []string{"Turbo", "Nitro", "Drift", "Smash", "Kart", "Rocket", "Blaze", "Shadow", "Pixel", "Ninja", "Viper", "Frost", "Storm", "Lucky", "Crazy", "Mega", "Hyper", "Neon", "Alpha", "Ghost", "Wild", "Royal", "Toxic", "Zoom", "Bomb", "Cyber", "Dizzy", "Panda"}
	nameSuffixes = []string{"King", "Queen", "Rider", "Racer", "Fox", "Wolf", "Boss", "Master", "Pro", "Hunter", "Ace", "Bolt", "Star", "Dash", "Gamer", "Beast", "Shot", "Wheel", "Tiger", "Rex", "Nova", "Kid"}
)

func randomName(r *rand.Rand) string {
	p := namePrefixes[r.IntN(len(namePrefixes))]
	s := nameSuffixes[r.IntN(len(nameSuffixes))]
	switch r.IntN(6) {
	case 0:
		return p + s
	case 1:
		return p + s + strconv.Itoa(r.IntN(999)+1)
	case 2:
		return strings.ToLower(p) + "_" + strings.ToLower(s)
	case 3:
		return p + strconv.Itoa(r.IntN(9000)+10)
	case 4:
		return strings.ToUpper(p + s)
	default:
		return p + "_" + s + strconv.Itoa(r.IntN(90)+10)
	}
}

func randomStats(r *rand.Rand) stats {
	var games int
	switch r.IntN(5) {
	case 0:
		games = 1 + r.IntN(60)
	case 1:
		games = 60 + r.IntN(940)
	case 2, 3:
		games = 1000 + r.IntN(9000)
	default:
		games = 10000 + r.IntN(50000)
	}
	kpg := 0.3 + r.Float64()*5.5
	dpg := 0.5 + r.Float64()*4
	kills := int(math.Round(float64(games) * kpg))
	deaths := max(1, int(math.Round(float64(games)*dpg)))
	level := 1 + int(math.Pow(float64(games), 0.55)*(0.4+r.Float64()*0.5))
	return stats{
		name:   randomName(r),
		level:  strconv.Itoa(min(level, 999)),
		kills:  strconv.Itoa(kills),
		deaths: strconv.Itoa(deaths),
		games:  strconv.Itoa(games),
		id:     strconv.Itoa(100000 + r.IntN(999899999)),
		kd:     strconv.FormatFloat(math.Round(float64(kills)/float64(deaths)*100)/100, 'f', 2, 64),
	}
}

// style holds the choices that make one screen look unlike the next.
type style struct {
	theme                     theme
	font, valueFont, nameFont string
	upper, commas, colon      bool
	labelSize, valueSize      float64
	nameSize                  float64
	levelIn, idIn             string
}

func generate(seed int64, r *rand.Rand, layout string) Screen {
	st := randomStats(r)
	w, h := 1280, 720
	sizes := [][2]int{{1280, 720}, {1600, 900}, {1920, 1080}, {2340, 1080}, {1334, 750}}
	if strings.HasPrefix(layout, "portrait") {
		sizes = [][2]int{{720, 1280}, {1080, 1920}, {900, 1600}, {1080, 2340}}
	}
	sz := sizes[r.IntN(len(sizes))]
	w, h = sz[0], sz[1]
	short := float64(min(w, h))

	s := style{
		theme:     themes[r.IntN(len(themes))],
		font:      Fonts[r.IntN(len(Fonts))],
		upper:     r.IntN(2) == 0,
		commas:    r.IntN(5) < 3,
		colon:     r.IntN(2) == 0,
		labelSize: short * (0.03 + 0.01*r.Float64()),
		levelIn:   []string{"lvl", "level", "field"}[r.IntN(3)],
		idIn:      []string{"id", "hash", "skid", "field"}[r.IntN(4)],
	}
	s.valueFont = []string{s.font, "go-bold", "go-mono-bold"}[r.IntN(3)]
	s.nameFont = []string{"go-bold", "go-medium", s.font}[r.IntN(3)]
	s.valueSize = s.labelSize * (1.15 + 0.35*r.Float64())
	s.nameSize = math.Max(s.valueSize*1.2, short*(0.065+0.015*r.Float64()))

	c := newCanvas(w, h)
	c.gradient(s.theme.bgTop, s.theme.bgBottom, (r.Float64()-0.5)*0.6)
	decorate(c, r, s.theme)

	fields := makeFields(r, st, s)
	var kart image.Rectangle
	switch layout {
	case "rows":
		kart = drawRows(c, r, s, st, fields)
	case "tiles":
		kart = drawTiles(c, r, s, st, fields)
	case "columns":
		kart = drawColumns(c, r, s, st, fields)
	case "portrait-tiles":
		kart = drawPortraitTiles(c, r, s, st, fields)
	case "portrait-rows":
		kart = drawPortraitRows(c, r, s, st, fields)
	}
	addNoise(c, r, []int{0, 3, 6}[r.IntN(3)])

	format, quality := "png", 0
	if r.IntN(5) < 2 {
		format, quality = "jpeg", 72+r.IntN(21)
	}
	return Screen{
		Image:   c.img,
		Quality: quality,
		Truth: Truth{
			Name: st.name, Level: st.level, Kills: st.kills, Deaths: st.deaths,
			TotalGames: st.games, SkID: st.id, KDRatio: st.kd,
			Seed: seed, Layout: layout, Theme: s.theme.name, Font: s.font,
			Format: format, Width: w, Height: h,
			Kart: [4]int{kart.Min.X, kart.Min.Y, kart.Max.X, kart.Max.Y},
		},
	}
}

// decorate adds faint shapes to the background so it is never clean.
func decorate(c *canvas, r *rand.Rand, t theme) {
	w, h := float64(c.w()), float64(c.h())
	for i := 0; i < 3+r.IntN(3); i++ {
		x, y := r.Float64()*w, r.Float64()*h
		d := (0.1 + 0.3*r.Float64()) * h
		col := withAlpha(rgb(255, 255, 255), uint8(8+r.IntN(10)))
		if t.name == "light" {
			col = withAlpha(rgb(40, 60, 140), uint8(8+r.IntN(10)))
		}
		if r.IntN(2) == 0 {
			c.poly(ellipsePts(x, y, d, d), col)
		} else {
			c.poly([][2]float64{{x, 0}, {x + d, 0}, {x + d - h*0.4, h}, {x - h*0.4, h}}, col)
		}
	}
}

func (s style) caps(label string) string {
	if s.upper {
		return strings.ToUpper(label)
	}
	return label
}

// number formats a whole number the way the screen shows numbers.
func (s style) number(v string) string {
	if !s.commas || len(v) <= 3 {
		return v
	}
	var b strings.Builder
	for i, ch := range v {
		if i > 0 && (len(v)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

func pick(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }

// makeFields lists the labelled fields of a screen in display order: the
// four stats, level and id when they are not in the header, and distractors.
func makeFields(r *rand.Rand, st stats, s style) []field {
	fs := []field{
		{"kills", pick(r, "Kills", "Kills", "Total Kills"), s.number(st.kills)},
		{"deaths", pick(r, "Deaths", "Deaths", "Total Deaths"), s.number(st.deaths)},
		{"kd", pick(r, "K/D", "K/D Ratio", "K/D Ratio", "KD Ratio"), st.kd},
		{"games", pick(r, "Games", "Games Played", "Games Played", "Matches"), s.number(st.games)},
	}
	if s.levelIn == "field" {
		fs = append(fs, field{"level", pick(r, "Level", "Lvl"), st.level})
	}
	if s.idIn == "field" {
		fs = append(fs, field{"id", pick(r, "ID", "SK ID", "Player ID"), pick(r, "#", "") + st.id})
	}
	games, _ := strconv.Atoi(st.games)
	distractors := []field{
		{"", "Coins", s.number(strconv.Itoa(r.IntN(400000)))},
		{"", "Best Streak", strconv.Itoa(1 + r.IntN(40))},
		{"", "Wins", s.number(strconv.Itoa(r.IntN(games + 1)))},
		{"", "Win Rate", strconv.Itoa(r.IntN(70)) + "%"},
		{"", "Gems", s.number(strconv.Itoa(r.IntN(5000)))},
		{"", "Top 3", s.number(strconv.Itoa(r.IntN(games + 1)))},
	}
	r.Shuffle(len(distractors), func(i, j int) { distractors[i], distractors[j] = distractors[j], distractors[i] })
	fs = append(fs, distractors[:2+r.IntN(2)]...)
	r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
	for i := range fs {
		fs[i].label = s.caps(fs[i].label)
	}
	return fs
}

// header draws the player's name at (x, top) and, below it, the level and
// id lines the style puts there. centre centres every line on x instead.
// It returns the y just under what it drew.
func header(c *canvas, r *rand.Rand, s style, st stats, x, top int, centre bool) int {
	nf := face(s.nameFont, s.nameSize)
	sf := face(s.font, s.labelSize*1.1)
	line := func(f font.Face, text string, y int, col color.RGBA) {
		xx := x
		if centre {
			xx = x - advance(f, text)/2
		}
		c.text(f, text, xx, y, col)
	}
	y := top + capHeight(nf)
	line(nf, st.name, y, s.theme.heading)
	gap := int(s.labelSize * 0.9)
	var extras []string
	switch s.levelIn {
	case "lvl":
		extras = append(extras, s.caps("Lvl")+" "+st.level)
	case "level":
		extras = append(extras, s.caps("Level")+" "+st.level)
	}
	switch s.idIn {
	case "id":
		extras = append(extras, "ID: #"+st.id)
	case "hash":
		extras = append(extras, "#"+st.id)
	case "skid":
		extras = append(extras, s.caps("SK ID")+": "+st.id)
	}
	if len(extras) == 2 && r.IntN(2) == 0 {
		extras = []string{extras[0] + "     " + extras[1]}
	}
	for _, e := range extras {
		y += gap + capHeight(sf)
		line(sf, e, y, s.theme.label)
	}
	return y + gap
}

func (s style) sep() string {
	if s.colon {
		return ":"
	}
	return ""
}

// drawRows: name top left, kart below it, a panel on the right with one
// field per row, label left and value right-aligned.
func drawRows(c *canvas, r *rand.Rand, s style, st stats, fs []field) image.Rectangle {
	w, h := c.w(), c.h()
	header(c, r, s, st, int(0.05*float64(w)), int(0.07*float64(h)), false)
	kart := drawKart(c, r, image.Rect(int(0.04*float64(w)), int(0.4*float64(h)), int(0.46*float64(w)), int(0.93*float64(h))))
	panel := image.Rect(int(0.52*float64(w)), int(0.07*float64(h)), int(0.95*float64(w)), int(0.93*float64(h)))
	rowsPanel(c, r, s, fs, panel)
	return kart
}

func rowsPanel(c *canvas, r *rand.Rand, s style, fs []field, panel image.Rectangle) {
	c.roundRect(panel, float64(panel.Dy())*0.04, withAlpha(s.theme.panel, 235))
	lf := face(s.font, s.labelSize)
	vf := face(s.valueFont, s.valueSize)
	rowH := panel.Dy() / len(fs)
	pad := int(s.labelSize)
	stripes := r.IntN(2) == 0
	for i, f := range fs {
		row := image.Rect(panel.Min.X+pad/2, panel.Min.Y+i*rowH+2, panel.Max.X-pad/2, panel.Min.Y+(i+1)*rowH-2)
		if stripes && i%2 == 1 {
			c.roundRect(row, float64(rowH)*0.2, s.theme.panelAlt)
		}
		base := row.Min.Y + row.Dy()/2 + capHeight(vf)/2
		c.text(lf, f.label+s.sep(), panel.Min.X+pad, base, s.theme.label)
		c.text(vf, f.value, panel.Max.X-pad-advance(vf, f.value), base, s.theme.value)
	}
}

func withAlpha(c color.RGBA, a uint8) color.RGBA {
	// RGBA colours are alpha-premultiplied.
	return color.RGBA{R: uint8(int(c.R) * int(a) / 255), G: uint8(int(c.G) * int(a) / 255), B: uint8(int(c.B) * int(a) / 255), A: a}
}

// drawTiles: name across the top, kart on the left, fields as tiles in a
// grid of two or three columns, label above value.
func drawTiles(c *canvas, r *rand.Rand, s style, st stats, fs []field) image.Rectangle {
	w, h := c.w(), c.h()
	header(c, r, s, st, int(0.05*float64(w)), int(0.06*float64(h)), false)
	kart := drawKart(c, r, image.Rect(int(0.03*float64(w)), int(0.42*float64(h)), int(0.36*float64(w)), int(0.94*float64(h))))
	cols := 2 + r.IntN(2)
	grid := image.Rect(int(0.4*float64(w)), int(0.3*float64(h)), int(0.96*float64(w)), int(0.95*float64(h)))
	if cols == 2 {
		grid.Min.X = int(0.48 * float64(w))
	}
	tileGrid(c, r, s, fs, grid, cols)
	return kart
}

func tileGrid(c *canvas, r *rand.Rand, s style, fs []field, grid image.Rectangle, cols int) {
	lf := face(s.font, s.labelSize)
	vf := face(s.valueFont, s.valueSize)
	rows := (len(fs) + cols - 1) / cols
	tw, th := grid.Dx()/cols, grid.Dy()/rows
	gap := int(s.labelSize * 0.4)
	centred := r.IntN(2) == 0
	for i, f := range fs {
		col, row := i%cols, i/cols
		tile := image.Rect(grid.Min.X+col*tw+gap, grid.Min.Y+row*th+gap, grid.Min.X+(col+1)*tw-gap, grid.Min.Y+(row+1)*th-gap)
		c.roundRect(tile, float64(th)*0.15, withAlpha(s.theme.panel, 240))
		lh, vh := capHeight(lf), capHeight(vf)
		space := int(s.labelSize * 0.6)
		top := tile.Min.Y + (tile.Dy()-lh-space-vh)/2
		lx, vx := tile.Min.X+int(s.labelSize*0.7), tile.Min.X+int(s.labelSize*0.7)
		if centred {
			lx = tile.Min.X + (tile.Dx()-advance(lf, f.label))/2
			vx = tile.Min.X + (tile.Dx()-advance(vf, f.value))/2
		}
		c.text(lf, f.label, lx, top+lh, s.theme.label)
		c.text(vf, f.value, vx, top+lh+space+vh, s.theme.value)
	}
}

// drawColumns: name top left, kart top right, then the fields as inline
// "Label: value" pairs in two or three columns.
func drawColumns(c *canvas, r *rand.Rand, s style, st stats, fs []field) image.Rectangle {
	w, h := c.w(), c.h()
	y := header(c, r, s, st, int(0.05*float64(w)), int(0.07*float64(h)), false)
	kart := drawKart(c, r, image.Rect(int(0.55*float64(w)), int(0.04*float64(h)), int(0.95*float64(w)), int(0.5*float64(h))))
	cols := 2 + r.IntN(2)
	area := image.Rect(int(0.04*float64(w)), max(y, int(0.52*float64(h))), int(0.96*float64(w)), int(0.95*float64(h)))
	c.roundRect(area, s.labelSize, withAlpha(s.theme.panel, 220))
	lf := face(s.font, s.labelSize)
	vf := face(s.valueFont, s.valueSize)
	// Real screens never let one column run into the next: fall back to
	// two columns when three would not fit with a clear gap.
	widest := 0
	for _, f := range fs {
		widest = max(widest, advance(lf, f.label+":  ")+advance(vf, f.value))
	}
	if cols == 3 && 3*(widest+int(2*s.labelSize)) > area.Dx() {
		cols = 2
	}
	rows := (len(fs) + cols - 1) / cols
	cw, rh := (area.Dx()-int(s.labelSize))/cols, area.Dy()/rows
	for i, f := range fs {
		col, row := i%cols, i/cols
		x := area.Min.X + int(s.labelSize) + col*cw
		base := area.Min.Y + row*rh + rh/2 + capHeight(vf)/2
		adv := c.text(lf, f.label+":", x, base, s.theme.label)
		c.text(vf, f.value, x+adv+advance(lf, "  "), base, s.theme.value)
	}
	return kart
}

// drawPortraitTiles: a phone held upright; name centred on top, kart in
// the middle, tiles in two columns below.
func drawPortraitTiles(c *canvas, r *rand.Rand, s style, st stats, fs []field) image.Rectangle {
	w, h := c.w(), c.h()
	y := header(c, r, s, st, w/2, int(0.05*float64(h)), true)
	kart := drawKart(c, r, image.Rect(int(0.1*float64(w)), max(y, int(0.2*float64(h))), int(0.9*float64(w)), int(0.46*float64(h))))
	tileGrid(c, r, s, fs, image.Rect(int(0.04*float64(w)), int(0.5*float64(h)), int(0.96*float64(w)), int(0.96*float64(h))), 2)
	return kart
}

// drawPortraitRows: name top left, kart, then rows of label and value.
func drawPortraitRows(c *canvas, r *rand.Rand, s style, st stats, fs []field) image.Rectangle {
	w, h := c.w(), c.h()
	y := header(c, r, s, st, int(0.06*float64(w)), int(0.05*float64(h)), false)
	kart := drawKart(c, r, image.Rect(int(0.08*float64(w)), max(y, int(0.2*float64(h))), int(0.92*float64(w)), int(0.47*float64(h))))
	rowsPanel(c, r, s, fs, image.Rect(int(0.05*float64(w)), int(0.5*float64(h)), int(0.95*float64(w)), int(0.96*float64(h))))
	return kart
}

// addNoise adds uniform noise of +-amp to every channel.
func addNoise(c *canvas, r *rand.Rand, amp int) {
	if amp == 0 {
		return
	}
	p := c.img.Pix
	for i := 0; i < len(p); i += 4 {
		for k := 0; k < 3; k++ {
			v := int(p[i+k]) + r.IntN(2*amp+1) - amp
			p[i+k] = uint8(max(0, min(255, v)))
		}
	}
}
