package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
)

// What writeError answers and logs when the client went away (the
// request's context cancelled) and when it is still there: the work that
// failed because the client left is a 499 logged at Debug; a fault of ours
// stays a logged 500, and a 4xx stays itself.
func TestWriteErrorForAClientGone(t *testing.T) {
	for _, c := range []struct {
		name   string
		gone   bool
		err    error
		status int
		level  string // the level of writeError's own line, "" for none
	}{
		{"CancelledRead", true, fmt.Errorf("batch: %w", context.Canceled), 499, "DEBUG"},
		{"DatabaseUnavailable", true, errs.E(errs.Unavailable, "The database is unavailable. Please try again shortly."), 499, "DEBUG"},
		{"ConnectionLost", true, io.ErrUnexpectedEOF, 499, "DEBUG"},
		{"OurFault", true, errors.New("nil map"), 500, "ERROR"},
		{"NotFound", true, errs.E(errs.NotFound, "Tournament X not found"), 404, ""},
		{"DatabaseUnavailableClientThere", false, errs.E(errs.Unavailable, "The database is unavailable."), 503, ""},
		{"ConnectionLostClientThere", false, io.ErrUnexpectedEOF, 503, "WARN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			ctx, cancel := context.WithCancel(context.WithValue(context.Background(), logKey{}, log))
			defer cancel()
			if c.gone {
				cancel()
			}
			w := httptest.NewRecorder()
			writeError(w, httptest.NewRequestWithContext(ctx, "GET", "/api/tournaments", nil), c.err)
			if w.Code != c.status {
				t.Errorf("status %d, want %d", w.Code, c.status)
			}
			lines := strings.Count(logs.String(), "\n")
			if (c.level == "" && lines != 0) || (c.level != "" && (lines != 1 || !strings.Contains(logs.String(), "level="+c.level))) {
				t.Errorf("logged %q, want one line at %q", logs.String(), c.level)
			}
		})
	}
}
