package tournament_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// league is the service on a real database, with what tests need to look
// behind it: the events it emitted and the audit entries it wrote.
type league struct {
	svc *tournament.Service
	db  *postgres.DB
}

func newLeague(t *testing.T) league {
	db := pgtest.DB(t)
	return league{db: db, svc: &tournament.Service{Store: postgres.Tournaments{DB: db}, Tx: db,
		Events: postgres.Outbox{DB: db}, Audit: postgres.Audit{DB: db}, Default: "PPL7"}}
}

// player signs up a verified account with a Discord name and stats.
func (l league) player(t *testing.T) core.Actor {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := l.db.Pool.QueryRow(ctx, `INSERT INTO users (email, email_verified, discord_username) VALUES ($1, true, 'racer')
		RETURNING id`, testkit.UniqueEmail("t")).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := (postgres.Stats{DB: l.db}).SaveStats(ctx, id, core.Stats{Kills: 30, Deaths: 10, KD: 3, Category: 2}); err != nil {
		t.Fatal(err)
	}
	return core.Actor{UserID: id, Name: "racer"}
}

// lastEvent is the newest outbox event of topic.
func (l league) lastEvent(t *testing.T, topic string) (seq int64, name string, data map[string]any) {
	t.Helper()
	var raw []byte
	err := l.db.Pool.QueryRow(context.Background(), `SELECT seq, event, data FROM outbox WHERE topic = $1 ORDER BY seq DESC LIMIT 1`, topic).
		Scan(&seq, &name, &raw)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw, &data)
	return seq, name, data
}

func (l league) seq(t *testing.T) int64 {
	s, err := postgres.Outbox{DB: l.db}.Seq(context.Background(), core.TopicRegistrations)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRegister(t *testing.T) {
	l := newLeague(t)
	ctx := context.Background()
	p := l.player(t)

	t.Run("OKEmitsTheCard", func(t *testing.T) {
		before := l.seq(t)
		if _, err := l.svc.Register(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
		seq, name, data := l.lastEvent(t, core.TopicRegistrations)
		card := data["player"].(map[string]any)
		if seq != before+1 || name != tournament.EventRegistered || card["id"] != float64(p.UserID) || card["discord_id"] != "racer" {
			t.Fatalf("event %d %s %v", seq, name, data)
		}
		if _, hasEmail := card["email"]; hasEmail {
			t.Fatal("the public card carries an e-mail")
		}
	})
	t.Run("ErrTwiceChangesNothing", func(t *testing.T) {
		before := l.seq(t)
		_, err := l.svc.Register(ctx, p, "PPL7")
		if errs.KindOf(err) != errs.Conflict || errs.MessageOf(err) != tournament.MsgAlreadyRegistered || l.seq(t) != before {
			t.Fatalf("%v; seq %d -> %d", err, before, l.seq(t))
		}
	})
	t.Run("ErrAnonymous", func(t *testing.T) {
		if _, err := l.svc.Register(ctx, core.Actor{}, "PPL7"); errs.KindOf(err) != errs.Unauthorized {
			t.Fatal(err)
		}
	})
	t.Run("ErrUnknownTournament", func(t *testing.T) {
		if _, err := l.svc.Register(ctx, l.player(t), "NO-SUCH-CUP"); errs.KindOf(err) != errs.NotFound {
			t.Fatal(err)
		}
	})
	t.Run("RegistrationsAreTheStateAtTheirSeq", func(t *testing.T) {
		ppl, _ := l.svc.Find(ctx, "PPL7")
		r, err := l.svc.Registrations(ctx, ppl)
		if err != nil || r.Seq != l.seq(t) || r.Count != len(r.Players) || r.Count == 0 {
			t.Fatalf("%+v %v (outbox seq %d)", r, err, l.seq(t))
		}
	})
	t.Run("UnregisterEmits", func(t *testing.T) {
		if err := l.svc.Unregister(ctx, p, "PPL7"); err != nil {
			t.Fatal(err)
		}
		if _, name, data := l.lastEvent(t, core.TopicRegistrations); name != tournament.EventUnregistered || data["id"] != float64(p.UserID) {
			t.Fatalf("%s %v", name, data)
		}
		if ok, _ := l.svc.IsRegistered(ctx, p, "PPL7"); ok {
			t.Fatal("still registered")
		}
	})
}

func TestSetStatus(t *testing.T) {
	l := newLeague(t)
	ctx := context.Background()
	admin := core.Actor{UserID: l.player(t).UserID, Name: "organiser", Admin: true}

	t.Run("ErrNotAnOrganiser", func(t *testing.T) {
		before := l.seq(t)
		_, err := l.svc.SetStatus(ctx, l.player(t), "PPL7", tournament.StatusAuction, false)
		if errs.KindOf(err) != errs.Forbidden || l.seq(t) != before {
			t.Fatalf("%v", err)
		}
	})
	t.Run("ErrUnknownStatus", func(t *testing.T) {
		if _, err := l.svc.SetStatus(ctx, admin, "PPL7", "playoffs", false); errs.KindOf(err) != errs.Invalid {
			t.Fatal(err)
		}
	})
	t.Run("ErrIncompleteUnlessForced", func(t *testing.T) {
		before := l.seq(t)
		_, err := l.svc.SetStatus(ctx, admin, "PPL7", tournament.StatusAuction, false)
		if errs.KindOf(err) != errs.Conflict || len(errs.ProblemsOf(err)) != 8 || l.seq(t) != before {
			t.Fatalf("eight teams without captains, unforced: %v %q", err, errs.ProblemsOf(err))
		}
	})
	t.Run("OKAuditedAndEmittedTogether", func(t *testing.T) {
		got, err := l.svc.SetStatus(ctx, admin, "PPL7", tournament.StatusAuction, true)
		if err != nil || got.Status != tournament.StatusAuction || got.RegistrationOpen() {
			t.Fatalf("%+v %v", got, err)
		}
		defer l.svc.SetStatus(ctx, admin, "PPL7", tournament.StatusRegistration, false)
		if _, name, data := l.lastEvent(t, core.TopicRegistrations); name != tournament.EventStatus || data["status"] != "auction" {
			t.Fatalf("%s %v", name, data)
		}
		entries, err := postgres.Audit{DB: l.db}.List(ctx, core.AuditFilter{TournamentID: got.ID, Limit: 1})
		if err != nil || len(entries) != 1 || entries[0].Act != core.ActionTournamentStatus || entries[0].Actor.Name != "organiser" {
			t.Fatalf("%+v %v", entries, err)
		}
		// Forced: the entry keeps what the organiser overrode.
		var data struct {
			Force    bool     `json:"force"`
			Problems []string `json:"problems"`
		}
		if err := json.Unmarshal(entries[0].Data, &data); err != nil || !data.Force || len(data.Problems) != 8 ||
			data.Problems[0] != "Team A has no captain yet: it cannot bid" {
			t.Fatalf("audited %s", entries[0].Data)
		}
		// A closed tournament takes no registration.
		if _, err := l.svc.Register(ctx, l.player(t), "PPL7"); errs.KindOf(err) != errs.Conflict {
			t.Fatalf("registered while the auction runs: %v", err)
		}
	})
}

// A card that changes (stats, Discord name) is re-sent to every list the
// player is on, inside the change's own transaction.
func TestPlayerChanged(t *testing.T) {
	l := newLeague(t)
	ctx := context.Background()
	p := l.player(t)
	if _, err := l.svc.Register(ctx, p, "PPL7"); err != nil {
		t.Fatal(err)
	}
	before := l.seq(t)
	if err := l.db.Transact(ctx, func(ctx context.Context) error { return l.svc.PlayerChanged(ctx, p.UserID) }); err != nil {
		t.Fatal(err)
	}
	if seq, name, _ := l.lastEvent(t, core.TopicRegistrations); seq != before+1 || name != tournament.EventStatsUpdated {
		t.Fatalf("%d %s", seq, name)
	}
}
