package extract

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/upload"
)

// Line is what `pitlane extract` prints per file: the stats fields of the
// API's answer (the kart as a data URL, or null), and an error if any.
type Line struct {
	File string `json:"file"`
	core.Extracted
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
}

// RunCLI reads each file with ex and prints one JSON object per line. It
// fails (after printing every line) when any file could not be read.
func RunCLI(ctx context.Context, ex stats.Reader, files []string, stdout, stderr io.Writer, now func() float64) error {
	if len(files) == 0 {
		return errors.New("usage: pitlane extract FILE [FILE ...]")
	}
	enc := json.NewEncoder(stdout)
	failed := 0
	for _, f := range files {
		line := Line{File: f}
		start := now()
		s, err := readFile(ctx, ex, f)
		line.Seconds = now() - start
		if err != nil {
			failed++
			line.Error = errs.MessageOf(err)
			if errs.KindOf(err) == errs.Internal {
				line.Error = err.Error()
			}
		} else {
			var kart *string
			if len(s.CartImage) > 0 {
				u := "data:" + s.CartImageType + ";base64," + base64.StdEncoding.EncodeToString(s.CartImage)
				kart = &u
			}
			line.Extracted = s.Extracted(kart)
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files could not be read", failed, len(files))
	}
	return nil
}

func readFile(ctx context.Context, ex stats.Reader, name string) (core.Reading, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return core.Reading{}, err
	}
	img, err := upload.Check(data)
	if err != nil {
		return core.Reading{}, err
	}
	return ex.Read(ctx, img, nil)
}
