package stats

import (
	"bytes"
	"context"
	"image"
	pngpkg "image/png"
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
