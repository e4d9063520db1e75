package stats

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/hub"
)

// Stages of a screenshot read, as the user topic's stats.progress tells them.
const (
	StageReceived = "received"
	StageDone     = "done"
	StageFailed   = "failed"
	EventProgress = "stats.progress"
)

// Extracted is the answer of POST /api/stats/extract: the seed's extracted
// fields as strings, and the kart image as a URL (or null).
type Extracted struct {
	DiscordUsername string  `json:"discord_username"`
	Level           string  `json:"level"`
	Kills           string  `json:"kills"`
	Deaths          string  `json:"deaths"`
	TotalGames      string  `json:"total_games"`
	SkID            string  `json:"sk_id"`
	KDRatio         string  `json:"kd_ratio"`
	CartImage       *string `json:"cart_image"`
}

// Uploads reads stats from screenshots, and saves them for signed-in players
// while telling them how far it got.
type Uploads struct {
	Extractor extract.Extractor
	Stats     *Service
	Images    Images
	Pub       hub.Publisher
	Log       *slog.Logger

	// Slots bounds how many screenshots are decoded and read at once (each
	// can take 64 MB and a core); nil means no bound. Callers past it wait,
	// up to SlotWait (default 15 s), then get a 503.
	Slots    chan struct{}
	SlotWait time.Duration
}

// MsgBusy answers an upload that found every reading slot taken for too long.
const MsgBusy = "Too many screenshots are being read right now. Please try again in a moment."

func (u *Uploads) acquire(ctx context.Context) (release func(), err error) {
	if u.Slots == nil {
		return func() {}, nil
	}
	wait := u.SlotWait
	if wait <= 0 {
		wait = 15 * time.Second
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case u.Slots <- struct{}{}:
		return func() { <-u.Slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errs.E(errs.Unavailable, MsgBusy)
	}
}

// Read checks and reads one screenshot. userID 0 is an anonymous caller:
// nothing is saved and no progress is published.
func (u *Uploads) Read(ctx context.Context, userID int64, data []byte) (Extracted, error) {
	progress := func(stage string) {
		if userID == 0 {
			return
		}
		if err := u.Pub.Publish(context.WithoutCancel(ctx), hub.UserTopic(userID), EventProgress, map[string]string{"stage": stage}); err != nil {
			u.Log.Warn("publishing progress failed", slog.Any("err", err))
		}
	}
	out, err := u.read(ctx, userID, data, progress)
	if err != nil {
		progress(StageFailed)
		return Extracted{}, err
	}
	progress(StageDone)
	return out, nil
}

func (u *Uploads) read(ctx context.Context, userID int64, data []byte, progress func(string)) (Extracted, error) {
	release, err := u.acquire(ctx)
	if err != nil {
		return Extracted{}, err
	}
	defer release()
	img, err := extract.Check(data)
	if err != nil {
		return Extracted{}, err
	}
	progress(StageReceived)
	got, err := u.Extractor.Extract(ctx, img, progress)
	if err != nil {
		return Extracted{}, err
	}
	got = got.Normalize().WithDefaults()
	if err := got.Validate(); err != nil {
		return Extracted{}, err
	}
	out := Extracted{DiscordUsername: got.DiscordUsername, Level: got.Level, Kills: got.Kills, Deaths: got.Deaths,
		TotalGames: got.TotalGames, SkID: got.SkID, KDRatio: got.KDRatio}
	if len(got.CartImage) > 0 {
		ct := got.CartImageType
		if ct == "" {
			ct = "image/png"
		}
		id, err := u.Images.SaveImage(ctx, ct, got.CartImage)
		if err != nil {
			return Extracted{}, err
		}
		url := "/api/images/" + id
		out.CartImage = &url
	}
	if userID == 0 {
		return out, nil
	}
	v, err := got.Values()
	if err != nil {
		return Extracted{}, err
	}
	rec := Stats{
		PlayerName: strings.TrimSpace(got.DiscordUsername), SkID: NormalizeSkID(v.SkID), Level: int(v.Level),
		Kills: int(v.Kills), Deaths: int(v.Deaths), GamesPlayed: int(v.GamesPlayed), KD: v.KD,
		CartImage: out.CartImage, PreferredRole: "Player", Verified: true,
	}
	if rec.PlayerName == extract.DefaultName {
		rec.PlayerName = ""
	}
	// Keep what the player wrote about themselves and their category.
	if old, err := u.Stats.Get(ctx, userID); err == nil && old != nil {
		rec.Description, rec.Category = old.Description, old.Category
		if rec.CartImage == nil {
			rec.CartImage = old.CartImage
		}
	}
	if rec.Category == 0 {
		rec.Category = randomCategory()
	}
	if _, err := u.Stats.SaveRecord(ctx, userID, rec); err != nil {
		return Extracted{}, err
	}
	return out, nil
}
