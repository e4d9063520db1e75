package extract

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/pitlane/pitlane/internal/extract/photos"
	"github.com/pitlane/pitlane/internal/upload"
)

// Players send what they have: a phone photo of their monitor, a copy
// their chat app recompressed, a crop, a screen with a tooltip over a row.
// None of those can be taken here, so WritePhotos simulates them from real
// captures (photos.Photo and the other transforms), to measure the reader
// on more than the captures it was tuned on. They are simulations: the
// figures they give are reported apart from the real captures'.

// SimPhoto describes one simulated image.
type SimPhoto struct {
	File string `json:"file"` // CAPTURE~how.ext: the capture's own truth applies
	From string `json:"from"`
	How  string `json:"how"`
	// Hidden are figures of the capture this image does not show (a crop
	// without the level's badge): not counted against the reader.
	Hidden []string `json:"hidden,omitempty"`
	// Covered are figures of the capture this image shows the place of
	// but not the digits (the kills under a tooltip): the reader should
	// propose them from the screen's arithmetic. The bench counts them
	// both ways, as shown and as not.
	Covered       []string     `json:"covered,omitempty"`
	Shot          *photos.Shot `json:"shot,omitempty"`
	Width, Height int
}

// PhotoKinds are the simulations WritePhotos makes of each capture.
var PhotoKinds = []string{"phone-4032", "phone-2000", "jpeg", "resized", "crop", "tooltip", "portrait"}

// WritePhotos writes the simulations of every capture (PNG or JPEG) in
// from into dir, and their list as photos.json. A seed fixes every pixel
// (a kind's images are the same whether the others are made or not).
// Without kinds, every one of PhotoKinds is made.
func WritePhotos(from, dir string, seed uint64, kinds ...string) ([]SimPhoto, error) {
	if kinds == nil {
		kinds = PhotoKinds
	}
	var files []string
	for _, pat := range []string{"*.png", "*.jpg", "*.jpeg", "*.webp"} {
		m, _ := filepath.Glob(filepath.Join(from, pat))
		files = append(files, m...)
	}
	slices.Sort(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("extract: no captures in %s", from)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []SimPhoto
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		img, err := upload.Check(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		capture := photos.RGBA(upright(data, img.Pixels()))
		base := filepath.Base(f)
		for _, kind := range kinds {
			p, enc, ok := simulateSeeded(capture, base, kind, seed)
			if !ok {
				continue
			}
			p.From, p.How = base, kind
			p.File = base + "~" + kind + ".jpg"
			if err := os.WriteFile(filepath.Join(dir, p.File), enc, 0o644); err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	js, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return out, os.WriteFile(filepath.Join(dir, "photos.json"), append(js, '\n'), 0o644)
}

// simulateSeeded makes the image of kind that WritePhotos makes of the
// capture named base at seed.
func simulateSeeded(capture *image.RGBA, base, kind string, seed uint64) (SimPhoto, []byte, bool) {
	h := fnv.New64a()
	h.Write([]byte(base))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()^uint64(len(kind))*0x9e3779b97f4a7c15))
	return simulate(capture, kind, rng)
}

// simulate makes one kind of image of capture; ok is false when the kind
// needs the Stats panel and the capture's cannot be found.
func simulate(capture *image.RGBA, kind string, rng *rand.Rand) (SimPhoto, []byte, bool) {
	var p SimPhoto
	var img *image.RGBA
	quality := 85 + rng.IntN(8)
	switch kind {
	case "phone-4032", "phone-2000":
		// A phone at arm's length: the 4032 px photo has the monitor
		// small and turned further, the 2000 px one fills the frame.
		s := photos.RandomShot(rng, 4032, 3024, 15+20*rng.Float64(), 0.5)
		if kind == "phone-2000" {
			s = photos.RandomShot(rng, 2000, 1500, 8+14*rng.Float64(), 0.85)
		}
		img, _ = photos.Photo(capture, rng, s)
		p.Shot, quality = &s, s.Quality
	case "jpeg": // a chat app's copy
		img, quality = capture, 30+rng.IntN(21)
	case "resized":
		img = photos.Scale(capture, 0.55+0.25*rng.Float64())
	case "crop", "tooltip":
		pn, ok := simPanel(capture)
		if !ok {
			return p, nil, false
		}
		rows := pn.rows
		top, pitch := rows[0], rows[1].Min.Y-rows[0].Min.Y
		if kind == "tooltip" {
			// Over the Kills row's number, as a browser's tooltip for
			// something under the mouse would be.
			img = photos.RGBA(capture)
			x := pn.mid.Max.X + (top.Max.X-pn.mid.Max.X)/4
			photos.Tooltip(img, image.Pt(x, top.Min.Y+top.Dy()/5), fmt.Sprintf("%d,%03d", 10+rng.IntN(90), rng.IntN(1000)), top.Dy()*4/5)
			p.Covered = []string{"kills"}
			break
		}
		// The panel cut close, with the level's badge above it or not,
		// then made small as a chat app's thumbnail.
		m := pitch / 3
		area := image.Rect(top.Min.X-m-rng.IntN(m+1), top.Min.Y-m, top.Max.X+m+rng.IntN(m+1), rows[len(rows)-1].Max.Y+m+rng.IntN(m+1))
		if rng.IntN(2) == 0 {
			// The badge is at the menu's top left, above the panel.
			area.Min = image.Pt(capture.Bounds().Min.X, top.Min.Y-pitch*6)
		} else {
			p.Hidden = []string{"level"}
		}
		area = area.Intersect(capture.Bounds())
		b := capture.Bounds()
		img = photos.Crop(capture, float64(area.Min.X-b.Min.X)/float64(b.Dx()), float64(area.Min.Y-b.Min.Y)/float64(b.Dy()),
			float64(area.Max.X-b.Min.X)/float64(b.Dx()), float64(area.Max.Y-b.Min.Y)/float64(b.Dy()))
		if w := img.Bounds().Dx(); w > 160 {
			img = photos.Scale(img, float64(150+rng.IntN(150))/float64(w))
		}
	case "portrait":
		return portrait(capture, rng)
	default:
		return p, nil, false
	}
	p.Width, p.Height = img.Bounds().Dx(), img.Bounds().Dy()
	return p, photos.JPEG(img, quality), true
}
