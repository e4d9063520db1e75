package extract

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Phones store a photo as the sensor saw it and note in its EXIF how to
// turn it for viewing; Go's decoders ignore the note. A photo of a monitor
// taken with the phone held sideways is read the way it is viewed.

// upright returns pix turned as data's EXIF orientation says (JPEG APP1,
// PNG eXIf or WebP EXIF), or pix itself when there is none.
func upright(data []byte, pix image.Image) image.Image {
	o := exifOrientation(data)
	if o < 2 || o > 8 {
		return pix
	}
	src := toRGBA(pix)
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2: // mirrored
				dx, dy = w-1-x, y
			case 3: // turned 180°
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored upside down
				dx, dy = x, h-1-y
			case 5: // mirrored, turned 90° anticlockwise
				dx, dy = y, x
			case 6: // turned 90° clockwise to view
				dx, dy = h-1-y, x
			case 7: // mirrored, turned 90° clockwise
				dx, dy = h-1-y, w-1-x
			case 8: // turned 90° anticlockwise to view
				dx, dy = y, w-1-x
			}
			copy(dst.Pix[dst.PixOffset(dx, dy):dst.PixOffset(dx, dy)+4], src.Pix[src.PixOffset(b.Min.X+x, b.Min.Y+y):])
		}
	}
	return dst
}

// exifOrientation finds the EXIF block of a JPEG, PNG or WebP file and
// returns its Orientation tag (1 to 8), or 0.
func exifOrientation(data []byte) int {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		for i := 2; i+4 <= len(data) && data[i] == 0xFF; {
			marker := data[i+1]
			if marker == 0xDA || marker == 0xD9 { // image data: no EXIF before it
				return 0
			}
			n := int(binary.BigEndian.Uint16(data[i+2:]))
			if n < 2 || i+2+n > len(data) {
				return 0
			}
			seg := data[i+4 : i+2+n]
			if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
				return tiffOrientation(seg[6:])
			}
			i += 2 + n
		}
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		for i := 8; i+12 <= len(data); {
			n := int(binary.BigEndian.Uint32(data[i:]))
			if n < 0 || i+12+n > len(data) {
				return 0
			}
			switch string(data[i+4 : i+8]) {
			case "eXIf":
				return tiffOrientation(data[i+8 : i+8+n])
			case "IDAT":
				return 0
			}
			i += 12 + n
		}
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		for i := 12; i+8 <= len(data); {
			n := int(binary.LittleEndian.Uint32(data[i+4:]))
			if n < 0 || i+8+n > len(data) {
				return 0
			}
			if string(data[i:i+4]) == "EXIF" {
				return tiffOrientation(bytes.TrimPrefix(data[i+8:i+8+n], []byte("Exif\x00\x00")))
			}
			i += 8 + n + n%2
		}
	}
	return 0
}

// tiffOrientation reads tag 0x0112 of the first IFD of a TIFF header.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int(bo.Uint32(t[4:]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	n := int(bo.Uint16(t[off:]))
	for k := 0; k < n; k++ {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 {
			return int(bo.Uint16(t[e+8:]))
		}
	}
	return 0
}
