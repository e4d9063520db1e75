package testkit

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pitlane/pitlane/internal/config"
)

// Gemini is a fake of Google's Gemini REST API (POST
// /v1beta/models/{model}:generateContent) whose text model answers Text and
// whose image model draws nothing, so the real genai client code runs.
type Gemini struct {
	URL   string
	text  atomic.Value // string
	Calls atomic.Int32
}

// NewGemini starts the fake for the test's life.
func NewGemini(t testing.TB, text string) *Gemini {
	g := &Gemini{}
	g.text.Store(text)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		model, ok := strings.CutPrefix(r.URL.Path, "/v1beta/models/")
		if !ok || r.Method != http.MethodPost || !strings.HasSuffix(model, ":generateContent") {
			http.Error(w, `{"error":{"code":404,"message":"not found","status":"NOT_FOUND"}}`, http.StatusNotFound)
			return
		}
		g.Calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		answer := g.text.Load().(string)
		if strings.Contains(model, "image") {
			answer = "I cannot draw today."
		}
		json.NewEncoder(w).Encode(map[string]any{"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"text": answer}}},
			"finishReason": "STOP"}}})
	}))
	t.Cleanup(srv.Close)
	g.URL = srv.URL
	return g
}

// Answer changes what the text model answers from now on.
func (g *Gemini) Answer(text string) { g.text.Store(text) }

// Configure points a server's configuration at the fake.
func (g *Gemini) Configure(c *config.Config) {
	c.GeminiAPIKey, c.GeminiBaseURL = "test-key", g.URL
	c.GeminiTextModel, c.GeminiImageModel = "gemini-text", "gemini-image"
}
