package stats

import (
	"context"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
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
