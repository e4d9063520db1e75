package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/screens"
)

// extractFiles is `pitlane extract FILE...`: the configured reader (Gemini
// with a key, else Tesseract) over each screenshot, one JSON line per file.
// `pitlane extract -screens DIR -n N` writes N synthetic stats screens and
// their truth.json instead, and `pitlane extract -photos DIR -from CAPTURES`
// simulated phone photos, crops and copies of real captures, for the
// accuracy benchmark.
func extractFiles(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	screensDir := fs.String("screens", "", "write synthetic stats screens and truth.json into this folder")
	n := fs.Int("n", 60, "with -screens: how many")
	seed := fs.Int64("seed", 1, "with -screens or -photos: the generator's seed")
	photosDir := fs.String("photos", "", "write simulated phone photos, crops and copies of the captures in -from into this folder")
	from := fs.String("from", "", "with -photos: the folder of real captures")
	kinds := fs.String("kinds", "", "with -photos: only these kinds, comma-separated (default all: "+strings.Join(extract.PhotoKinds, ",")+")")
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if *photosDir != "" {
		made, err := extract.WritePhotos(*from, *photosDir, uint64(*seed), photoKinds(*kinds)...)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d simulated images and photos.json into %s\n", len(made), *photosDir)
		return nil
	}
	if *screensDir != "" {
		if _, err := screens.WriteScreens(*screensDir, *n, *seed); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d screens and truth.json into %s\n", *n, *screensDir)
		return nil
	}
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return err
	}
	ex, err := extract.New(extract.Options{GeminiAPIKey: cfg.GeminiAPIKey, TextModel: cfg.GeminiTextModel,
		ImageModel: cfg.GeminiImageModel, BaseURL: cfg.GeminiBaseURL})
	if errors.Is(err, extract.ErrNoTesseract) {
		fmt.Fprintln(stderr, "pitlane:", err)
	} else if err != nil {
		return err
	}
	start := time.Now()
	return extract.RunCLI(ctx, ex, fs.Args(), stdout, stderr, func() float64 { return time.Since(start).Seconds() })
}

// photoKinds is the -kinds flag's list; nil (every kind) when empty.
func photoKinds(flag string) []string {
	if flag == "" {
		return nil
	}
	return strings.Split(flag, ",")
}
