package api_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/extract/screens"
	"github.com/pitlane/pitlane/internal/testkit"
	pupload "github.com/pitlane/pitlane/internal/upload"
)

func upload(t *testing.T, s *testkit.Server, token, filename string, data []byte) *testkit.Resp {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("screenshot", filename)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", s.URL+"/api/stats/extract", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.Send(t, req)
}

func TestExtractRefusesBadUploads(t *testing.T) {
	s := newServer(t, testkit.Options{})
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 64, 64)), nil)
	tests := []struct {
		name   string
		file   string
		data   []byte
		status int
	}{
		{"ErrTextRenamedPNG", "stats.png", []byte("this is not an image, just text pretending\n"), 415},
		{"ErrNineMegabytes", "big.png", append(screens.PNGClaiming(100, 100), bytes.Repeat([]byte{0}, 9<<20)...), 413},
		{"ErrPNGBomb", "bomb.png", screens.PNGClaiming(20000, 20000), 413},
		{"ErrTruncatedJPEG", "cut.jpg", jpg.Bytes()[:jpg.Len()/3], 422},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := upload(t, s, "", tc.file, tc.data)
			if r.Status != tc.status || r.Message() == "" {
				t.Fatalf("got %d %q, want %d", r.Status, r.Message(), tc.status)
			}
		})
	}
	t.Run("ErrNoFile", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/stats/extract", "", `{}`)
		if r.Status != 415 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("ErrRefusedToken", func(t *testing.T) {
		// An expired or forged token is not taken for an anonymous caller: the
		// player would think their stats were saved.
		r := upload(t, s, "eyJhbGciOiJIUzI1NiJ9.e30.forged", "stats.png", jpg.Bytes())
		if r.Status != 401 || r.Message() != "Please login to continue" {
			t.Fatalf("got %d %q, want 401", r.Status, r.Message())
		}
	})
	t.Run("ServerUnharmed", func(t *testing.T) {
		if r := s.Do(t, "GET", "/readyz", "", nil); r.Status != 200 {
			t.Fatalf("%d", r.Status)
		}
	})
}

// A signed-in player uploads a screenshot: the offline reader fills the
// stats, they are saved as verified, and progress arrives on the user topic.
func TestExtractSavesAndReportsProgress(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract-ocr is not installed (make test installs it)")
	}
	s := newServer(t, testkit.Options{})
	token := s.SignUp(t, testkit.UniqueEmail("upload"), "upload_racer")
	scr, err := screens.GenerateLayout(11, screens.Layouts[0])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := screens.Encode(scr)

	ws := testkit.DialWS(t, s.URL, token)
	ws.Subscribe(nil, "user")
	ws.Ping()

	r := upload(t, s, token, "my-stats.png", data)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	got := r.JSON["stats"].(map[string]any)
	truth := scr.Truth
	for field, want := range map[string]string{"kills": truth.Kills, "deaths": truth.Deaths, "level": truth.Level,
		"total_games": truth.TotalGames} {
		if got[field] != want {
			t.Errorf("%s = %v, want %s", field, got[field], want)
		}
	}
	var stages []string
	for {
		f := ws.WaitEvent("user", "stats.progress", 10*time.Second)
		stages = append(stages, f.Data["stage"].(string))
		if f.Data["stage"] == "done" || f.Data["stage"] == "failed" {
			break
		}
	}
	if strings.Join(stages, ",") != "received,reading,extracting,rendering,done" {
		t.Errorf("stages %v", stages)
	}
	p := s.Do(t, "GET", "/api/auth/profile", token, nil).JSON["user"].(map[string]any)
	if p["sk_stats_uploaded"] != true || p["sk_stats_verified"] != true {
		t.Fatalf("profile %v", p)
	}
}

// A server with no screenshot reader (no GEMINI_API_KEY, no tesseract on
// PATH) still starts and serves everything else; uploads answer 503.
func TestNoReaderKeepsTheSiteUp(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	s := newServer(t, testkit.Options{})
	scr, err := screens.GenerateLayout(11, screens.Layouts[0])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := screens.Encode(scr)
	r := upload(t, s, "", "stats.png", data)
	if r.Status != 503 || r.Message() != "Reading stats from screenshots is unavailable right now. Please try again later." {
		t.Fatalf("upload with no reader: %d %q", r.Status, r.Message())
	}
	if r := s.Do(t, "GET", "/api/tournament/registrations", "", nil); r.Status != 200 {
		t.Fatalf("registrations: %d", r.Status)
	}
}

// The reader and the save share one model and one set of limits: what a
// reader returns and its checks pass is saved, whatever its figures (here a
// player with no deaths, whose K/D the game shows as their kills); what
// fails the checks is shown to the player as doubtful and not saved.
func TestExtractedStatsAreSavedUnderTheSameRules(t *testing.T) {
	gemini := testkit.NewGemini(t, `{"userName":"Flawless","level":12,"kills":1500,"deaths":0,"kd":1500,"skId":"777","gamesPlayed":40}`)
	s := newServer(t, testkit.Options{Configure: gemini.Configure})
	token := s.SignUp(t, testkit.UniqueEmail("flawless"), "flawless_racer")
	var jpg bytes.Buffer
	jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 320, 200)), nil)
	shot := jpg.Bytes()

	r := upload(t, s, token, "stats.png", shot)
	if r.Status != 200 || r.JSON["saved"] != true {
		t.Fatalf("read with 0 deaths: %d %s, want 200 and saved", r.Status, r.Body)
	}
	st := s.Do(t, "GET", "/api/stats/get", token, nil).JSON["stats"].(map[string]any)
	if st["kills"] != 1500.0 || st["deaths"] != 0.0 || st["kd"] != 1500.0 || st["verified"] != true {
		t.Fatalf("saved %v", st)
	}

	t.Run("DoubtfulIsShownNotSaved", func(t *testing.T) {
		gemini.Answer(`{"userName":"Flawless","level":45,"kills":737,"deaths":8390,"kd":1.60,"gamesPlayed":3500}`)
		r := upload(t, s, token, "stats.png", shot)
		doubt, _ := r.JSON["stats"].(map[string]any)["doubtful"].(map[string]any)
		if r.Status != 200 || r.JSON["saved"] != false || doubt["kd"] == nil {
			t.Fatalf("%d %s, want the K/D shown as doubtful and nothing saved", r.Status, r.Body)
		}
		if st := s.Do(t, "GET", "/api/stats/get", token, nil).JSON["stats"].(map[string]any); st["kills"] != 1500.0 {
			t.Fatalf("a doubtful read replaced the saved stats: %v", st)
		}
	})

	// Kills the screen hid (a tooltip over the row) follow from K/D and
	// deaths: proposed for the player to confirm, never saved unseen.
	t.Run("WorkedOutIsProposedNotSaved", func(t *testing.T) {
		gemini.Answer(`{"userName":"Flawless","level":45,"kills":null,"deaths":7,"kd":1.57,"gamesPlayed":3500}`)
		r := upload(t, s, token, "stats.png", shot)
		st, _ := r.JSON["stats"].(map[string]any)
		doubt, _ := st["doubtful"].(map[string]any)
		proposed, _ := st["proposed"].([]any)
		if r.Status != 200 || r.JSON["saved"] != false || st["kills"] != "11" || len(proposed) != 1 || proposed[0] != "kills" ||
			doubt["kills"] != "worked out from K/D × deaths: please check" {
			t.Fatalf("%d %s, want kills 11 proposed and nothing saved", r.Status, r.Body)
		}
		if st := s.Do(t, "GET", "/api/stats/get", token, nil).JSON["stats"].(map[string]any); st["kills"] != 1500.0 {
			t.Fatalf("a worked-out figure was saved: %v", st)
		}
	})
}

// brokenReader is a reader with a bug: it panics once it has started.
type brokenReader struct{}

func (brokenReader) Read(_ context.Context, _ pupload.Image, progress func(string)) (core.Reading, error) {
	progress("extracting")
	var glyphs []int
	_ = glyphs[len(glyphs)-1]
	return core.Reading{}, nil
}

// Whatever the image, the upload answers 2xx or 4xx with a JSON message,
// never a 500 with an empty body: the screens that once crashed the
// reader, odd images, and a reader that panics outright, which tells the
// player to type their stats, live too.
func TestExtractNeverAnswers500(t *testing.T) {
	s := newServer(t, testkit.Options{})
	drawn, err := screens.GenerateLayout(354, "rows")
	if err != nil {
		t.Fatal(err)
	}
	inv := image.NewRGBA(drawn.Image.Bounds())
	for i, v := range drawn.Image.Pix {
		inv.Pix[i] = 255 - v
		if i%4 == 3 {
			inv.Pix[i] = 255
		}
	}
	for name, img := range map[string]image.Image{
		"drawn screen 354": drawn.Image, "drawn screen 354 inverted": inv,
		"one pixel": image.NewRGBA(image.Rect(0, 0, 1, 1)), "a strip": image.NewGray(image.Rect(0, 0, 3000, 3)),
	} {
		r := upload(t, s, "", name+".png", mustPNG(t, img))
		if r.Status >= 500 || r.Status >= 400 && r.Message() == "" || r.JSON == nil {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}

	t.Run("ReaderPanics", func(t *testing.T) {
		s.App.Server.Uploads.Reader = brokenReader{}
		token := s.SignUp(t, testkit.UniqueEmail("broken"), "broken_reader")
		ws := testkit.DialWS(t, s.URL, token)
		ws.Subscribe(nil, "user")
		ws.Ping()
		r := upload(t, s, token, "stats.png", mustPNG(t, drawn.Image))
		if r.Status != 422 || r.Message() != core.MsgUnreadable {
			t.Fatalf("%d %s, want 422 %q", r.Status, r.Body, core.MsgUnreadable)
		}
		for {
			f := ws.WaitEvent("user", "stats.progress", 10*time.Second)
			if f.Data["stage"] == "failed" {
				if f.Data["message"] != core.MsgUnreadable {
					t.Fatalf("progress failed with %v, want %q", f.Data, core.MsgUnreadable)
				}
				break
			}
		}
	})
}

func mustPNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
