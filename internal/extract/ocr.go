package extract

import (
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// workShort is the short side, in pixels, screenshots are scaled to before
// OCR: labels then stand about 25 px tall, which Tesseract reads best.
const workShort = 1100

// minTrioRead is the fewest of kills, deaths and K/D Tesseract must read
// for its figures to stand unheld (see holdUnchecked).
const minTrioRead = 2

// ocr extracts stats offline: the game's Stats panel by its bars and
// typeface; any other screen through Tesseract, pairing labels with values
// by position, and the kart cropped.
type ocr struct {
	bin     string // "": no Tesseract here, the Stats panel only
	timeout time.Duration
	log     *slog.Logger
}

// ErrNoTesseract says the offline reader reads the game's Stats panel only:
// other screens need tesseract or GEMINI_API_KEY.
var ErrNoTesseract = errors.New("extract: tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng): only the game's Stats panel can be read offline")

// newOCR makes the offline reader; without tesseract it reads the game's
// Stats panel only, and says so (ErrNoTesseract, with a working reader).
func newOCR(opts Options) (*ocr, error) {
	bin := opts.TesseractPath
	if bin == "" {
		bin = "tesseract"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		path = ""
		err = ErrNoTesseract
	}
	o := &ocr{bin: path, timeout: opts.Timeout, log: opts.Log}
	if o.timeout <= 0 {
		o.timeout = 20 * time.Second
	}
	return o, err
}

func (o *ocr) Read(ctx context.Context, img upload.Image, progress func(string)) (s core.Reading, err error) {
	g, ctx := newGuard(ctx, o.log, "decode")
	defer g.end(&s, &err)
	report := reporter(progress)
	report(StageReading)
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if img.Pixels() == nil {
		checked, err := upload.Check(img.Data)
		if err != nil {
			return core.Reading{}, err
		}
		img = checked
	}
	g.enter("orient")
	pix := upright(img.Data, img.Pixels())

	// The game's own Stats panel is read by its bars and typeface, which
	// needs no Tesseract and little time; other screens by Tesseract.
	report(StageExtracting)
	g.enter("stats panel")
	if s, ok := readStatsScreen(pix); ok {
		s.Check()
		report(StageRendering)
		return s, nil
	}
	if o.bin == "" {
		return core.Reading{}, errs.E(errs.Unavailable, MsgUnavailable)
	}
	g.enter("tesseract")
	pg := preparePage(pix, workShort)

	words, err := tesseract(ctx, o.bin, pgm(pg.ink), "--psm", "11", "-c", "tessedit_do_invert=0")
	if err != nil {
		return core.Reading{}, upstream(err)
	}
	kart, hasKart := findKart(pg, words)
	if lines := missedLines(pg, words, kart); len(lines) > 0 {
		words = append(words, o.readMissed(ctx, g, pg, words, lines)...)
	}
	g.enter("layout")
	r := readLayout(words, kart)
	o.reread(ctx, g, pg, &r)
	if !r.found() {
		return core.Reading{}, noData()
	}
	s = finish(r.stats()).reading()
	// A capture of the game's Player tab has a name and an SK id but no
	// figures: it is read for them.
	if !s.Figures() && !s.Has(core.FieldSkID) {
		return core.Reading{}, errs.E(errs.Unprocessable, MsgUnclear)
	}
	if gameScreen(words) {
		// The game's own Stats panel, which its reader could not make
		// out (too small, too blurred, cut): what Tesseract made of it is
		// the player's to check, figure by figure.
		for _, f := range []core.Field{core.FieldLevel, core.FieldKills, core.FieldDeaths, core.FieldGames, core.FieldKD} {
			if s.Has(f) {
				s.Doubts(f, "read without the Stats panel's rows: please check")
			}
		}
	}
	holdUnchecked(&s)
	s.Check()

	report(StageRendering)
	g.enter("kart")
	if png, ok := cropKart(pg, pix, kart); hasKart && ok {
		s.CartImage, s.CartImageType = png, "image/png"
	}
	return s, nil
}

// holdUnchecked holds every figure Tesseract read when fewer than two of
// kills, deaths and K/D were among them: those three check one another,
// and without them nothing vouches for the rest (a photo of the Stats
// panel whose bars were not made out gave "12" for kills of 19955, its
// other figures unread).
func holdUnchecked(s *core.Reading) {
	n := 0
	for _, f := range kdTrio {
		if s.Has(f) {
			n++
		}
	}
	if n < minTrioRead {
		holdFigures(s, "too little of the screenshot could be read: please check")
	}
}

// gameScreen tells whether words read on a screenshot are the game's Stats
// panel's: only it says "Bots Kills" and "KDR".
func gameScreen(ws []word) bool {
	for _, w := range ws {
		if t := strings.ToLower(strings.Trim(w.text, ":;.,'\"")); t == "bots" || t == "kdr" {
			return true
		}
	}
	return false
}
