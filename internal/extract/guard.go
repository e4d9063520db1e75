package extract

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// MsgUnreadable answers a screenshot a reader broke on.
const MsgUnreadable = core.MsgUnreadable

// A reader works through stages (decoding, finding the panel, reading the
// glyphs, Tesseract, the kart); a bug in any of them must cost the player
// this one screenshot, never the request or the process. Each reader's Read
// runs under a guard: a panic in it, or in a goroutine it started through
// the guard, becomes MsgUnreadable (422) and one log line naming the stage
// (no image bytes, no user).

// Panic is a panic caught in a reader's stage; the answer wraps it (logs
// see it, the player sees MsgUnreadable).
type Panic struct {
	Stage string
	Value any
	// At is where it panicked: the innermost frames, "function file:line".
	At []string
}

func (p *Panic) Error() string {
	return fmt.Sprintf("extract: panic in stage %s: %v", p.Stage, p.Value)
}

// guard follows one Read through its stages.
type guard struct {
	log    *slog.Logger
	stage  string // set by the reading goroutine only
	cancel context.CancelFunc

	mu     sync.Mutex
	caught *Panic
	all    sync.WaitGroup // every goroutine started through the guard
}

// newGuard starts guarding a read at its first stage. The read works
// under the context it returns: a panic cancels it, so that the other
// goroutines of the stage stop early.
func newGuard(ctx context.Context, log *slog.Logger, first string) (*guard, context.Context) {
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(ctx)
	return &guard{log: log, stage: first, cancel: cancel}, ctx
}

// enter names the stage the reader starts.
func (g *guard) enter(stage string) { g.stage = stage }

func (g *guard) keep(stage string, v any) {
	g.cancel()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.caught != nil {
		return // the first panic is the cause; later ones follow from it
	}
	if p, ok := v.(*Panic); ok {
		g.caught = p
		return
	}
	g.caught = &Panic{Stage: stage, Value: v, At: panicFrames()}
}

// goroutines are the ones a stage starts and waits for.
type goroutines struct {
	g     *guard
	stage string
	wg    sync.WaitGroup
}

// group starts a set of goroutines within the current stage.
func (g *guard) group() *goroutines { return &goroutines{g: g, stage: g.stage} }

// Go runs f on a goroutine of its own; a panic there is kept for the
// guard instead of ending the process.
func (gr *goroutines) Go(f func()) {
	gr.wg.Add(1)
	gr.g.all.Add(1)
	go func() {
		defer gr.g.all.Done()
		defer gr.wg.Done()
		defer func() {
			if v := recover(); v != nil {
				gr.g.keep(gr.stage, v)
			}
		}()
		f()
	}()
}

// Wait waits for the group's goroutines; if one panicked, the caller
// panics with it, so that the stage stops there.
func (gr *goroutines) Wait() {
	gr.wg.Wait()
	if p := gr.g.panicked(); p != nil {
		panic(p)
	}
}

func (g *guard) panicked() *Panic {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.caught
}

// end is deferred by Read: a panic of the reading goroutine or of one of
// its goroutines turns the answer into MsgUnreadable, logged once.
func (g *guard) end(r *core.Reading, err *error) {
	if v := recover(); v != nil {
		g.keep(g.stage, v)
	}
	// Goroutines left running end with the read's context.
	g.cancel()
	g.all.Wait()
	p := g.panicked()
	if p == nil {
		return
	}
	g.log.Error("screenshot reader failed", slog.String("stage", p.Stage), slog.String("panic", fmt.Sprint(p.Value)),
		slog.Any("at", p.At))
	*r = core.Reading{}
	*err = errs.Wrap(errs.E(errs.Unprocessable, MsgUnreadable), p)
}

// panicFrames lists, from a deferred recover, the frames where the panic
// happened: the few innermost below the runtime's own.
func panicFrames() []string {
	// framesKept is how many of the panicking code's frames are listed.
	const framesKept = 6
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	var out []string
	seen := false // past runtime.gopanic: the panicking code's frames
	for f, more := frames.Next(); more && len(out) < framesKept; f, more = frames.Next() {
		if !seen {
			seen = f.Function == "runtime.gopanic"
			continue
		}
		if strings.HasPrefix(f.Function, "runtime.") {
			continue // runtime.panicIndex and the like
		}
		out = append(out, fmt.Sprintf("%s %s:%d", f.Function, f.File, f.Line))
	}
	return out
}
