// Package extract reads a player's Smash Karts stats from a screenshot of
// the in-game stats screen: Check vets the upload, an Extractor (Gemini when
// an API key is configured, else Tesseract OCR) returns the Stats, and
// Stats.Validate says whether they may be saved.
package extract

import (
	"context"
	"image"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
)

// Messages a user may see, verbatim from the seed where it has them.
const (
	MsgNoData       = "No data extracted from image"
	MsgFailed       = "Failed to extract stats from image"
	MsgUnclear      = "Error processing image. Please try again with a clearer screenshot."
	MsgUnsupported  = "Only PNG, JPEG or WebP images are accepted"
	MsgTooLarge     = "Image is larger than 8 MB"
	MsgTooManyPixel = "Image is larger than 4096x4096 pixels"
	MsgCorrupt      = "Image is damaged or incomplete"
	MsgTooDeep      = "Image is too large to process: please send an ordinary 8-bit screenshot"
	MsgUnavailable  = "Reading stats from screenshots is unavailable right now. Please try again later."
)

// Progress stages an Extractor reports, in order. The caller adds
// "received", "done" and "failed" around them.
const (
	StageReading    = "reading"
	StageExtracting = "extracting"
	StageRendering  = "rendering"
)

// Stats are the fields read from a stats screen, as strings like the seed's
// extracted stats. CartImage is the kart alone (PNG or what the image model
// returned); the caller stores it and serves a URL.
type Stats struct {
	DiscordUsername string `json:"discord_username"` // the in-game player name
	Level           string `json:"level"`
	Kills           string `json:"kills"`
	Deaths          string `json:"deaths"`
	TotalGames      string `json:"total_games"`
	SkID            string `json:"sk_id"`
	KDRatio         string `json:"kd_ratio"`

	CartImage     []byte `json:"-"`
	CartImageType string `json:"-"`
}

// Extractor reads Stats from a checked image. progress, if not nil, is
// called with each stage as it starts, from the calling goroutine.
type Extractor interface {
	Extract(ctx context.Context, img Image, progress func(stage string)) (Stats, error)
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
}

// Default Gemini models, used when Options leave them empty.
const (
	DefaultTextModel  = "gemini-2.5-flash"
	DefaultImageModel = "gemini-2.5-flash-image"
)

// New returns the Gemini extractor when opts.GeminiAPIKey is set, else the
// offline OCR extractor. The OCR extractor fails here, not on first use,
// when tesseract cannot be found.
func New(opts Options) (Extractor, error) {
	if opts.GeminiAPIKey == "" {
		return newOCR(opts)
	}
	g, err := newGemini(opts)
	if err != nil || !opts.OfflineFallback {
		return g, err
	}
	o, err := newOCR(Options{TesseractPath: opts.TesseractPath})
	if err != nil {
		return g, nil // no tesseract: Gemini alone
	}
	return fallback{primary: g, offline: o}, nil
}

// fallback reads with primary and, when primary's service fails (a 502
// kind of error), with the offline reader. If that fails too, the answer is
// primary's error: "no stats found" from a weaker reader would mislead.
type fallback struct {
	primary, offline Extractor
}

func (f fallback) Extract(ctx context.Context, img Image, progress func(string)) (Stats, error) {
	s, err := f.primary.Extract(ctx, img, progress)
	if err == nil || errs.KindOf(err) != errs.Upstream || ctx.Err() != nil {
		return s, err
	}
	if s2, err2 := f.offline.Extract(ctx, img, progress); err2 == nil {
		return s2, nil
	}
	return s, err
}

// Unavailable is the extractor of a server that has no reader (no
// GEMINI_API_KEY and no tesseract): uploads answer 503, the rest of the
// site works.
func Unavailable() Extractor { return unavailable{} }

type unavailable struct{}

func (unavailable) Extract(context.Context, Image, func(string)) (Stats, error) {
	return Stats{}, errs.E(errs.Unavailable, MsgUnavailable)
}

// Image is an upload that passed Check: its bytes, sniffed MIME type and
// size, and the decoded pixels so extractors do not decode twice.
type Image struct {
	Data          []byte
	MIME          string
	Width, Height int

	decoded image.Image
}

// Pixels returns the decoded image.
func (img Image) Pixels() image.Image { return img.decoded }

// upstream and noData are the two failures every extractor shares.
func upstream(cause error) error { return errs.Wrap(errs.E(errs.Upstream, MsgFailed), cause) }
func noData() error              { return errs.E(errs.Unprocessable, MsgNoData) }
