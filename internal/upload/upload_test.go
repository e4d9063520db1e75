package upload

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract/screens"
)

func encodePNG(w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

func TestCheck(t *testing.T) {
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 300, 200)), nil)
	tests := []struct {
		name string
		data []byte
		kind string
		msg  string
	}{
		{"ErrTextRenamedPNG", []byte("just some text in a file called stats.png\n"), errs.Unsupported, MsgUnsupported},
		{"ErrGIF", []byte("GIF89a\x01\x00\x01\x00"), errs.Unsupported, MsgUnsupported},
		{"ErrNineMegabytes", append(encodePNG(10, 10), make([]byte, 9<<20)...), errs.TooLarge, MsgTooLarge},
		{"ErrPNGBomb", screens.PNGClaiming(20000, 20000), errs.TooLarge, MsgTooManyPixel},
		{"ErrOneSideTooLong", screens.PNGClaiming(5000, 10), errs.TooLarge, MsgTooManyPixel},
		// 4096x4096 passes the side limit, but at 16 bits a channel would
		// take 128 MB to decode from a file of a few KB.
		{"ErrSixteenBitCanvas", screens.PNGClaimingDepth(4096, 4096, 16), errs.TooLarge, MsgTooDeep},
		{"ErrTruncatedJPEG", jpg.Bytes()[:jpg.Len()/2], errs.Unprocessable, MsgCorrupt},
		{"ErrTruncatedPNG", encodePNG(64, 64)[:60], errs.Unprocessable, MsgCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(tc.data)
			if errs.KindOf(err) != tc.kind || errs.MessageOf(err) != tc.msg {
				t.Fatalf("got %s %q, want %s %q", errs.KindOf(err), errs.MessageOf(err), tc.kind, tc.msg)
			}
		})
	}
	t.Run("OKPNG", func(t *testing.T) {
		img, err := Check(encodePNG(120, 80))
		if err != nil || img.MIME != "image/png" || img.Width != 120 || img.Height != 80 || img.Pixels() == nil {
			t.Fatalf("%+v %v", img, err)
		}
	})
	t.Run("OKJPEG", func(t *testing.T) {
		img, err := Check(jpg.Bytes())
		if err != nil || img.MIME != "image/jpeg" {
			t.Fatalf("%+v %v", img, err)
		}
	})
}
