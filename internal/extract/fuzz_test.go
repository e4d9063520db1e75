package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/upload"
)

// The fuzz targets run the reader's stages without their guard, so that a
// panic fails them instead of becoming a 422. `go test` runs their seed
// corpora (made here: drawn screens and, when they are beside the
// repository, the real captures; cut, scaled, inverted, turned, tiny,
// huge, blank); scripts/test.sh fuzzes each for a bounded time.

// readStages runs every stage of the offline reader that needs no
// Tesseract on a decoded screenshot.
func readStages(pix image.Image) core.Reading {
	r, _ := readStatsScreen(pix)
	r.Check()
	pg := preparePage(pix, workShort)
	kart, ok := findKart(pg, nil)
	missedLines(pg, nil, kart)
	if ok {
		cropKart(pg, pix, kart)
	}
	return r
}

// fuzzBases are the screens the image fuzz targets start from: drawn
// screens of each layout (the one that crashed the glyph splitter first),
// then up to real of the real captures when they are here, all at most
// 900 px a side so that a fuzz run tries many.
func fuzzBases(real int) []*image.RGBA {
	all := allBases()
	return all[:min(len(all), 1+len(screens.Layouts)+real)]
}

var drawnBases = sync.OnceValue(func() []*image.RGBA {
	drawn, _ := screens.GenerateLayout(354, "rows")
	out := []*image.RGBA{fuzzSize(drawn.Image)}
	for i, l := range screens.Layouts {
		s, _ := screens.GenerateLayout(int64(i+1), l)
		out = append(out, fuzzSize(s.Image))
	}
	return out
})

// allBases are the drawn bases and the real captures: a fifth of them,
// spread over their names, under go test; every one under EXTRACT_SWEEP.
var allBases = sync.OnceValue(func() []*image.RGBA {
	out := drawnBases()
	files, _ := filepath.Glob(filepath.Join(realScreensDir(), "*.[pj][np]g"))
	sort.Strings(files)
	for _, f := range Sample(files, (len(files)+4)/5) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if img, err := upload.Check(data); err == nil {
			out = append(out, fuzzSize(upright(data, img.Pixels())))
		}
	}
	return out
})

// realScreensDir is the folder of the real development set (REAL_SCREENS,
// or its place beside the repository or a worktree's parent), or "".
func realScreensDir() string {
	if d := os.Getenv("REAL_SCREENS"); d != "" {
		return d
	}
	for _, d := range []string{"../../../shared/data/real-screens", "../../../../shared/data/real-screens"} {
		if _, err := os.Stat(filepath.Join(d, "truth.json")); err == nil {
			return d
		}
	}
	return ""
}

func fuzzSize(img image.Image) *image.RGBA {
	b := img.Bounds()
	if s := 900 / float64(max(b.Dx(), b.Dy())); s < 1 {
		return photos.Scale(img, s)
	}
	return photos.RGBA(img)
}

// Flags of FuzzScreen: what is done to the base screen, in this order.
const (
	fzInvert = 1 << iota
	fzBlur
	fzNoise
	fzTooltip
	fzPhoto // seen by a phone at an angle, on a desk
	fzJPEG  // recompressed at the given quality
	fzEXIF  // stored turned, with the EXIF orientation that turns it back
	fzBlank // a blank screen of the base's size instead
)

// screenOf makes the image FuzzScreen reads: base cut to (x0, y0)-(x1, y1)
// (in 255ths), scaled by scale/32 (0.03 to 8, at most 4096 px a side),
// turned by turn tenths of a degree, and the flags.
func screenOf(base *image.RGBA, x0, y0, x1, y1, scale uint8, turn int16, flags, quality uint8) []byte {
	img := base
	if flags&fzBlank != 0 {
		img = photos.Blank(base.Bounds().Dx(), base.Bounds().Dy(), color.RGBA{quality, 255 - quality, quality / 2, 255})
	}
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	img = photos.Crop(img, float64(x0)/255, float64(y0)/255, float64(x1)/255+1e-3, float64(y1)/255+1e-3)
	b := img.Bounds()
	s := max(float64(scale), 1) / 32
	s = min(s, 4096/float64(b.Dx()), 4096/float64(b.Dy()))
	img = photos.Scale(img, s)
	if turn%3600 != 0 {
		img = photos.Rotate(img, float64(turn)/10, color.RGBA{30, 30, 34, 255})
		if b := img.Bounds(); b.Dx() > 4096 || b.Dy() > 4096 {
			img = photos.Scale(img, 4096/float64(max(b.Dx(), b.Dy())))
		}
	}
	rng := rand.New(rand.NewPCG(uint64(quality), uint64(flags)))
	if flags&fzInvert != 0 {
		img = photos.Invert(img)
	}
	if flags&fzBlur != 0 {
		photos.Blur(img, 1+int(quality%3))
	}
	if flags&fzNoise != 0 {
		photos.Noise(img, rng, float64(quality%48))
	}
	if flags&fzTooltip != 0 {
		b := img.Bounds()
		photos.Tooltip(img, image.Pt(b.Dx()*int(x1)/512, b.Dy()*int(y1)/512), "26,288", 4+b.Dy()/20)
	}
	if flags&fzPhoto != 0 {
		b := img.Bounds()
		w := min(4096, max(64, b.Dx()*3/2))
		img, _ = photos.Photo(img, rng, photos.RandomShot(rng, w, w*3/4, float64(quality%40), 0.7))
	}
	if flags&fzEXIF != 0 {
		o := 1 + int(quality%8)
		// Store the pixels as a camera would before orientation o turns
		// them for viewing.
		stored := map[int]int{3: 2, 6: 3, 8: 1}[o]
		return photos.WithOrientation(photos.JPEG(photos.Quarter(img, stored), 90), o)
	}
	if flags&fzJPEG != 0 {
		return photos.JPEG(img, int(quality%100)+1)
	}
	return photos.PNG(img)
}

// FuzzScreen reads screens made from the bases as players' screenshots
// come: cut, scaled, turned, inverted, blurred, grainy, with a tooltip,
// photographed at an angle, recompressed, stored sideways, or blank.
func FuzzScreen(f *testing.F) {
	// A fuzzing run starts from a dozen bases (each of its workers loads
	// them): it mutates the base too.
	bases := fuzzBases(1 << 10)
	if fuzzing() {
		bases = fuzzBases(6)
	}
	type seed struct {
		x0, y0, x1, y1, scale uint8
		turn                  int16
		flags, quality        uint8
	}
	ways := []seed{
		{0, 0, 255, 255, 32, 0, 0, 0},                    // as it is
		{0, 0, 140, 255, 32, 0, 0, 0},                    // the left part (the panel)
		{20, 60, 120, 200, 32, 0, 0, 0},                  // a small cut
		{0, 0, 255, 255, 8, 0, 0, 0},                     // a quarter the size
		{0, 0, 255, 255, 2, 0, 0, 0},                     // tiny
		{0, 0, 255, 255, 150, 0, 0, 0},                   // huge
		{0, 0, 255, 255, 32, 0, fzInvert, 0},             // inverted
		{0, 0, 255, 255, 32, 30, 0, 0},                   // tilted 3°
		{0, 0, 255, 255, 32, 900, 0, 0},                  // turned a quarter
		{0, 0, 255, 255, 32, 450, 0, 0},                  // turned 45°
		{0, 0, 255, 255, 32, 0, fzBlur | fzNoise, 20},    // blurred, grainy
		{0, 0, 255, 255, 32, 0, fzTooltip, 0},            // a tooltip
		{0, 0, 255, 255, 32, 0, fzPhoto | fzJPEG, 85},    // a phone photo
		{0, 0, 255, 255, 32, 0, fzJPEG, 20},              // JPEG quality 21
		{0, 0, 255, 255, 32, 0, fzEXIF, 5},               // stored sideways (orientation 6)
		{0, 0, 255, 255, 32, 0, fzBlank, 0},              // blank
		{0, 0, 255, 255, 32, 1, fzInvert | fzTooltip, 3}, // a little of everything
	}
	// Every way on the screen that crashed the glyph splitter, four on
	// each other drawn screen and one on each real capture allBases
	// loads, in turn, so that every way meets drawn and real
	// screens and the corpus reads in seconds.
	drawn := len(drawnBases())
	for i := range bases {
		n := 1
		switch {
		case i == 0:
			n = len(ways)
		case i < drawn:
			n = 4
		}
		for k := range n {
			w := ways[(i*4+k)%len(ways)]
			f.Add(uint8(i), w.x0, w.y0, w.x1, w.y1, w.scale, w.turn, w.flags, w.quality)
		}
	}
	f.Fuzz(func(t *testing.T, base, x0, y0, x1, y1, scale uint8, turn int16, flags, quality uint8) {
		data := screenOf(bases[int(base)%len(bases)], x0, y0, x1, y1, scale, turn, flags, quality)
		img, err := upload.Check(data)
		if err != nil {
			return
		}
		readStages(upright(data, img.Pixels()))
	})
}

// fuzzing tells whether this run fuzzes (go test -fuzz) rather than
// reads the seed corpora.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// FuzzUpload reads whatever bytes come as a screenshot: Check, EXIF and
// every stage of the offline reader that needs no Tesseract.
func FuzzUpload(f *testing.F) {
	for i, b := range drawnBases() {
		small := photos.Scale(b, 120/float64(b.Bounds().Dx()))
		if i%2 == 0 {
			f.Add(photos.PNG(small))
		} else {
			f.Add(photos.WithOrientation(photos.JPEG(small, 70), 1+i%8))
		}
	}
	f.Add(photos.PNG(photos.Blank(1, 1, color.Black)))
	f.Add(photos.PNG(photos.Blank(3000, 2, color.White)))
	f.Add(photos.JPEG(photos.Blank(2, 3000, color.Gray{128}), 50))
	f.Add(pngWithEXIF(photos.Blank(40, 30, color.White), 6))
	f.Add([]byte("RIFF\x1a\x00\x00\x00WEBPEXIF\x0e\x00\x00\x00Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil && cfg.Width*cfg.Height > 1<<16 {
			return // large screens are FuzzScreen's: here they would slow the search
		}
		img, err := upload.Check(data)
		if err != nil {
			return
		}
		start := time.Now()
		readStages(upright(data, img.Pixels()))
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%v to read a %v screen", d, img.Pixels().Bounds())
		}
	})
}

// pngWithEXIF is img as a PNG with an eXIf chunk giving orientation o.
func pngWithEXIF(img image.Image, o int) []byte {
	data := photos.PNG(img)
	tiff := photos.WithOrientation([]byte{0xFF, 0xD8}, o)[12:] // the TIFF block of the APP1 segment
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(tiff)))
	body := append([]byte("eXIf"), tiff...)
	chunk = append(chunk, body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(body))
	return append(append(append([]byte{}, data[:33]...), chunk...), data[33:]...) // after IHDR
}

// FuzzEXIF finds the orientation in any bytes and turns a small image by
// it.
func FuzzEXIF(f *testing.F) {
	jpg := photos.JPEG(photos.Blank(3, 2, color.White), 90)
	for o := range 9 {
		f.Add(photos.WithOrientation(jpg, o))
	}
	f.Add(pngWithEXIF(photos.Blank(3, 2, color.White), 8))
	f.Add([]byte("RIFF\x1a\x00\x00\x00WEBPEXIF\x0e\x00\x00\x00Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08"))
	small := photos.Blank(3, 2, color.White)
	f.Fuzz(func(t *testing.T, data []byte) {
		if o := exifOrientation(data); o < 0 || o > 0xFFFF {
			t.Fatalf("orientation %d", o)
		}
		upright(data, small)
	})
}

// FuzzGlyphs reads a line of glyphs of any ink: the glyph splitter, the
// digit and label matchers.
func FuzzGlyphs(f *testing.F) {
	for _, text := range []string{"4791", "1.79", "26288", "7", "Kills", "Bots Kills", "11"} {
		for _, size := range []int{6, 12, 24, 48} {
			mask, w := drawText(text, size)
			f.Add(uint16(w), maskBytes(mask))
		}
	}
	f.Add(uint16(1), []byte{0})
	f.Add(uint16(7), bytes.Repeat([]byte{0}, 49))
	f.Add(uint16(30), bytes.Repeat([]byte{0, 255, 0, 0, 255}, 60))
	f.Fuzz(func(t *testing.T, w uint16, pix []byte) {
		if w == 0 || len(pix) < int(w) || len(pix) > 1<<18 {
			return
		}
		h := len(pix) / int(w)
		g := image.NewGray(image.Rect(0, 0, int(w), h))
		copy(g.Pix, pix)
		readGlyphs(g)
		wordCosts(g, panelWords())
	})
}

// maskBytes is a mask as dark ink on white.
func maskBytes(m []bool) []byte {
	out := make([]byte, len(m))
	for i, on := range m {
		if !on {
			out[i] = 255
		}
	}
	return out
}

// FuzzWords runs what Tesseract's words go through (its TSV parsed, labels
// paired with values, the name, the kart beside them) on any TSV.
func FuzzWords(f *testing.F) {
	row := func(x, y, w, h int, conf, text string) string {
		return strings.Join([]string{"5", "1", "1", "1", "1", "1", strconv.Itoa(x), strconv.Itoa(y), strconv.Itoa(w), strconv.Itoa(h), conf, text}, "\t")
	}
	f.Add(strings.Join([]string{
		"level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
		row(100, 40, 220, 60, "91.5", "TurboKing"), row(100, 140, 60, 30, "90", "Level"), row(400, 140, 40, 30, "88", "42"),
		row(100, 200, 60, 30, "93", "Kills"), row(400, 200, 90, 30, "90", "5,200"), row(100, 260, 80, 30, "92", "Deaths"),
		row(400, 260, 90, 30, "91", "2,600"), row(100, 320, 50, 30, "90", "K/D"), row(400, 320, 60, 30, "89", "2.00"),
		row(100, 380, 70, 30, "90", "Games"), row(400, 380, 70, 30, "90", "1800"), row(100, 440, 40, 30, "70", "ID"),
		row(400, 440, 140, 30, "80", "#123456"),
	}, "\n"))
	f.Add(row(0, 0, 0, 0, "-1", "Bots") + "\n" + row(-5, -5, 1<<30, 1<<30, "1e309", "KDR"))
	f.Add(row(10, 10, 1, 1, "95", "1.79") + "\n" + row(12, 10, 1, 1, "95", ",") + "\n" + row(14, 10, 1, 1, "95", "5"))
	page := preparePage(photos.Blank(450, 300, color.RGBA{20, 30, 80, 255}), 300)
	f.Fuzz(func(t *testing.T, tsv string) {
		words := parseTSV([]byte(tsv))
		if len(words) > 400 {
			return
		}
		kart, _ := findKart(page, words)
		missedLines(page, words, kart)
		r := readLayout(words, kart)
		s := finish(r.stats()).reading()
		s.Check()
		gameScreen(words)
	})
}

// Odd screenshots (60 under go test, 300 under EXTRACT_SWEEP: the fuzz bases cut, scaled, turned,
// inverted, blurred, grainy, tooltipped, photographed, recompressed,
// stored sideways or blank, at random) through the offline reader as the
// server runs it: each is a reading or an error the player is told, and
// none is a panic caught by the reader's guard.
func TestOddScreenshotsAreReadOrRefused(t *testing.T) {
	ex, _ := newOCR(Options{TesseractPath: "no-such-tesseract"})
	bases := fuzzBases(1 << 10)
	n := 60 // under go test; make bench-extract reads 300 (EXTRACT_SWEEP)
	if Sweep() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(21, 1))
	read, refused := 0, 0
	for i := range n {
		u8 := func() uint8 { return uint8(rng.IntN(256)) }
		base, x0, y0, x1, y1 := rng.IntN(len(bases)), u8(), u8(), u8(), u8()
		if rng.IntN(2) == 0 { // half of them whole, as most uploads are
			x0, y0, x1, y1 = 0, 0, 255, 255
		}
		scale, turn, flags, quality := uint8(2+rng.IntN(46)), int16(0), u8(), u8()
		if rng.IntN(3) == 0 {
			turn = int16(rng.IntN(3601))
		}
		flags &^= fzBlank
		if i%50 == 0 {
			flags |= fzBlank
		}
		name := fmt.Sprintf("#%d (base %d, cut %d,%d-%d,%d, scale %d/32, turn %d/10°, flags %b, quality %d)",
			i, base, x0, y0, x1, y1, scale, turn, flags, quality)
		data := screenOf(bases[base], x0, y0, x1, y1, scale, turn, flags, quality)
		img, err := upload.Check(data)
		if err != nil {
			t.Fatalf("%s: the image made is not an upload: %v", name, err)
		}
		r, err := ex.Read(context.Background(), img, nil)
		var p *Panic
		switch {
		case errors.As(err, &p):
			t.Errorf("%s: the reader panicked in %s: %v at %v", name, p.Stage, p.Value, p.At)
		case err == nil && !r.Figures():
			t.Errorf("%s: a reading without figures", name)
		case err == nil:
			read++
		case errs.MessageOf(err) == "" || errs.KindOf(err) == errs.Internal || errs.KindOf(err) == errs.Upstream:
			t.Errorf("%s: %v", name, err)
		default:
			refused++
		}
	}
	t.Logf("%d odd screenshots: %d read, %d refused with a message", n, read, refused)
}
