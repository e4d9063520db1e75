// Package cards draws the pictures a link to the site unfurls with in
// Discord and elsewhere (Open Graph's og:image): a player's card, a team's,
// a season's standings. Each is a 1200x630 PNG drawn from the figures
// given, in the site's colours, with the Go fonts (no outside assets).
package cards

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/pitlane/pitlane/internal/core"
)

// Width and Height are every card's size, Open Graph's large picture.
const (
	Width  = 1200
	Height = 630
)

var (
	bg     = color.RGBA{0x1a, 0x1a, 0x1a, 0xff}
	panel  = color.RGBA{0x24, 0x24, 0x2c, 0xff}
	blue   = color.RGBA{0x4a, 0x90, 0xe2, 0xff}
	violet = color.RGBA{0x7b, 0x68, 0xee, 0xff}
	cyan   = color.RGBA{0x00, 0xce, 0xd1, 0xff}
	gold   = color.RGBA{0xff, 0xd7, 0x00, 0xff}
	white  = color.RGBA{0xf2, 0xf2, 0xf2, 0xff}
	muted  = color.RGBA{0xa0, 0xa0, 0xb0, 0xff}
)

type faces struct{ title, big, text, small font.Face }

var (
	facesOnce sync.Once
	fc        faces
)

func face(ttf []byte, size float64) font.Face {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(err) // the embedded Go fonts parse
	}
	fa, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	return fa
}

func loadFaces() faces {
	facesOnce.Do(func() {
		fc = faces{title: face(gobold.TTF, 72), big: face(gobold.TTF, 48), text: face(goregular.TTF, 30), small: face(goregular.TTF, 24)}
	})
	return fc
}

// canvas is a card's background: dark, a band of the site's gradient at
// the top, and the site's name at the foot.
func canvas() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	for x := 0; x < Width; x++ {
		c := mix(blue, violet, float64(x)/Width)
		for y := 0; y < 12; y++ {
			img.SetRGBA(x, y, c)
		}
	}
	f := loadFaces()
	text(img, f.small, muted, 60, Height-40, "Pitlane · Smash Karts league")
	return img
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}

// text writes s with its baseline at (x, y), cut to fit before Width-60.
func text(img *image.RGBA, f font.Face, c color.Color, x, y int, s string) int {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	limit := fixed.I(Width - 60)
	for d.Dot.X+d.MeasureString(s) > limit && len(s) > 1 {
		r := []rune(s)
		s = string(r[:len(r)-2]) + "…"
	}
	d.DrawString(s)
	return d.Dot.X.Round()
}

func fill(img *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, &image.Uniform{c}, image.Point{}, draw.Over)
}

func encode(img image.Image) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	enc.Encode(&buf, img) // to memory: no error
	return buf.Bytes()
}

// Player is what a player's card shows.
type Player struct {
	Name     string
	Hidden   bool // the name alone
	Level    int
	Tier     int
	Kills    int
	Deaths   int
	KD       float64
	Games    int
	Titles   int
	RedCaps  int
	Verified bool
	Kart     image.Image // may be nil
}

// DrawPlayer draws a player's card.
func DrawPlayer(p Player) []byte {
	img := canvas()
	f := loadFaces()
	left := 60
	if p.Kart != nil && !p.Hidden {
		box := image.Rect(60, 110, 460, 510)
		fill(img, box, panel)
		b := p.Kart.Bounds()
		scale := min(float64(box.Dx()-20)/float64(b.Dx()), float64(box.Dy()-20)/float64(b.Dy()))
		w, h := int(float64(b.Dx())*scale), int(float64(b.Dy())*scale)
		min := image.Pt(box.Min.X+(box.Dx()-w)/2, box.Min.Y+(box.Dy()-h)/2)
		at := image.Rectangle{Min: min, Max: min.Add(image.Pt(w, h))}
		xdraw.ApproxBiLinear.Scale(img, at, p.Kart, b, draw.Over, nil)
		left = 500
	}
	text(img, f.small, cyan, left, 130, "PLAYER PROFILE")
	text(img, f.title, white, left, 210, p.Name)
	if p.Hidden {
		text(img, f.text, muted, left, 280, "This profile is private.")
		return encode(img)
	}
	line := fmt.Sprintf("Level %d · Tier %d", p.Level, p.Tier)
	if p.Verified {
		line += " · stats verified"
	}
	text(img, f.text, muted, left, 260, line)
	stats := []struct {
		label, value string
	}{{"KILLS", fmt.Sprint(p.Kills)}, {"DEATHS", fmt.Sprint(p.Deaths)}, {"K/D", fmt.Sprintf("%.2f", p.KD)}, {"GAMES", fmt.Sprint(p.Games)}}
	colW := (Width - 60 - left) / len(stats)
	for i, st := range stats {
		x := left + i*colW
		fill(img, image.Rect(x, 300, x+colW-16, 420), panel)
		text(img, f.small, muted, x+18, 340, st.label)
		text(img, f.big, white, x+18, 400, st.value)
	}
	var honours []string
	if p.Titles > 0 {
		honours = append(honours, core.Count(p.Titles, "title", "titles"))
	}
	if p.RedCaps > 0 {
		honours = append(honours, core.Count(p.RedCaps, "Red Cap", "Red Caps"))
	}
	if len(honours) > 0 {
		text(img, f.big, gold, left, 490, strings.Join(honours, " · "))
	}
	return encode(img)
}

// Row is a line of a standings card.
type Row struct {
	Name                string
	Played, Won, Points int
	Highlight           bool
}

// Table is a standings card: a season's Points Table, or a team's line of it.
type Table struct {
	Kicker string // above the title: "STANDINGS", "TEAM"
	Title  string
	Sub    string
	Rows   []Row
}

// DrawTable draws a standings or team card: its title and up to eight rows.
func DrawTable(t Table) []byte {
	img := canvas()
	f := loadFaces()
	text(img, f.small, cyan, 60, 90, t.Kicker)
	text(img, f.big, white, 60, 150, t.Title)
	if t.Sub != "" {
		text(img, f.text, muted, 60, 195, t.Sub)
	}
	y := 215
	for i, r := range t.Rows {
		if i == 8 {
			break
		}
		c := panel
		if r.Highlight {
			c = color.RGBA{0x2c, 0x34, 0x52, 0xff}
		}
		fill(img, image.Rect(60, y, Width-60, y+38), c)
		text(img, f.small, muted, 76, y+28, fmt.Sprint(i+1))
		text(img, f.small, white, 130, y+28, r.Name)
		text(img, f.small, muted, 760, y+28, fmt.Sprintf("P %d  W %d", r.Played, r.Won))
		text(img, f.small, gold, 1000, y+28, fmt.Sprintf("%d pts", r.Points))
		y += 40
	}
	if len(t.Rows) == 0 {
		text(img, f.text, muted, 60, y+40, "No results yet.")
	}
	return encode(img)
}
