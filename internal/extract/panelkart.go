package extract

import "image"

// What stays tuned in cutting the kart out beside the panel:
const (
	// minKartBarW and minKartPitch are the narrowest bar and the smallest
	// pitch (pixels) a kart is looked for beside: less is too small to cut.
	minKartBarW, minKartPitch = 20, 4
	// bgNear is how far (colour distance, 4 bits a channel) a pixel may be
	// from a background colour and count as background.
	bgNear = 2
	// kartCellTenths: a cell is the kart's when at least this many tenths
	// of its pixels are not background.
	kartCellTenths = 3
	// bgShareTenths: a colour is the background's when it fills at least
	// this many tenths of the strip beside the panel.
	bgShareTenths = 1
	// minKartRows is the fewest bars the panel shows for the kart to be
	// looked for beside it (its top is level with the second bar or lower).
	minKartRows = 3
	// kartWinPitches is the least height (in bar pitches) of the window
	// the kart is looked for in.
	kartWinPitches = 2
	// kartMinWPitches and kartMinHNum/kartMinHDen are the least width and
	// height (in bar pitches: 2 and 3/2) of a kart; less is a mark or a
	// stray edge.
	kartMinWPitches          = 2
	kartMinHNum, kartMinHDen = 3, 2
	// The window the kart is looked for in, right of the panel: from
	// 1/kartWinLeftDiv to kartWinRightTenths tenths of a bar's width past
	// its right edge, from kartWinTopTenths tenths of a pitch below the top
	// bar's top to kartWinBelowTenths tenths of a pitch below the last bar.
	kartWinLeftDiv, kartWinRightTenths   = 2, 26
	kartWinTopTenths, kartWinBelowTenths = 11, 6
	// bgStripToTenths: the strip whose colours are the background runs
	// from a tenth to this many tenths of a bar's width right of the panel.
	bgStripToTenths = 4
	// minKartCell and kartCellDiv: the window is cut into cells of
	// 1/kartCellDiv of a pitch, at least minKartCell pixels a side.
	minKartCell, kartCellDiv = 2, 8
)

// panelKart finds the player's kart on the game's main menu from where its
// Stats panel p is, and cuts it out (see kartPNG). On that screen the kart
// stands right of the panel, below the game's logo and above its PLAY
// button: its top is level with the panel's second bar or lower, its wheels
// end a little below the last bar, and it lies within two and a half bar
// widths of the panel. In that window, what is not the screen's background
// (the colours of the strip just right of the panel) and forms the largest
// blob is the kart. ok is false when the capture is cut close to the panel
// or nothing big enough is there.
func panelKart(src *image.RGBA, p panel) ([]byte, bool) {
	if len(p.rows) < minKartRows {
		return nil, false
	}
	top, bot := p.rows[0], p.rows[len(p.rows)-1]
	barW := top.Dx()
	pitch := (bot.Min.Y - top.Min.Y) / (len(p.rows) - 1)
	if barW < minKartBarW || pitch < minKartPitch {
		return nil, false
	}
	right := top.Max.X
	win := image.Rect(right+barW/kartWinLeftDiv, top.Min.Y+pitch*kartWinTopTenths/tenths, right+barW*kartWinRightTenths/tenths, bot.Max.Y+pitch*kartWinBelowTenths/tenths).Intersect(src.Bounds())
	if win.Dx() < barW || win.Dy() < kartWinPitches*pitch {
		return nil, false
	}
	bg := backgroundColours(src, image.Rect(right+barW/tenths, top.Min.Y, right+barW*bgStripToTenths/tenths, bot.Max.Y).Intersect(src.Bounds()))
	if len(bg) == 0 {
		return nil, false
	}
	isBg := func(x, y int) bool {
		c := pixel(src, x, y).coarse()
		for _, b := range bg {
			if dist(c, b) <= bgNear {
				return true
			}
		}
		return false
	}
	// Cells of the window where most pixels are not background.
	cell := max(minKartCell, pitch/kartCellDiv)
	gw, gh := (win.Dx()+cell-1)/cell, (win.Dy()+cell-1)/cell
	fg := make([]bool, gw*gh)
	for cy := range gh {
		for cx := range gw {
			n, all := 0, 0
			r := cellRect(cx, cy, cell, win)
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					all++
					if !isBg(x, y) {
						n++
					}
				}
			}
			fg[cy*gw+cx] = all > 0 && n*tenths >= all*kartCellTenths
		}
	}
	// The largest blob of such cells (8-connected).
	var best image.Rectangle
	bestN := 0
	blobs(fg, gw, true, func(box image.Rectangle, cells []int) {
		if len(cells) > bestN {
			best, bestN = box, len(cells)
		}
	})
	r := image.Rect(win.Min.X+best.Min.X*cell, win.Min.Y+best.Min.Y*cell, win.Min.X+best.Max.X*cell, win.Min.Y+best.Max.Y*cell).Intersect(win)
	// A kart is several bars high and wide; less is a mark or a stray edge.
	if r.Dx() < kartMinWPitches*pitch || r.Dy() < kartMinHNum*pitch/kartMinHDen {
		return nil, false
	}
	return kartPNG(src, r.Inset(-cell).Intersect(src.Bounds()))
}

// backgroundColours are the colours (4 bits a channel) that make up at least
// a tenth of r: the screen's background, two shades on the game's menu.
func backgroundColours(src *image.RGBA, r image.Rectangle) []rgb {
	if r.Empty() {
		return nil
	}
	counts := map[rgb]int{}
	total := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			counts[pixel(src, x, y).coarse()]++
			total++
		}
	}
	var out []rgb
	for c, n := range counts {
		if n*tenths >= total*bgShareTenths {
			out = append(out, c)
		}
	}
	return out
}
