package extract

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// The two prompts of the seed: read the stats as JSON, and redraw the kart.
const (
	statsPrompt = `This is a screenshot from the game Smash Karts: usually the main menu's Stats tab
(rows with a label at the left and a number at the right), sometimes the Player tab.
Read the player's figures and answer with JSON only, using exactly these keys:
{"userName": the in-game player name, "level": the number in the blue level badge at the top left
(not the XP bar beside it, such as "128630 / 139000"), "kills": the "Kills" row,
"botsKills": the "Bots Kills" row (kills of computer karts, never the player's kills),
"deaths": the "Deaths" row, "kd": the "KDR" (K/D ratio) row, "wins": the "Wins" row
(games won, never games played), "gamesPlayed": the "Games" row, "skId": the player's SK ID without '#'}.
Numbers as the screen shows them, without thousands separators. Use null for anything the screen
does not show (the Stats tab shows no name and no SK ID; older builds have no Games row), and
never compute a figure from the others.
Ignore every other number: XP, coins, tickets, boost timers, news items and version numbers,
the browser's and the taskbar's text.`

	kartPrompt = `Take the kart (with its driver) from this Smash Karts screenshot and draw it alone:
remove the background, text and interface, keep the kart's colours and parts exactly,
turn it to a 30 degree angle, and place it centred on a plain dark background (#1A1A1A).
Square image, no text.`
)

// gemini extracts stats with two Gemini calls run in parallel: a text model
// reading the numbers as JSON and an image model drawing the kart alone.
type gemini struct {
	client     *genai.Client
	textModel  string
	imageModel string
	timeout    time.Duration
	log        *slog.Logger
}

func newGemini(opts Options) (*gemini, error) {
	cfg := &genai.ClientConfig{
		APIKey:     opts.GeminiAPIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: opts.HTTPClient,
	}
	if opts.BaseURL != "" {
		cfg.HTTPOptions.BaseURL = opts.BaseURL
	}
	client, err := genai.NewClient(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("extract: gemini client: %w", err)
	}
	g := &gemini{client: client, textModel: opts.TextModel, imageModel: opts.ImageModel, timeout: opts.Timeout, log: opts.Log}
	if g.textModel == "" {
		g.textModel = DefaultTextModel
	}
	if g.imageModel == "" {
		g.imageModel = DefaultImageModel
	}
	if g.timeout <= 0 {
		g.timeout = 60 * time.Second
	}
	return g, nil
}

type kartResult struct {
	data []byte
	mime string
	err  error
}

func (g *gemini) Read(ctx context.Context, img upload.Image, progress func(string)) (s core.Reading, err error) {
	gd, ctx := newGuard(ctx, g.log, "request")
	defer gd.end(&s, &err)
	report := reporter(progress)
	report(StageReading)
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()

	report(StageExtracting)
	kartCh := make(chan kartResult, 1)
	gd.group().Go(func() {
		k := kartResult{err: errors.New("extract: the kart was not drawn")}
		defer func() { kartCh <- k }() // even after a panic: Read waits for it
		k.data, k.mime, k.err = g.drawKart(ctx, img)
	})
	text, err := g.readStats(ctx, img)
	if err != nil {
		cancel()
		<-kartCh
		return core.Reading{}, upstream(err)
	}
	gd.enter("reply")
	raw, ok := parseReply(text)
	if !ok {
		cancel()
		<-kartCh
		return core.Reading{}, noData()
	}
	s = finish(raw).reading()
	if !s.Figures() {
		cancel()
		<-kartCh
		return core.Reading{}, errs.E(errs.Unprocessable, MsgUnclear)
	}
	s.Check()

	report(StageRendering)
	// A kart that could not be drawn costs the player a picture, not their
	// stats: the stats are returned either way.
	if k := <-kartCh; k.err == nil {
		s.CartImage, s.CartImageType = k.data, k.mime
	}
	return s, nil
}

func (g *gemini) readStats(ctx context.Context, img upload.Image) (string, error) {
	nullable := genai.Ptr(true)
	schema := &genai.Schema{
		Type: genai.TypeObject,
		Properties: map[string]*genai.Schema{
			"userName":    {Type: genai.TypeString, Nullable: nullable},
			"level":       {Type: genai.TypeInteger, Nullable: nullable},
			"kills":       {Type: genai.TypeInteger, Nullable: nullable},
			"deaths":      {Type: genai.TypeInteger, Nullable: nullable},
			"kd":          {Type: genai.TypeNumber, Nullable: nullable},
			"skId":        {Type: genai.TypeString, Nullable: nullable},
			"gamesPlayed": {Type: genai.TypeInteger, Nullable: nullable},
			"wins":        {Type: genai.TypeInteger, Nullable: nullable},
			"botsKills":   {Type: genai.TypeInteger, Nullable: nullable},
		},
		PropertyOrdering: []string{"userName", "level", "kills", "botsKills", "deaths", "kd", "wins", "gamesPlayed", "skId"},
	}
	resp, err := g.client.Models.GenerateContent(ctx, g.textModel, imageAndText(img, statsPrompt), &genai.GenerateContentConfig{
		Temperature:      genai.Ptr[float32](0),
		ResponseMIMEType: "application/json",
		ResponseSchema:   schema,
	})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range firstParts(resp) {
		if p.Text != "" && !p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// drawKart asks the image model for the kart alone; it returns the first
// image part of the answer that passes Check.
func (g *gemini) drawKart(ctx context.Context, img upload.Image) ([]byte, string, error) {
	resp, err := g.client.Models.GenerateContent(ctx, g.imageModel, imageAndText(img, kartPrompt), &genai.GenerateContentConfig{
		ResponseModalities: []string{string(genai.ModalityImage), string(genai.ModalityText)},
		ImageConfig:        &genai.ImageConfig{AspectRatio: "1:1"},
	})
	if err != nil {
		return nil, "", err
	}
	for _, p := range firstParts(resp) {
		if p.InlineData == nil || !strings.HasPrefix(p.InlineData.MIMEType, "image/") {
			continue
		}
		checked, err := upload.Check(p.InlineData.Data)
		if err != nil {
			return nil, "", fmt.Errorf("kart image: %w", err)
		}
		return checked.Data, checked.MIME, nil
	}
	return nil, "", errors.New("kart image: no image in the answer")
}

func imageAndText(img upload.Image, prompt string) []*genai.Content {
	return []*genai.Content{genai.NewContentFromParts([]*genai.Part{
		genai.NewPartFromBytes(img.Data, img.MIME),
		genai.NewPartFromText(prompt),
	}, genai.RoleUser)}
}

func firstParts(resp *genai.GenerateContentResponse) []*genai.Part {
	if resp == nil || len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return nil
	}
	return resp.Candidates[0].Content.Parts
}

func reporter(progress func(string)) func(string) {
	if progress == nil {
		return func(string) {}
	}
	return progress
}
