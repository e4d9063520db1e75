package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// phaseKind is a kind of actor the season's table is tried with.
type phaseKind struct {
	name  string
	actor core.Actor
	is    []tournament.Who // what the table calls them in PPL7
}

// phaseAction is one action of the season's table, tried as an actor in
// a rehearsal whose tournament is in some phase. setup prepares what the
// action needs (a lot to bid on, an open check-in) with the season in the
// auction phase, or setupIn, before the season is put in its phase;
// succeeds names the kind of actor for whom the action, where the table
// allows it, must go through (others may still meet the action's own
// rules, e.g. an organiser who has no stats to register with).
type phaseAction struct {
	act      tournament.Action
	succeeds string
	setup    func(ctx context.Context, t *testing.T, q postgres.Querier) int64
	run      func(ctx context.Context, a core.Actor, arg int64) error
	setupIn  string
}

// Every action of a season, in every phase, by every kind of actor: the
// answer is the one tournament.Rules gives, and a refusal changes nothing.
func TestEveryLeagueActionInEveryPhase(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Fresh(t)
	if _, err := demo.Load(ctx, db, demo.Options{Players: 60, Captains: true}); err != nil {
		t.Fatal(err)
	}
	if err := demo.Advance(ctx, db, "PPL7", tournament.StatusAuction); err != nil {
		t.Fatal(err)
	}
	s := testkit.NewServer(t, db, testkit.Options{})
	srv := s.App.Server
	ppl7, err := srv.Tournaments.Find(ctx, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
	ppl8, err := srv.Tournaments.Create(ctx, organiser, tournament.NewTournament{Name: "PPL8", Season: 8})
	if err != nil {
		t.Fatal(err)
	}
	var captainA, pooled, waiting, soldLot int64
	q := func(sql string, dst ...any) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, sql, ppl7.ID).Scan(dst...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	q(`SELECT captain_user_id FROM teams WHERE tournament_id = $1 AND letter = 'A'`, &captainA)
	q(`SELECT r.user_id FROM registrations r WHERE r.tournament_id = $1
		AND NOT EXISTS (SELECT 1 FROM team_players p WHERE p.user_id = r.user_id AND p.tournament_id = $1)
		AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) ORDER BY r.user_id LIMIT 1`, &pooled)
	q(`SELECT r.user_id FROM registrations r WHERE r.tournament_id = $1
		AND NOT EXISTS (SELECT 1 FROM team_players p WHERE p.user_id = r.user_id AND p.tournament_id = $1)
		AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) ORDER BY r.user_id DESC LIMIT 1`, &waiting)
	q(`SELECT id FROM auction_lots WHERE tournament_id = $1 AND status = 'sold' ORDER BY id LIMIT 1`, &soldLot)

	// A player with stats and a Discord name who has not registered yet.
	token := s.SignUp(t, testkit.UniqueEmail("newcomer"), "newcomer_1")
	if r := s.Do(t, "POST", "/api/stats/save", token, map[string]any{"kills": 500, "deaths": 250, "games_played": 300, "kd": 2, "level": 20}); r.Status != 200 {
		t.Fatalf("save stats: %d %s", r.Status, r.Message())
	}
	au, err := srv.Accounts.Authenticate(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	newcomer := au.Actor
	player := core.Actor{UserID: pooled, Name: "pooled player"}
	kinds := []phaseKind{
		{"anonymous", core.Actor{}, nil},
		{"player", player, []tournament.Who{tournament.Players}},
		{"newcomer", newcomer, []tournament.Who{tournament.Players}},
		{"team A's captain", core.Actor{UserID: captainA, Name: "captain A",
			Captains: []core.Captaincy{{TournamentID: ppl7.ID, Tournament: "PPL7", Team: "A"}}}, []tournament.Who{tournament.Players, tournament.Captains}},
		{"a captain of another season", core.Actor{UserID: pooled, Name: "pooled player",
			Captains: []core.Captaincy{{TournamentID: ppl8.ID, Tournament: "PPL8", Team: "A"}}}, []tournament.Who{tournament.Players}},
		{"organiser", organiser, []tournament.Who{tournament.Players, tournament.Organisers}},
		// A co-organiser is an organiser in the tournament granted, and a
		// player in another's.
		{"PPL7's co-organiser", core.Actor{UserID: waiting, Name: "co-organiser",
			Staff: []core.StaffGrant{{TournamentID: ppl7.ID, Tournament: "PPL7"}}}, []tournament.Who{tournament.Players, tournament.Organisers}},
		{"PPL8's co-organiser", core.Actor{UserID: waiting, Name: "another's co-organiser",
			Staff: []core.StaffGrant{{TournamentID: ppl8.ID, Tournament: "PPL8"}}}, []tournament.Who{tournament.Players}},
	}

	// openLot opens a lot on the pooled player for a bid or a close to act on.
	openLot := func(ctx context.Context, t *testing.T, _ postgres.Querier) int64 {
		t.Helper()
		lot, err := srv.Auction.OpenLot(ctx, organiser, "PPL7", pooled, 0)
		if err != nil {
			t.Fatal(err)
		}
		return lot.ID
	}
	exec := func(ctx context.Context, t *testing.T, q postgres.Querier, sql string, args ...any) {
		t.Helper()
		if _, err := q.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// openCheckin opens PPL7's check-in for an hour.
	openCheckin := func(ctx context.Context, t *testing.T, q postgres.Querier) int64 {
		exec(ctx, t, q, `UPDATE tournaments SET checkin_opened_at = now(), checkin_deadline = now() + interval '1 hour' WHERE id = $1`, ppl7.ID)
		return 0
	}
	// waitlist puts a player on PPL7's waitlist.
	waitlist := func(ctx context.Context, t *testing.T, q postgres.Querier) int64 {
		exec(ctx, t, q, `UPDATE registrations SET status = 'waitlisted', waitlisted_at = now() WHERE tournament_id = $1 AND user_id = $2`,
			ppl7.ID, waiting)
		return waiting
	}
	// askForPooled is team A's request to sign the pooled player.
	askForPooled := func(ctx context.Context, t *testing.T, q postgres.Querier) int64 {
		var id int64
		if err := q.QueryRow(ctx, `INSERT INTO substitute_requests (tournament_id, team_id, user_id, price)
			SELECT $1, id, $2, 1100 FROM teams WHERE tournament_id = $1 AND letter = 'A' RETURNING id`, ppl7.ID, pooled).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	// turnOfA gives team A the turn to nominate, for an hour.
	turnOfA := func(ctx context.Context, t *testing.T, q postgres.Querier) int64 {
		exec(ctx, t, q, `UPDATE auction_flows SET turn_seconds = 30, turn_letter = 'A', turn_ends_at = now() + interval '1 hour'
			WHERE tournament_id = $1`, ppl7.ID)
		return 0
	}
	// paused pauses PPL7's auction.
	paused := func(ctx context.Context, t *testing.T, _ postgres.Querier) int64 {
		t.Helper()
		if _, err := srv.Auction.Pause(ctx, organiser, "PPL7"); err != nil {
			t.Fatal(err)
		}
		return 0
	}
	// fixtures makes PPL7's fixtures, for a reset to take back.
	fixtures := func(ctx context.Context, t *testing.T, _ postgres.Querier) int64 {
		t.Helper()
		if _, err := srv.Matches.Generate(ctx, organiser, "PPL7", "single_elimination"); err != nil {
			t.Fatal(err)
		}
		return 0
	}
	actions := []phaseAction{
		{act: tournament.Register, succeeds: "newcomer", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Tournaments.Register(ctx, a, "PPL7")
			return err
		}},
		{act: tournament.Unregister, succeeds: "player", run: func(ctx context.Context, a core.Actor, _ int64) error {
			return srv.Tournaments.Unregister(ctx, a, "PPL7")
		}},
		{act: tournament.SetCap, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Tournaments.SetCap(ctx, a, "PPL7", 64)
			return err
		}},
		{act: tournament.OpenCheckin, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			deadline := time.Now().Add(2 * time.Hour)
			_, err := srv.Tournaments.OpenCheckin(ctx, a, "PPL7", &deadline)
			return err
		}},
		{act: tournament.CheckIn, succeeds: "player", setup: openCheckin, setupIn: tournament.StatusRegistration,
			run: func(ctx context.Context, a core.Actor, _ int64) error {
				_, err := srv.Tournaments.CheckIn(ctx, a, "PPL7")
				return err
			}},
		{act: tournament.Promote, succeeds: "organiser", setup: waitlist, setupIn: tournament.StatusRegistration,
			run: func(ctx context.Context, a core.Actor, id int64) error {
				_, err := srv.Tournaments.Promote(ctx, a, "PPL7", id)
				return err
			}},
		{act: tournament.AskSubstitute, succeeds: "team A's captain", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.AskSubstitute(ctx, a, "PPL7", pooled)
			return err
		}},
		{act: tournament.RuleSubstitute, succeeds: "organiser", setup: askForPooled,
			run: func(ctx context.Context, a core.Actor, id int64) error {
				_, err := srv.Auction.DecideSubstitute(ctx, a, "PPL7", id, true, "")
				return err
			}},
		{act: tournament.NameCaptain, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.SetCaptain(ctx, a, "PPL7", "A", pooled)
			return err
		}},
		{act: tournament.SetTier, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.SetTier(ctx, a, "PPL7", pooled, 2)
			return err
		}},
		{act: tournament.OpenLot, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.OpenLot(ctx, a, "PPL7", pooled, 0)
			return err
		}},
		{act: tournament.Bid, succeeds: "team A's captain", setup: openLot, run: func(ctx context.Context, a core.Actor, lot int64) error {
			_, err := srv.Auction.Bid(ctx, a, "PPL7", lot, 2200)
			return err
		}},
		{act: tournament.CloseLot, succeeds: "organiser", setup: openLot, run: func(ctx context.Context, a core.Actor, lot int64) error {
			_, err := srv.Auction.Close(ctx, a, "PPL7", lot)
			return err
		}},
		{act: tournament.VoidSale, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.Void(ctx, a, "PPL7", soldLot)
			return err
		}},
		{act: tournament.PauseAuction, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.Pause(ctx, a, "PPL7")
			return err
		}},
		{act: tournament.ResumeAuction, succeeds: "organiser", setup: paused, run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.Resume(ctx, a, "PPL7")
			return err
		}},
		{act: tournament.UndoSale, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.UndoLastSale(ctx, a, "PPL7")
			return err
		}},
		{act: tournament.SetTurns, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.SetTurns(ctx, a, "PPL7", true, 45)
			return err
		}},
		{act: tournament.Nominate, succeeds: "team A's captain", setup: turnOfA, run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Auction.Nominate(ctx, a, "PPL7", pooled)
			return err
		}},
		{act: tournament.TalkInRoom, succeeds: "team A's captain", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Room.Post(ctx, a, "PPL7", "good luck all")
			return err
		}},
		{act: tournament.ReorderSeeds, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Matches.SetSeeds(ctx, a, "PPL7", []string{"H", "G", "F", "E", "D", "C", "B", "A"})
			return err
		}},
		{act: tournament.MakeFixtures, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Matches.Generate(ctx, a, "PPL7", "round_robin")
			return err
		}},
		{act: tournament.ResetFixtures, succeeds: "organiser", setup: fixtures, setupIn: tournament.StatusMatches,
			run: func(ctx context.Context, a core.Actor, _ int64) error {
				_, err := srv.Matches.ResetFixtures(ctx, a, "PPL7", false)
				return err
			}},
		{act: tournament.WithdrawPlayer, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Tournaments.WithdrawPlayer(ctx, a, "PPL7", pooled, tournament.WithdrawInput{Reason: "moved away"})
			return err
		}},
		{act: tournament.WithdrawTeam, succeeds: "organiser", run: func(ctx context.Context, a core.Actor, _ int64) error {
			_, err := srv.Matches.WithdrawTeam(ctx, a, "PPL7", "B", "stopped showing up")
			return err
		}},
	}
	tried := map[tournament.Action]bool{}
	for _, pa := range actions {
		tried[pa.act] = true
	}
	for act := range tournament.Rules {
		// A match's own table tries PlayMatch and RuleMatch; the league's jobs are tried below.
		if !tried[act] && act != tournament.PlayMatch && act != tournament.RuleMatch && act != tournament.CloseCheckin &&
			act != tournament.NominateDue {
			t.Errorf("the season's table has %q, which this test does not try", act)
		}
	}

	phases := []string{tournament.StatusRegistration, tournament.StatusAuction, tournament.StatusMatches, tournament.StatusCompleted}
	for _, pa := range actions {
		rule := tournament.Rules[pa.act]
		for _, phase := range phases {
			for _, k := range kinds {
				name := fmt.Sprintf("%s: %s, %s phase", pa.act, k.name, phase)
				allowed := slices.ContainsFunc(k.is, func(w tournament.Who) bool { return slices.Contains(rule.Who, w) })
				inPhase := slices.Contains(rule.Phases, phase)
				phaseRefusal := fmt.Sprintf(rule.Refusal, "PPL7", phase)
				err := db.Rehearse(ctx, func(ctx context.Context, tx postgres.Querier) error {
					var arg int64
					if pa.setup != nil {
						in := pa.setupIn
						if in == "" {
							in = tournament.StatusAuction
						}
						if _, err := tx.Exec(ctx, `UPDATE tournaments SET status = $2 WHERE id = $1`, ppl7.ID, in); err != nil {
							t.Fatal(err)
						}
						arg = pa.setup(ctx, t, tx)
					}
					if _, err := tx.Exec(ctx, `UPDATE tournaments SET status = $2 WHERE id = $1`, ppl7.ID, phase); err != nil {
						t.Fatal(err)
					}
					before := pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...)
					err := db.Attempt(ctx, func(ctx context.Context) error { return pa.run(ctx, k.actor, arg) })
					changed := pgtest.Changed(before, pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...))
					kind, msg := errs.KindOf(err), errs.MessageOf(err)
					switch {
					case !allowed && !k.actor.SignedIn() && kind != errs.Unauthorized,
						!allowed && k.actor.SignedIn() && kind != errs.Forbidden:
						t.Errorf("%s: answered %s %q, the table refuses them", name, kind, msg)
					case allowed && !inPhase && (kind != errs.Conflict || msg != phaseRefusal):
						t.Errorf("%s: answered %s %q, want the phase's refusal %q", name, kind, msg, phaseRefusal)
					case allowed && inPhase && k.name == pa.succeeds && err != nil:
						t.Errorf("%s: refused (%s %q), the table allows it", name, kind, msg)
					case allowed && inPhase && (kind == errs.Unauthorized || kind == errs.Forbidden || msg == phaseRefusal):
						t.Errorf("%s: refused for who or when (%s %q), the table allows it", name, kind, msg)
					case err != nil && len(changed) > 0:
						t.Errorf("%s: refused (%s), yet changed %v", name, msg, changed)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}

	// The deadline's job closes a check-in only in a season still
	// registering: the players who did not check in go to the waitlist.
	// In any other phase it finds nothing to do and changes nothing.
	for _, phase := range phases {
		err := db.Rehearse(ctx, func(ctx context.Context, tx postgres.Querier) error {
			deadline := time.Now().Add(-time.Minute).UTC().Truncate(time.Microsecond)
			if _, err := tx.Exec(ctx, `UPDATE tournaments SET status = $2, checkin_opened_at = $3::timestamptz - interval '1 hour',
				checkin_deadline = $3 WHERE id = $1`, ppl7.ID, phase, deadline); err != nil {
				t.Fatal(err)
			}
			before := pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...)
			err := db.Attempt(ctx, func(ctx context.Context) error {
				return srv.Tournaments.CheckinDeadlineDue(ctx, tournament.CheckinDeadline{Tournament: ppl7.ID, Deadline: deadline})
			})
			changed := pgtest.Changed(before, pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...))
			var waiting int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM registrations WHERE tournament_id = $1 AND status = 'waitlisted'`, ppl7.ID).
				Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			acts := phase == tournament.StatusRegistration
			switch {
			case err != nil:
				t.Errorf("the deadline in the %s phase: %v", phase, err)
			case acts && (waiting == 0 || !slices.Contains(changed, "registrations")):
				t.Errorf("the deadline in the registration phase waitlisted %d, changed %v", waiting, changed)
			case !acts && len(changed) > 0:
				t.Errorf("the deadline in the %s phase changed %v", phase, changed)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	// A turn run out makes the league nominate for the team only in a
	// season in its auction: in any other phase the job changes nothing.
	for _, phase := range phases {
		err := db.Rehearse(ctx, func(ctx context.Context, tx postgres.Querier) error {
			exec(ctx, t, tx, `UPDATE tournaments SET status = $2 WHERE id = $1`, ppl7.ID, phase)
			exec(ctx, t, tx, `UPDATE auction_flows SET turn_seconds = 30, turn_letter = 'A', turn_ends_at = now() - interval '1 minute'
				WHERE tournament_id = $1`, ppl7.ID)
			before := pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...)
			err := db.Attempt(ctx, func(ctx context.Context) error {
				return srv.Auction.NominateDue(ctx, auction.NominateTurn{Tournament: ppl7.ID, Team: "A"})
			})
			changed := pgtest.Changed(before, pgtest.Fingerprint(ctx, t, tx, pgtest.LeagueTables...))
			acts := phase == tournament.StatusAuction
			switch {
			case err != nil:
				t.Errorf("the turn's end in the %s phase: %v", phase, err)
			case acts && !slices.Contains(changed, "auction_lots"):
				t.Errorf("the turn's end in the auction phase nominated nobody: changed %v", changed)
			case !acts && len(changed) > 0:
				t.Errorf("the turn's end in the %s phase changed %v", phase, changed)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
