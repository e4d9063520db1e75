// Package extract holds the stats readers: a player's Smash Karts stats read
// from a screenshot of the in-game stats screen, by Gemini when an API key
// is configured, else offline by Tesseract OCR. Both implement
// stats.Reader and return a core.Reading, checked by the core's rules.
package extract

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/upload"
)

// Messages a user may see, verbatim from the seed where it has them.
const (
	MsgNoData      = "No data extracted from image"
	MsgFailed      = "Failed to extract stats from image"
	MsgUnclear     = "Error processing image. Please try again with a clearer screenshot."
	MsgUnavailable = "Reading stats from screenshots is unavailable right now. Please try again later."
)

// Progress stages a reader reports, in order. The caller adds
// "received", "done" and "failed" around them.
const (
	StageReading    = "reading"
	StageExtracting = "extracting"
	StageRendering  = "rendering"
)

// raw is what a reader saw, as strings, before reading() turns it into
// figures once.
type raw struct {
	DiscordUsername string // the in-game player name
	Level           string
	Kills           string
	Deaths          string
	TotalGames      string
	SkID            string
	KDRatio         string
	Wins            string // not games played
	BotsKills       string // not kills
}

// Options configure New. Zero values pick sensible defaults.
type Options struct {
	// GeminiAPIKey selects the Gemini extractor; empty selects offline OCR.
	GeminiAPIKey string
	TextModel    string // default DefaultTextModel
	ImageModel   string // default DefaultImageModel
	BaseURL      string // default Google's endpoint; tests point it at a fake
	// Timeout bounds one whole extraction (default 60s for Gemini, 20s for OCR).
	Timeout time.Duration
	// TesseractPath is the tesseract binary (default "tesseract" on PATH).
	TesseractPath string
	HTTPClient    *http.Client
	// OfflineFallback, with GeminiAPIKey, reads with the offline reader
	// when Gemini fails (an outage, a spent quota, a time-out), as long as
	// tesseract is installed: a Gemini fault costs accuracy, not the feature.
	OfflineFallback bool
	// Log receives a line per screenshot a reader broke on (default
	// slog.Default()).
	Log *slog.Logger
}

// Default Gemini models, used when Options leave them empty.
const (
	DefaultTextModel  = "gemini-2.5-flash"
	DefaultImageModel = "gemini-2.5-flash-image"
)

// New returns the Gemini extractor when opts.GeminiAPIKey is set, else the
// offline reader. Without tesseract the offline reader still reads the
// game's Stats panel: New returns it with ErrNoTesseract, a warning.
func New(opts Options) (stats.Reader, error) {
	if opts.GeminiAPIKey == "" {
		o, err := newOCR(opts)
		return named(o, core.SourceOffline), err
	}
	g, err := newGemini(opts)
	if err != nil || !opts.OfflineFallback {
		return named(g, core.SourceGemini), err
	}
	o, _ := newOCR(Options{TesseractPath: opts.TesseractPath}) // without tesseract: the Stats panel only
	return fallback{primary: named(g, core.SourceGemini), offline: named(o, core.SourceOffline)}, nil
}

// named marks each reading of r with the reader's name (core.Reading's
// Reader), which the funnel counts stats by.
func named(r stats.Reader, name string) stats.Reader {
	if r == nil {
		return nil
	}
	return namedReader{r, name}
}

type namedReader struct {
	stats.Reader
	name string
}

func (n namedReader) Read(ctx context.Context, img upload.Image, progress func(string)) (core.Reading, error) {
	r, err := n.Reader.Read(ctx, img, progress)
	if err == nil && r.Reader == "" {
		r.Reader = n.name
	}
	return r, err
}

// fallback reads with primary and, when primary's service fails (a 502
// kind of error), with the offline reader. If that fails too, the answer is
// primary's error: "no stats found" from a weaker reader would mislead.
type fallback struct {
	primary, offline stats.Reader
}

func (f fallback) Read(ctx context.Context, img upload.Image, progress func(string)) (core.Reading, error) {
	s, err := f.primary.Read(ctx, img, progress)
	if err == nil || errs.KindOf(err) != errs.Upstream || ctx.Err() != nil {
		return s, err
	}
	if s2, err2 := f.offline.Read(ctx, img, progress); err2 == nil {
		return s2, nil
	}
	return s, err
}

// Unavailable is the extractor of a server that has no reader (no
// GEMINI_API_KEY and no tesseract): uploads answer 503, the rest of the
// site works.
func Unavailable() stats.Reader { return unavailable{} }

type unavailable struct{}

func (unavailable) Read(context.Context, upload.Image, func(string)) (core.Reading, error) {
	return core.Reading{}, errs.E(errs.Unavailable, MsgUnavailable)
}

// upstream and noData are the two failures every extractor shares.
func upstream(cause error) error { return errs.Wrap(errs.E(errs.Upstream, MsgFailed), cause) }
func noData() error              { return errs.E(errs.Unprocessable, MsgNoData) }
