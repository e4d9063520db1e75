package screens

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// Fonts are the typefaces screens are drawn with. They are embedded in the
// binary (Go fonts), so a seed draws the same pixels on every machine.
var Fonts = []string{"go-regular", "go-bold", "go-medium", "go-mono", "go-mono-bold", "go-bold-italic"}

var fontData = map[string][]byte{
	"go-regular":     goregular.TTF,
	"go-bold":        gobold.TTF,
	"go-medium":      gomedium.TTF,
	"go-mono":        gomono.TTF,
	"go-mono-bold":   gomonobold.TTF,
	"go-bold-italic": gobolditalic.TTF,
}

var (
	fontMu     sync.Mutex
	fontParsed = map[string]*opentype.Font{}
)

// face returns a new face of the named font at size pixels. Faces are not
// safe for concurrent use, so each screen makes its own.
func face(name string, size float64) font.Face {
	fontMu.Lock()
	f, ok := fontParsed[name]
	if !ok {
		var err error
		f, err = opentype.Parse(fontData[name])
		if err != nil {
			fontMu.Unlock()
			panic(fmt.Sprintf("screens: embedded font %s: %v", name, err))
		}
		fontParsed[name] = f
	}
	fontMu.Unlock()
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("screens: face %s %.1f: %v", name, size, err))
	}
	return fc
}
