package extract

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"

	xdraw "golang.org/x/image/draw"
)

// page is a screenshot prepared for Tesseract: scaled so text has the size
// Tesseract reads best, and turned into dark ink on white paper whatever
// the colours of the screen.
type page struct {
	rgba  *image.RGBA // the screenshot at working scale
	ink   *image.Gray // 0 = certainly text (or other foreground), 255 = background
	scale float64     // working size / original size
}

// Thresholds on the colour distance from the local background: below
// inkLow a pixel is background (noise, gradients, JPEG ringing), above
// inkHigh it is ink; in between it is grey, which keeps anti-aliased edges.
const (
	inkLow  = 28
	inkHigh = 84
)

// sameBackground is the colour distance under which two background
// colours near a cell are one.
const sameBackground = 6

// preparePage scales src so its short side is about short pixels and
// computes the ink image.
//
// Stats screens put light text on dark panels, dark text on light ones,
// coloured text on coloured tiles, and several of those side by side, so a
// global threshold (or a global inversion) fails. Instead the background
// colour is estimated per cell as the most common colour around it, and a
// pixel is ink when it differs from every background colour nearby.
func preparePage(src image.Image, short int) *page {
	b := src.Bounds()
	scale := float64(short) / float64(min(b.Dx(), b.Dy()))
	scale = max(0.35, min(scale, 3))
	w, h := max(1, int(float64(b.Dx())*scale+0.5)), max(1, int(float64(b.Dy())*scale+0.5))
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(rgba, rgba.Bounds(), src, b.Min, draw.Src)
	} else if scale < 1 {
		xdraw.BiLinear.Scale(rgba, rgba.Bounds(), src, b, draw.Src, nil)
	} else {
		xdraw.ApproxBiLinear.Scale(rgba, rgba.Bounds(), src, b, draw.Src, nil)
	}
	return &page{rgba: rgba, ink: inkImage(rgba, max(16, short/24)), scale: scale}
}

type rgb struct{ r, g, b int32 }

// inkImage marks every pixel by its distance to the nearest local
// background colour (see preparePage). cell is the grid size in pixels.
func inkImage(img *image.RGBA, cell int) *image.Gray {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	gw, gh := (w+cell-1)/cell, (h+cell-1)/cell
	type bin struct {
		key        uint16
		n          int32
		sr, sg, sb int32
	}
	// Colour histograms per cell, 4 bits a channel.
	hists := make([][]bin, gw*gh)
	var count [4096]int32
	var sums [4096][3]int32
	var touched []uint16
	for cy := 0; cy < gh; cy++ {
		for cx := 0; cx < gw; cx++ {
			touched = touched[:0]
			r := cellRect(cx, cy, cell, img.Bounds())
			for y := r.Min.Y; y < r.Max.Y; y++ {
				row := img.Pix[y*img.Stride:]
				for x := r.Min.X; x < r.Max.X; x++ {
					p := row[x*4 : x*4+3]
					k := uint16(p[0]>>4)<<8 | uint16(p[1]>>4)<<4 | uint16(p[2]>>4)
					if count[k] == 0 {
						touched = append(touched, k)
					}
					count[k]++
					sums[k][0] += int32(p[0])
					sums[k][1] += int32(p[1])
					sums[k][2] += int32(p[2])
				}
			}
			hs := make([]bin, len(touched))
			for i, k := range touched {
				hs[i] = bin{k, count[k], sums[k][0], sums[k][1], sums[k][2]}
				count[k], sums[k] = 0, [3]int32{}
			}
			hists[cy*gw+cx] = hs
		}
	}
	// The background of a cell is the most common colour of the 3x3 cells
	// around it: wide enough that even large bold digits never dominate.
	bg := make([]rgb, gw*gh)
	for cy := 0; cy < gh; cy++ {
		for cx := 0; cx < gw; cx++ {
			touched = touched[:0]
			around := cellsAround(cx, cy, gw, gh)
			for ny := around.Min.Y; ny < around.Max.Y; ny++ {
				for nx := around.Min.X; nx < around.Max.X; nx++ {
					for _, e := range hists[ny*gw+nx] {
						if count[e.key] == 0 {
							touched = append(touched, e.key)
						}
						count[e.key] += e.n
						sums[e.key][0] += e.sr
						sums[e.key][1] += e.sg
						sums[e.key][2] += e.sb
					}
				}
			}
			var best uint16
			for _, k := range touched {
				if count[k] > count[best] || count[best] == 0 {
					best = k
				}
			}
			n := count[best]
			bg[cy*gw+cx] = rgb{sums[best][0] / n, sums[best][1] / n, sums[best][2] / n}
			for _, k := range touched {
				count[k], sums[k] = 0, [3]int32{}
			}
		}
	}
	ink := image.NewGray(image.Rect(0, 0, w, h))
	near := make([]rgb, 0, 9)
	for cy := 0; cy < gh; cy++ {
		for cx := 0; cx < gw; cx++ {
			near = near[:0]
			around := cellsAround(cx, cy, gw, gh)
			for ny := around.Min.Y; ny < around.Max.Y; ny++ {
				for nx := around.Min.X; nx < around.Max.X; nx++ {
					c := bg[ny*gw+nx]
					dup := false
					for _, o := range near {
						if dist(c, o) < sameBackground {
							dup = true
							break
						}
					}
					if !dup {
						near = append(near, c)
					}
				}
			}
			r := cellRect(cx, cy, cell, img.Bounds())
			for y := r.Min.Y; y < r.Max.Y; y++ {
				row := img.Pix[y*img.Stride:]
				out := ink.Pix[y*ink.Stride:]
				for x := r.Min.X; x < r.Max.X; x++ {
					p := rgb{int32(row[x*4]), int32(row[x*4+1]), int32(row[x*4+2])}
					d := int32(1 << 20)
					for _, c := range near {
						d = min(d, dist(p, c))
					}
					switch {
					case d <= inkLow:
						out[x] = 255
					case d >= inkHigh:
						out[x] = 0
					default:
						out[x] = uint8(255 - (d-inkLow)*255/(inkHigh-inkLow))
					}
				}
			}
		}
	}
	return ink
}

// cellRect is the cell (cx, cy) of a grid of squares of side cell laid
// from b's corner, cut to b.
func cellRect(cx, cy, cell int, b image.Rectangle) image.Rectangle {
	return image.Rect(cx*cell, cy*cell, (cx+1)*cell, (cy+1)*cell).Add(b.Min).Intersect(b)
}

// cellsAround are the cells of a gw x gh grid around (cx, cy), itself
// included: three by three, fewer at the grid's edges.
func cellsAround(cx, cy, gw, gh int) image.Rectangle {
	return image.Rect(cx-1, cy-1, cx+2, cy+2).Intersect(image.Rect(0, 0, gw, gh))
}

// dist is the largest difference of the three channels.
func dist(a, b rgb) int32 {
	return max(abs32(a.r-b.r), abs32(a.g-b.g), abs32(a.b-b.b))
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// pgm encodes a grey image as binary PGM, which Tesseract reads from stdin
// and which costs nothing to write.
func pgm(g *image.Gray) []byte {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	var buf bytes.Buffer
	buf.Grow(w*h + 32)
	fmt.Fprintf(&buf, "P5\n%d %d\n255\n", w, h)
	for y := 0; y < h; y++ {
		buf.Write(g.Pix[y*g.Stride : y*g.Stride+w])
	}
	return buf.Bytes()
}
