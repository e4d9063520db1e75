package extract

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/upload"
)

// fakeGemini speaks the Gemini REST API: POST /v1beta/models/{model}:generateContent
// answering candidates[].content.parts[] with text or inlineData.
type fakeGemini struct {
	t        *testing.T
	mu       sync.Mutex
	requests map[string]map[string]any // model -> last request body
	keys     []string
	text     func() (status int, body string)
	image    func() (status int, body string)
	delay    time.Duration
}

func textAnswer(text string) string {
	b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}}, "finishReason": "STOP"}}})
	return string(b)
}

func imageAnswer(data []byte) string {
	b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{
			map[string]any{"text": "Here is the kart."},
			map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(data)}},
		}}}}})
	return string(b)
}

func (f *fakeGemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	model, ok := strings.CutPrefix(r.URL.Path, "/v1beta/models/")
	model, ok2 := strings.CutSuffix(model, ":generateContent")
	if !ok || !ok2 || r.Method != "POST" {
		http.Error(w, `{"error":{"code":404,"message":"not found"}}`, 404)
		return
	}
	var body map[string]any
	raw, _ := io.ReadAll(r.Body)
	json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.requests[model] = body
	f.keys = append(f.keys, r.Header.Get("x-goog-api-key"))
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	answer := f.text
	if model == "img-model" {
		answer = f.image
	}
	status, out := answer()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, out)
}

func newFake(t *testing.T, text, image func() (int, string)) (*fakeGemini, stats.Reader) {
	f := &fakeGemini{t: t, requests: map[string]map[string]any{}, text: text, image: image}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	ex, err := New(Options{GeminiAPIKey: "test-key", BaseURL: srv.URL, TextModel: "text-model", ImageModel: "img-model", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return f, ex
}

func ok(body string) func() (int, string) { return func() (int, string) { return 200, body } }

func TestGemini(t *testing.T) {
	shot, err := upload.Check(encodePNG(320, 200))
	if err != nil {
		t.Fatal(err)
	}
	kart := encodePNG(64, 64)
	const clean = `{"userName":"NitroFox","level":27,"kills":3120,"deaths":1560,"kd":2.0,"skId":"482913","gamesPlayed":900}`

	t.Run("OKCleanJSONAndKart", func(t *testing.T) {
		f, ex := newFake(t, ok(textAnswer(clean)), ok(imageAnswer(kart)))
		var stages []string
		got, err := ex.Read(context.Background(), shot, func(st string) { stages = append(stages, st) })
		if err != nil {
			t.Fatal(err)
		}
		s := got.Extracted(nil)
		if s.DiscordUsername != "NitroFox" || s.Level != "27" || s.Kills != "3120" || s.Deaths != "1560" ||
			s.KDRatio != "2.00" || s.SkID != "482913" || s.TotalGames != "900" {
			t.Fatalf("%+v", s)
		}
		if len(got.CartImage) == 0 || got.CartImageType != "image/png" {
			t.Fatal("no kart image from the image part")
		}
		if strings.Join(stages, ",") != "reading,extracting,rendering" {
			t.Fatalf("stages %v", stages)
		}
		// The real wire request: both models called, the key sent, the screenshot inline.
		for _, m := range []string{"text-model", "img-model"} {
			req := f.requests[m]
			if req == nil {
				t.Fatalf("%s not called", m)
			}
			parts := req["contents"].([]any)[0].(map[string]any)["parts"].([]any)
			inline := parts[0].(map[string]any)["inlineData"].(map[string]any)
			if inline["mimeType"] != "image/png" || inline["data"] != base64.StdEncoding.EncodeToString(shot.Data) {
				t.Fatalf("%s: screenshot not sent inline", m)
			}
		}
		gen := f.requests["text-model"]["generationConfig"].(map[string]any)
		if gen["responseMimeType"] != "application/json" || gen["responseSchema"] == nil {
			t.Fatalf("text call lacks JSON schema: %v", gen)
		}
		for _, k := range f.keys {
			if k != "test-key" {
				t.Fatalf("api key header %q", k)
			}
		}
	})
	t.Run("OKFencedJSON", func(t *testing.T) {
		_, ex := newFake(t, ok(textAnswer("```json\n"+clean+"\n```")), ok(imageAnswer(kart)))
		if s, err := ex.Read(context.Background(), shot, nil); err != nil || s.Kills != 3120 {
			t.Fatalf("%+v %v", s, err)
		}
	})
	t.Run("OKProseRegexFallback", func(t *testing.T) {
		_, ex := newFake(t, ok(textAnswer("Player NitroFox is level 27 with 3,120 kills, 1,560 deaths and 900 games played.")), ok(imageAnswer(kart)))
		got, err := ex.Read(context.Background(), shot, nil)
		s := got.Extracted(nil)
		if err != nil || s.Kills != "3120" || s.Deaths != "1560" || s.KDRatio != "2.00" || s.Level != "27" {
			t.Fatalf("%+v %v", s, err)
		}
	})
	t.Run("OKStatsWhenKartFails", func(t *testing.T) {
		_, ex := newFake(t, ok(textAnswer(clean)), func() (int, string) { return 500, `{"error":{"code":500,"message":"boom","status":"INTERNAL"}}` })
		s, err := ex.Read(context.Background(), shot, nil)
		if err != nil || s.Kills != 3120 || s.CartImage != nil {
			t.Fatalf("%+v %v", s, err)
		}
	})
	fails := []struct {
		name string
		text func() (int, string)
		kind string
		msg  string
	}{
		{"ErrEmptyReply", ok(textAnswer("")), errs.Unprocessable, MsgNoData},
		{"ErrNoCandidates", ok(`{"candidates":[]}`), errs.Unprocessable, MsgNoData},
		{"ErrRateLimited429", func() (int, string) {
			return 429, `{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}`
		}, errs.Upstream, MsgFailed},
		{"ErrServer500", func() (int, string) { return 500, `{"error":{"code":500,"message":"internal","status":"INTERNAL"}}` }, errs.Upstream, MsgFailed},
	}
	for _, tc := range fails {
		t.Run(tc.name, func(t *testing.T) {
			_, ex := newFake(t, tc.text, ok(imageAnswer(kart)))
			_, err := ex.Read(context.Background(), shot, nil)
			if errs.KindOf(err) != tc.kind || errs.MessageOf(err) != tc.msg {
				t.Fatalf("got %s %q (%v), want %s %q", errs.KindOf(err), errs.MessageOf(err), err, tc.kind, tc.msg)
			}
		})
	}
	t.Run("ErrSlowReplyPastTimeout", func(t *testing.T) {
		f, ex := newFake(t, ok(textAnswer(clean)), ok(imageAnswer(kart)))
		f.delay = 5 * time.Second
		start := time.Now()
		_, err := ex.Read(context.Background(), shot, nil)
		if errs.KindOf(err) != errs.Upstream || time.Since(start) > 4*time.Second {
			t.Fatalf("%v after %s", err, time.Since(start))
		}
	})
}

func encodePNG(w, h int) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)))
	return b.Bytes()
}
