package extract

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// stagedRead reads as the readers do: stages one after another, some of
// them on goroutines started within a goroutine (as the Tesseract path's
// second reads are), and fails at the stage named by fail.
func stagedRead(ctx context.Context, log *slog.Logger, fail string) (s core.Reading, err error) {
	g, ctx := newGuard(ctx, log, "decode")
	defer g.end(&s, &err)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if fail == "decode" {
		var rows []int
		_ = rows[len(rows)-1] // index out of range, as splitGlyphs did
	}
	g.enter("stats panel")
	outer := g.group()
	outer.Go(func() {
		inner := g.group()
		for i := range 3 {
			inner.Go(func() {
				if fail == "tesseract" && i == 1 {
					panic("tesseract's words cut short")
				}
			})
		}
		// A goroutine still at work when another panics (Tesseract on
		// another line) stops with the read's context.
		inner.Go(func() { <-ctx.Done() })
		if fail != "tesseract" {
			cancel()
		}
		inner.Wait()
	})
	outer.Wait()
	s.SetKD(1.5)
	return s, nil
}

// A panic in any stage of a reader, on its goroutine or on one it started,
// costs the player this screenshot with a 422 telling them to type their
// stats, and one log line naming the stage (no image, no player); a read
// that does not panic is untouched.
func TestGuardTurnsAPanicInAStageIntoA422(t *testing.T) {
	for _, tc := range []struct{ fail, stage string }{{"decode", "decode"}, {"tesseract", "stats panel"}} {
		t.Run(tc.fail, func(t *testing.T) {
			var logs bytes.Buffer
			done := make(chan struct{})
			var r core.Reading
			var err error
			go func() {
				defer close(done)
				r, err = stagedRead(context.Background(), slog.New(slog.NewJSONHandler(&logs, nil)), tc.fail)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the read did not end after its panic")
			}
			var p *Panic
			if errs.KindOf(err) != errs.Unprocessable || errs.MessageOf(err) != MsgUnreadable || !errors.As(err, &p) || r.Figures() {
				t.Fatalf("got %+v, %v; want a 422 %q", r, err, MsgUnreadable)
			}
			if p.Stage != tc.stage {
				t.Errorf("panic caught in stage %q, want %q", p.Stage, tc.stage)
			}
			if len(p.At) == 0 || !strings.Contains(p.At[0], "extract.stagedRead") {
				t.Errorf("panicked at %q, want stagedRead first", p.At)
			}
			line := logs.String()
			if strings.Count(line, "screenshot reader failed") != 1 || !strings.Contains(line, `"stage":"`+tc.stage+`"`) {
				t.Errorf("log: %s", line)
			}
		})
	}
	t.Run("NoPanic", func(t *testing.T) {
		var logs bytes.Buffer
		r, err := stagedRead(context.Background(), slog.New(slog.NewJSONHandler(&logs, nil)), "")
		if err != nil || !r.Has(core.FieldKD) || logs.Len() != 0 {
			t.Fatalf("got %+v, %v, log %q", r, err, logs.String())
		}
	})
}
