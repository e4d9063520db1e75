package stats

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// Reader reads a player's stats from a screenshot that passed upload.Check
// (internal/extract: Gemini, or the offline reader). progress, if not nil,
// is called with each stage as it starts. A screenshot with no stats on it
// is an errs.Unprocessable error.
type Reader interface {
	Read(ctx context.Context, img upload.Image, progress func(stage string)) (core.Reading, error)
}

// Stages of a screenshot read, as the user topic's stats.progress tells them.
const (
	StageReceived = "received"
	StageDone     = "done"
	StageFailed   = "failed"
	EventProgress = "stats.progress"
)

// Uploads reads stats from screenshots, and saves them for signed-in players
// while telling them how far it got.
type Uploads struct {
	Reader Reader
	Stats  *Service
	Images Images
	Tx     core.Transactor
	Events core.Outbox
	Log    *slog.Logger

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

// Upload is the answer to a screenshot: what was read, in the seed's form,
// and whether it was saved (only for a signed-in player, and only when
// nothing in it needs their confirmation).
type Upload struct {
	Stats core.Extracted
	Saved bool
}

// Read checks and reads one screenshot. For an anonymous caller nothing is
// saved and no progress is told.
func (u *Uploads) Read(ctx context.Context, a core.Actor, data []byte) (Upload, error) {
	userID := a.UserID
	tell := func(ev map[string]string) {
		if userID == 0 {
			return
		}
		// Progress is a hint: a database too busy to record it costs the
		// player the spinner's text, not the upload.
		err := u.Tx.Transact(context.WithoutCancel(ctx), func(ctx context.Context) error {
			_, err := u.Events.Emit(ctx, core.UserTopic(userID), EventProgress, ev)
			return err
		})
		if err != nil {
			u.log().Warn("recording upload progress failed", slog.Any("err", err))
		}
	}
	progress := func(stage string) { tell(map[string]string{"stage": stage}) }
	out, err := u.read(ctx, userID, data, progress)
	if err != nil {
		// The live progress ends with what the answer says, so that a
		// second tab (or a lost answer) tells the player the same.
		tell(map[string]string{"stage": StageFailed, "message": errs.MessageOf(err)})
		return Upload{}, err
	}
	progress(StageDone)
	return out, nil
}

// readGuarded reads with u.Reader. A reader that panics costs the player
// this screenshot (422, MsgUnreadable), never a 500 with an empty body; the
// extract package's readers catch their own panics, stage by stage, and
// this catches any other reader's.
func (u *Uploads) readGuarded(ctx context.Context, img upload.Image, progress func(string)) (r core.Reading, err error) {
	stage := StageReceived
	defer func() {
		if v := recover(); v != nil {
			u.log().Error("screenshot reader failed", slog.String("stage", stage), slog.String("panic", fmt.Sprint(v)))
			r, err = core.Reading{}, errs.E(errs.Unprocessable, core.MsgUnreadable)
		}
	}()
	return u.Reader.Read(ctx, img, func(s string) { stage = s; progress(s) })
}

func (u *Uploads) log() *slog.Logger {
	if u.Log == nil {
		return slog.Default()
	}
	return u.Log
}

func (u *Uploads) read(ctx context.Context, userID int64, data []byte, progress func(string)) (Upload, error) {
	release, err := u.acquire(ctx)
	if err != nil {
		return Upload{}, err
	}
	defer release()
	img, err := upload.Check(data)
	if err != nil {
		return Upload{}, err
	}
	progress(StageReceived)
	got, err := u.readGuarded(ctx, img, progress)
	if err != nil {
		return Upload{}, err
	}
	got.Check()
	var kart *string
	if len(got.CartImage) > 0 {
		ct := got.CartImageType
		if ct == "" {
			ct = "image/png"
		}
		id, err := u.Images.SaveImage(ctx, ct, got.CartImage)
		if err != nil {
			return Upload{}, err
		}
		url := "/api/images/" + id
		kart = &url
	}
	out := Upload{Stats: got.Extracted(kart)}
	if userID != 0 && got.Figures() && !got.Sure() && u.Stats != nil {
		// Its save will be the player's confirmation (the funnel counts
		// it apart); a note lost costs that count, not the upload.
		if err := u.Stats.Store.HoldReading(ctx, userID, got.Reader); err != nil {
			u.log().Warn("noting a held reading failed", slog.Any("err", err))
		}
	}
	if userID == 0 || !got.Sure() || !got.Figures() {
		// A doubtful figure, or one worked out from the others rather than
		// read, is the player's to confirm: the card they save is the one
		// they approved (POST /api/stats/save). A capture with
		// no figures (the game's Player tab: a name and an id) fills the
		// player's form, not their record.
		return out, nil
	}
	rec := got.Stats()
	rec.CartImage, rec.PreferredRole, rec.Verified, rec.Source = kart, "Player", true, got.Reader
	// Keep what the player wrote about themselves; the tier follows the stats.
	if old, err := u.Stats.Store.FindStats(ctx, userID); err == nil && old != nil {
		rec.Description, rec.PreferredRole = old.Description, old.PreferredRole
		if rec.CartImage == nil {
			rec.CartImage = old.CartImage
		}
	}
	rec.Category = core.TierOf(rec)
	if _, err := u.Stats.SaveRecord(ctx, userID, rec); err != nil {
		return Upload{}, err
	}
	out.Saved = true
	return out, nil
}
