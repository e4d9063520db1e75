package extract

import (
	"bytes"
	"image"
	_ "image/jpeg" // decoders Check relies on
	_ "image/png"

	_ "golang.org/x/image/webp"

	"github.com/pitlane/pitlane/internal/errs"
)

// Limits on an uploaded screenshot.
const (
	MaxBytes     = 8 << 20
	MaxDimension = 4096
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
		return Image{}, wrap(errs.E(errs.Unprocessable, MsgCorrupt), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Image{}, errs.E(errs.Unprocessable, MsgCorrupt)
	}
	if cfg.Width > MaxDimension || cfg.Height > MaxDimension {
		return Image{}, errs.E(errs.TooLarge, MsgTooManyPixel)
	}
	decoded, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return Image{}, wrap(errs.E(errs.Unprocessable, MsgCorrupt), err)
	}
	b := decoded.Bounds()
	return Image{Data: data, MIME: mime, Width: b.Dx(), Height: b.Dy(), decoded: decoded}, nil
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
