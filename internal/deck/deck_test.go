package deck_test

import (
	"context"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/deck"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestDeck(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	d := &deck.Service{Store: postgres.Deck{DB: db}, Tx: db, Events: postgres.Outbox{DB: db}, Audit: postgres.Audit{DB: db}}
	presenter := core.Actor{Name: "presenter", Admin: true}

	t.Run("OnlyOrganisersMoveIt", func(t *testing.T) {
		for _, a := range []core.Actor{{}, {UserID: 7}, {UserID: 8, Captains: []core.Captaincy{{TournamentID: 1, Team: "A"}}}} {
			if _, err := d.Move(ctx, a, 3); errs.KindOf(err) != errs.Unauthorized && errs.KindOf(err) != errs.Forbidden {
				t.Fatalf("%s moved the deck: %v", a.Role(), err)
			}
		}
	})
	t.Run("ErrOutsideTheSlides", func(t *testing.T) {
		for _, n := range []int{0, deck.Slides + 1} {
			if _, err := d.Move(ctx, presenter, n); errs.KindOf(err) != errs.Invalid {
				t.Fatalf("slide %d: %v", n, err)
			}
		}
	})
	t.Run("MoveIsSeenAtItsSeq", func(t *testing.T) {
		moved, err := d.Move(ctx, presenter, 6)
		if err != nil {
			t.Fatal(err)
		}
		now, err := d.Current(ctx)
		if err != nil || now.Slide != 6 || now.Seq != moved.Seq || moved.Seq == 0 {
			t.Fatalf("moved %+v, current %+v %v", moved, now, err)
		}
		entries, _ := postgres.Audit{DB: db}.List(ctx, core.AuditFilter{Limit: 1})
		if len(entries) != 1 || entries[0].Act != core.ActionDeckMove || entries[0].Actor.Name != "presenter" {
			t.Fatalf("%+v", entries)
		}
	})
}
