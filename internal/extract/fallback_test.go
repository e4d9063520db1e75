package extract_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/upload"
)

// With OfflineFallback, a Gemini that fails (here: 503 on every call, as
// Google answers when overloaded) still gets the player their stats, read
// offline; without it the upload fails with the seed's 502 message.
func TestGeminiFailureFallsBackToOfflineReader(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract-ocr is not installed (make test installs it)")
	}
	var calls atomic.Int32
	gemini := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`))
	}))
	t.Cleanup(gemini.Close)

	dir := t.TempDir()
	truths, err := screens.WriteScreens(dir, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, truths[0].File))
	if err != nil {
		t.Fatal(err)
	}
	img, err := upload.Check(data)
	if err != nil {
		t.Fatal(err)
	}
	opts := extract.Options{GeminiAPIKey: "test-key", BaseURL: gemini.URL, Timeout: 5 * time.Second}

	alone, err := extract.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alone.Read(context.Background(), img, nil); errs.KindOf(err) != errs.Upstream || errs.MessageOf(err) != extract.MsgFailed {
		t.Fatalf("Gemini alone, failing: %v, want %q", err, extract.MsgFailed)
	}

	opts.OfflineFallback = true
	withFallback, err := extract.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	before := calls.Load()
	read, err := withFallback.Read(context.Background(), img, nil)
	if err != nil {
		t.Fatalf("with the offline fallback: %v", err)
	}
	if calls.Load() == before {
		t.Fatal("Gemini was not tried first")
	}
	got := read.Extracted(nil)
	if got.Kills != truths[0].Kills || got.Deaths != truths[0].Deaths || got.SkID != truths[0].SkID {
		t.Fatalf("read %+v, want kills %s deaths %s id %s", got, truths[0].Kills, truths[0].Deaths, truths[0].SkID)
	}
}

// A server with no reader at all answers uploads with 503 and its message.
func TestUnavailableExtractor(t *testing.T) {
	_, err := extract.Unavailable().Read(context.Background(), upload.Image{}, nil)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Unavailable || e.Message != extract.MsgUnavailable {
		t.Fatalf("got %v", err)
	}
}
