package screens

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
)

// Encode returns the screen's image in its truth's format.
func Encode(s Screen) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if s.Truth.Format == "jpeg" {
		err = jpeg.Encode(&buf, s.Image, &jpeg.Options{Quality: s.Quality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, s.Image)
	}
	return buf.Bytes(), err
}

// FileName is the name WriteScreens gives screen i.
func FileName(i int, t Truth) string {
	ext := ".png"
	if t.Format == "jpeg" {
		ext = ".jpg"
	}
	return fmt.Sprintf("screen-%03d-%s%s", i, t.Layout, ext)
}

// WriteScreens draws n screens into dir (layouts in turn, everything else
// from seed) and writes their truths to dir/truth.json.
func WriteScreens(dir string, n int, seed int64) ([]Truth, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	truths := make([]Truth, 0, n)
	for i := 0; i < n; i++ {
		s, err := GenerateLayout(seed*1_000_003+int64(i), Layouts[i%len(Layouts)])
		if err != nil {
			return nil, err
		}
		data, err := Encode(s)
		if err != nil {
			return nil, fmt.Errorf("screens: encode %d: %w", i, err)
		}
		s.Truth.File = FileName(i, s.Truth)
		if err := os.WriteFile(filepath.Join(dir, s.Truth.File), data, 0o644); err != nil {
			return nil, err
		}
		truths = append(truths, s.Truth)
	}
	js, err := json.MarshalIndent(truths, "", "  ")
	if err != nil {
		return nil, err
	}
	return truths, os.WriteFile(filepath.Join(dir, "truth.json"), append(js, '\n'), 0o644)
}

// PNGClaiming is a PNG signature and header that claim w x h pixels and hold
// nothing else: a decompression bomb as an upload check sees it.
func PNGClaiming(w, h uint32) []byte { return PNGClaimingDepth(w, h, 8) }

// PNGClaimingDepth is PNGClaiming with the given bits per channel (8 or 16).
func PNGClaimingDepth(w, h uint32, depth byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = depth, 6 // RGBA
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}
