package auction_test

import (
	"context"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
)

// A lot is closed when its deadline has passed, and its closing time says
// so even when the close waited for the lot's lock: a close that began
// before the deadline, behind a bid that held the lot, closes after it and
// must not be recorded as closed before its deadline (the night at 10,000
// spectators found one recorded 1.4 s early).
func TestALotIsClosedAtTheMomentItCloses(t *testing.T) {
	l := newLeague(t, 2, "A")
	l.svc.LotTime = time.Second
	ctx := context.Background()
	lot := l.open(l.players[0], 0)

	holder, err := l.db.Pool.Begin(ctx) // a bid in progress holds the lot
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(ctx, `SELECT 1 FROM auction_lots WHERE id = $1 FOR UPDATE`, lot.ID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(lot.EndsAt) - 300*time.Millisecond)
	closed := make(chan error, 1)
	go func() { closed <- l.svc.CloseDue(ctx, l.id(), lot.ID) }() // begins before the deadline
	time.Sleep(600 * time.Millisecond)
	if err := holder.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}

	var status string
	var endsAt, closedAt time.Time
	if err := l.db.Pool.QueryRow(ctx, `SELECT status, ends_at, closed_at FROM auction_lots WHERE id = $1`, lot.ID).
		Scan(&status, &endsAt, &closedAt); err != nil {
		t.Fatal(err)
	}
	if status != auction.LotUnsold {
		t.Fatalf("lot is %s", status)
	}
	if closedAt.Before(endsAt) {
		t.Fatalf("closed at %v, %v before its deadline %v", closedAt, endsAt.Sub(closedAt), endsAt)
	}
}
