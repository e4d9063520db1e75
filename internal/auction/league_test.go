package auction_test

// A league for the auction's tests: a season with players and captains,
// and the shortcuts the tests take into it.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// league is a tournament of the test's own in its auction phase, with its
// services on the package's real database.
type league struct {
	t        *testing.T
	db       *postgres.DB
	name     string
	tour     *tournament.Service
	svc      *auction.Service
	admin    core.Actor
	captains map[string]core.Actor // by team letter
	players  []int64
}

var leagues int

// newLeague registers n players and makes captains of the given teams.
func newLeague(t *testing.T, n int, teams ...string) *league {
	t.Helper()
	db := pgtest.DB(t)
	ctx := context.Background()
	leagues++
	l := &league{t: t, db: db, name: fmt.Sprintf("AUC%d-%d", leagues, rand.IntN(1e6)), captains: map[string]core.Actor{}}
	store := postgres.Tournaments{DB: db}
	if err := store.EnsureTournament(ctx, l.name); err != nil {
		t.Fatal(err)
	}
	l.tour = &tournament.Service{Store: store, Tx: db, Events: postgres.Outbox{DB: db}, Audit: postgres.Audit{DB: db}}
	l.svc = &auction.Service{Store: postgres.Auction{DB: db}, Tournaments: l.tour, Cards: l.tour, Tx: db,
		Events: postgres.Outbox{DB: db}, Audit: postgres.Audit{DB: db}, Jobs: noJobs{},
		LotTime: time.Minute, LateBid: time.Second}
	t.Cleanup(l.svc.Stop)
	l.admin = core.Actor{UserID: l.user("organiser", 2, 100), Name: "organiser", Admin: true}
	for i := range n + len(teams) {
		id := l.user(fmt.Sprintf("p%d", i), 1+float64(i%4)*0.6, 100*(i%7))
		if _, err := l.tour.Register(ctx, core.Actor{UserID: id}, l.name); err != nil {
			t.Fatal(err)
		}
		l.players = append(l.players, id)
	}
	for i, letter := range teams {
		id := l.players[len(l.players)-1-i]
		if _, err := l.svc.SetCaptain(ctx, l.admin, l.name, letter, id); err != nil {
			t.Fatal(err)
		}
		l.captains[letter] = core.Actor{UserID: id, Name: "captain " + letter,
			Captains: []core.Captaincy{{TournamentID: l.id(), Tournament: l.name, Team: letter}}}
	}
	l.players = l.players[:n]
	l.phase(tournament.StatusAuction)
	return l
}

// noJobs stands in for river where a test does not need the backstop.
type noJobs struct{}

func (noJobs) Schedule(context.Context, core.Job, time.Time) error { return nil }

func (noJobs) Unschedule(context.Context, string, string, any) error { return nil }

func (l *league) user(name string, kd float64, games int) int64 {
	l.t.Helper()
	ctx := context.Background()
	var id int64
	if err := l.db.Pool.QueryRow(ctx, `INSERT INTO users (email, email_verified, discord_username) VALUES ($1, true, $2)
		RETURNING id`, testkit.UniqueEmail(name), name).Scan(&id); err != nil {
		l.t.Fatal(err)
	}
	kills := int(kd * 100)
	st := core.Stats{Kills: kills, Deaths: 100, KD: core.KD(kills, 100), GamesPlayed: games}
	st.Category = core.TierOf(st)
	if _, err := (postgres.Stats{DB: l.db}).SaveStats(ctx, id, st); err != nil {
		l.t.Fatal(err)
	}
	return id
}

func (l *league) id() int64 {
	t, err := l.tour.Find(context.Background(), l.name)
	if err != nil {
		l.t.Fatal(err)
	}
	return t.ID
}

// phase moves the league on, forced: its teams are not all captained or
// full, which the move would otherwise list and stop at.
func (l *league) phase(status string) {
	l.t.Helper()
	if _, err := l.tour.SetStatus(context.Background(), l.admin, l.name, status, true); err != nil {
		l.t.Fatal(err)
	}
}

func (l *league) open(userID int64, base int) auction.Lot {
	l.t.Helper()
	lot, err := l.svc.OpenLot(context.Background(), l.admin, l.name, userID, base)
	if err != nil {
		l.t.Fatal(err)
	}
	return lot
}

func (l *league) team(letter string) auction.Team {
	l.t.Helper()
	v, err := l.svc.Teams(context.Background(), l.name)
	if err != nil {
		l.t.Fatal(err)
	}
	for _, t := range v.Teams {
		if t.ID == letter {
			return t
		}
	}
	l.t.Fatalf("no team %s", letter)
	return auction.Team{}
}

// refused checks err is kind with message msg ("" for any).
func refused(t *testing.T, what string, err error, kind, msg string) {
	t.Helper()
	if errs.KindOf(err) != kind || (msg != "" && errs.MessageOf(err) != msg) {
		t.Fatalf("%s: got %s %q, want %s %q", what, errs.KindOf(err), errs.MessageOf(err), kind, msg)
	}
}
