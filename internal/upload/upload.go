// Package upload vets an uploaded image before anything expensive happens:
// its type by its bytes, its size, its canvas and its decoding budget. It
// does no I/O; screenshots, kart images and avatars all pass it.
package upload

import (
	"bytes"
	"image"
	"image/color"
	_ "image/jpeg" // decoders Check relies on
	_ "image/png"

	_ "golang.org/x/image/webp"

	"github.com/pitlane/pitlane/internal/errs"
)

// Messages a user may see.
const (
	MsgUnsupported  = "Only PNG, JPEG or WebP images are accepted"
	MsgTooLarge     = "Image is larger than 8 MB"
	MsgTooManyPixel = "Image is larger than 4096x4096 pixels"
	MsgCorrupt      = "Image is damaged or incomplete"
	MsgTooDeep      = "Image is too large to process: please send an ordinary 8-bit screenshot"
)

// Image is an upload that passed Check: its bytes, sniffed MIME type and
// size, and the decoded pixels so readers do not decode twice.
type Image struct {
	Data          []byte
	MIME          string
	Width, Height int

	decoded image.Image
}

// Pixels returns the decoded image (nil for an Image not made by Check).
func (img Image) Pixels() image.Image { return img.decoded }

// Limits on an uploaded image.
const (
	MaxBytes     = 8 << 20
	MaxDimension = 4096
	// MaxDecoded bounds the memory a decoded image may take: 4096x4096 at
	// 8 bits a channel fits, the same canvas at 16 bits (a 137 KB PNG can
	// claim it) does not.
	MaxDecoded = 64 << 20
)

// Check vets an upload before anything expensive happens: PNG, JPEG or WebP
// recognised by their bytes (never the file name), at most MaxBytes, at
// most MaxDimension pixels a side according to the header (so a small file
// claiming a huge canvas is refused before any pixel is allocated), and
// decodable to the end.
func Check(data []byte) (Image, error) {
	if len(data) > MaxBytes {
		return Image{}, errs.E(errs.TooLarge, MsgTooLarge)
	}
	mime := sniff(data)
	if mime == "" {
		return Image{}, errs.E(errs.Unsupported, MsgUnsupported)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, errs.Wrap(errs.E(errs.Unprocessable, MsgCorrupt), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Image{}, errs.E(errs.Unprocessable, MsgCorrupt)
	}
	if cfg.Width > MaxDimension || cfg.Height > MaxDimension {
		return Image{}, errs.E(errs.TooLarge, MsgTooManyPixel)
	}
	if cfg.Width*cfg.Height*bytesPerPixel(cfg.ColorModel) > MaxDecoded {
		return Image{}, errs.E(errs.TooLarge, MsgTooDeep)
	}
	decoded, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return Image{}, errs.Wrap(errs.E(errs.Unprocessable, MsgCorrupt), err)
	}
	b := decoded.Bounds()
	return Image{Data: data, MIME: mime, Width: b.Dx(), Height: b.Dy(), decoded: decoded}, nil
}

// bytesPerPixel is what the standard decoders allocate per pixel for m.
func bytesPerPixel(m color.Model) int {
	switch m {
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.Gray16Model:
		return 2
	case color.GrayModel, color.AlphaModel:
		return 1
	}
	return 4
}

// sniff returns the MIME type of a PNG, JPEG or WebP file, "" otherwise.
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}
