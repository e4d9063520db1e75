package extract

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Phones store a photo as the sensor saw it and note in its EXIF how to
// turn it for viewing; Go's decoders ignore the note. A photo of a monitor
// taken with the phone held sideways is read the way it is viewed.

// What the EXIF note's Orientation says, and where it sits in a TIFF
// header (TIFF 6, EXIF 2.3): sizes in bytes.
const (
	exifMirrored    = 2      // first Orientation that is not as stored (1 is upright)
	exifTransposed  = 5      // first Orientation that swaps width and height (5 to 8)
	exifLastOrient  = 8      // last Orientation value
	exifOrientTag   = 0x0112 // TIFF tag of Orientation
	tiffShort       = 3      // TIFF field type of an unsigned 16-bit value
	tiffHeaderBytes = 8      // byte order, 42, offset of the first IFD
	ifdCountBytes   = 2      // entry count ahead of an IFD's entries
	ifdEntryBytes   = 12     // one IFD entry: tag, type, count, value
	ifdTagBytes     = 2      // an IFD entry's tag, ahead of its type
)

// Where a JPEG, PNG or WebP file keeps its EXIF note: sizes in bytes.
const (
	jpegPrefix      = 0xFF // the byte every JPEG marker starts with
	jpegMarkerBytes = 2    // 0xFF and the marker's code
	jpegLengthBytes = 2    // a segment's length, which counts itself
	jpegSOS         = 0xDA // start of scan: image data follows
	jpegEOI         = 0xD9 // end of image
	jpegAPP1        = 0xE1 // the segment that holds EXIF
	pngSigBytes     = 8    // PNG signature
	pngChunkHead    = 8    // a chunk's length and type
	pngCRCBytes     = 4    // a chunk's CRC, after its data
	riffChunkHead   = 8    // a RIFF chunk's FourCC and size
	fourCCBytes     = 4    // a RIFF chunk's name

	pngChunkBytes   = pngChunkHead + pngCRCBytes  // a PNG chunk around its data
	riffHeaderBytes = riffChunkHead + fourCCBytes // "RIFF", size, "WEBP"
)

// upright returns pix turned as data's EXIF orientation says (JPEG APP1,
// PNG eXIf or WebP EXIF), or pix itself when there is none.
func upright(data []byte, pix image.Image) image.Image {
	o := exifOrientation(data)
	if o < exifMirrored || o > exifLastOrient {
		return pix
	}
	src := toRGBA(pix)
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= exifTransposed {
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
		for i := jpegMarkerBytes; i+jpegMarkerBytes+jpegLengthBytes <= len(data) && data[i] == jpegPrefix; {
			marker := data[i+1]
			if marker == jpegSOS || marker == jpegEOI { // image data: no EXIF before it
				return 0
			}
			n := int(binary.BigEndian.Uint16(data[i+jpegMarkerBytes:]))
			if n < jpegLengthBytes || i+jpegMarkerBytes+n > len(data) {
				return 0
			}
			seg := data[i+jpegMarkerBytes+jpegLengthBytes : i+jpegMarkerBytes+n]
			if marker == jpegAPP1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
				return tiffOrientation(seg[6:])
			}
			i += jpegMarkerBytes + n
		}
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		for i := pngSigBytes; i+pngChunkBytes <= len(data); {
			n := int(binary.BigEndian.Uint32(data[i:]))
			if n < 0 || i+pngChunkBytes+n > len(data) {
				return 0
			}
			switch string(data[i+4 : i+8]) {
			case "eXIf":
				return tiffOrientation(data[i+pngChunkHead : i+pngChunkHead+n])
			case "IDAT":
				return 0
			}
			i += pngChunkBytes + n
		}
	case len(data) >= riffHeaderBytes && string(data[:fourCCBytes]) == "RIFF" && string(data[riffChunkHead:riffHeaderBytes]) == "WEBP":
		for i := riffHeaderBytes; i+riffChunkHead <= len(data); {
			n := int(binary.LittleEndian.Uint32(data[i+fourCCBytes:]))
			if n < 0 || i+riffChunkHead+n > len(data) {
				return 0
			}
			if string(data[i:i+fourCCBytes]) == "EXIF" {
				return tiffOrientation(bytes.TrimPrefix(data[i+riffChunkHead:i+riffChunkHead+n], []byte("Exif\x00\x00")))
			}
			i += riffChunkHead + n + n%2
		}
	}
	return 0
}

// tiffOrientation reads tag 0x0112 of the first IFD of a TIFF header.
func tiffOrientation(t []byte) int {
	if len(t) < tiffHeaderBytes {
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
	if off < tiffHeaderBytes || off+ifdCountBytes > len(t) {
		return 0
	}
	n := int(bo.Uint16(t[off:]))
	for k := 0; k < n; k++ {
		e := off + ifdCountBytes + ifdEntryBytes*k
		if e+ifdEntryBytes > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == exifOrientTag && bo.Uint16(t[e+ifdTagBytes:]) == tiffShort {
			return int(bo.Uint16(t[e+8:]))
		}
	}
	return 0
}
