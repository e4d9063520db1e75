package stats

import (
	"bytes"
	"context"
	"image"
	pngpkg "image/png"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// Screenshots are read a few at a time; one that waits too long for a slot
// gets a clear 503 instead of piling up memory and CPU.
func TestUploadsWaitForASlotThenGiveUp(t *testing.T) {
	u := &Uploads{Slots: make(chan struct{}, 1), SlotWait: 50 * time.Millisecond}
	u.Slots <- struct{}{} // every slot taken
	_, err := u.Read(context.Background(), core.Actor{}, []byte("whatever"))
	if errs.KindOf(err) != errs.Unavailable || errs.MessageOf(err) != MsgBusy {
		t.Fatalf("got %v, want 503 %q", err, MsgBusy)
	}
	<-u.Slots // freed: the next upload gets in (and fails on its bytes, not on the slot)
	if _, err := u.Read(context.Background(), core.Actor{}, []byte("whatever")); errs.KindOf(err) != errs.Unsupported {
		t.Fatalf("with a free slot: %v", err)
	}
}

// readerOf answers every screenshot with one reading.
type readerOf core.Reading

func (r readerOf) Read(context.Context, upload.Image, func(string)) (core.Reading, error) {
	return core.Reading(r), nil
}

// quietOutbox takes progress events and drops them (no database here).
type quietOutbox struct{}

func (quietOutbox) Emit(context.Context, string, string, any) (int64, error) { return 0, nil }
func (quietOutbox) Seq(context.Context, string) (int64, error)               { return 0, nil }

type noTx struct{}

func (noTx) Transact(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }
func (noTx) Snapshot(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }

// A capture of the game's Player tab gives a name and an SK id but no
// figures: it fills the player's form and is never saved as their record
// (Stats is nil here: a save would panic).
func TestUploadsNeverSaveAReadingWithoutFigures(t *testing.T) {
	var r core.Reading
	r.SetText(core.FieldName, "TurboKing")
	r.SetText(core.FieldSkID, "4455667")
	u := &Uploads{Reader: readerOf(r), Tx: noTx{}, Events: quietOutbox{}}
	var png bytes.Buffer
	if err := pngpkg.Encode(&png, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	got, err := u.Read(context.Background(), core.Actor{UserID: 42}, png.Bytes())
	if err != nil || got.Saved || got.Stats.DiscordUsername != "TurboKing" || got.Stats.SkID != "4455667" {
		t.Fatalf("got %+v, %v; want the name and id, not saved", got, err)
	}
}

// panicking is a reader with a bug: it panics once it has started reading.
type panicking struct{}

func (panicking) Read(_ context.Context, _ upload.Image, progress func(string)) (core.Reading, error) {
	progress("extracting")
	var rows []int
	_ = rows[len(rows)-1]
	return core.Reading{}, nil
}

// recordingOutbox keeps the events emitted.
type recordingOutbox struct{ events []any }

func (o *recordingOutbox) Emit(_ context.Context, _, _ string, data any) (int64, error) {
	o.events = append(o.events, data)
	return int64(len(o.events)), nil
}
func (o *recordingOutbox) Seq(context.Context, string) (int64, error) {
	return int64(len(o.events)), nil
}

// A reader that breaks on a screenshot costs the player that screenshot:
// a 422 telling them to type their stats (not a 500 with an empty body), a
// log line naming the stage, and live progress that ends with the same
// message.
func TestUploadsTurnAReaderPanicIntoA422(t *testing.T) {
	var logs bytes.Buffer
	out := &recordingOutbox{}
	u := &Uploads{Reader: panicking{}, Tx: noTx{}, Events: out, Log: slog.New(slog.NewJSONHandler(&logs, nil))}
	var png bytes.Buffer
	if err := pngpkg.Encode(&png, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	_, err := u.Read(context.Background(), core.Actor{UserID: 42}, png.Bytes())
	if errs.KindOf(err) != errs.Unprocessable || errs.MessageOf(err) != core.MsgUnreadable {
		t.Fatalf("got %v, want 422 %q", err, core.MsgUnreadable)
	}
	if !strings.Contains(logs.String(), `"stage":"extracting"`) || !strings.Contains(logs.String(), "index out of range") {
		t.Errorf("log: %s", logs.String())
	}
	last, _ := out.events[len(out.events)-1].(map[string]string)
	if last["stage"] != StageFailed || last["message"] != core.MsgUnreadable {
		t.Errorf("progress ends with %v, want failed and %q", out.events[len(out.events)-1], core.MsgUnreadable)
	}
}

// A figure the screen's arithmetic worked out (here kills, hidden, from
// K/D and deaths) is shown to the player, proposed, and never saved before
// they confirm it (Stats is nil here: a save would panic).
func TestUploadsNeverSaveAWorkedOutFigure(t *testing.T) {
	var r core.Reading
	r.Set(core.FieldLevel, 45)
	r.Set(core.FieldDeaths, 7)
	r.SetKD(1.57)
	u := &Uploads{Reader: readerOf(r), Tx: noTx{}, Events: quietOutbox{}}
	var png bytes.Buffer
	if err := pngpkg.Encode(&png, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	got, err := u.Read(context.Background(), core.Actor{UserID: 42}, png.Bytes())
	if err != nil || got.Saved || got.Stats.Kills != "11" || len(got.Stats.Proposed) != 1 || got.Stats.Doubtful["kills"] == "" {
		t.Fatalf("got %+v, %v; want kills 11 proposed, not saved", got, err)
	}
}
