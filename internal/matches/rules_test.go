package matches_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/tournament"
)

// countedJobs counts what a service asks of the scheduler.
type countedJobs struct {
	mu sync.Mutex
	n  int
}

func (c *countedJobs) Schedule(context.Context, core.Job, time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return nil
}

func (c *countedJobs) Unschedule(context.Context, string, string, any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return nil
}

func (c *countedJobs) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// The states a match is tried in: its statuses, and a match whose sides
// are not known yet (waiting for earlier winners).
const waiting = "waiting"

var states = []string{matches.StatusScheduled, matches.StatusLive, matches.StatusReported, matches.StatusDisputed,
	matches.StatusCompleted, matches.StatusCancelled, waiting}

// actorKind is one kind of actor the table is tried with, and who it is to
// the match (its parties, as the rules should find them).
type actorKind struct {
	name    string
	actor   core.Actor
	parties []matches.Party // to a match whose sides are known
}

// Every action on a match, in every state, in both phases a season's
// matches can be in, by every kind of actor: the answer is the one the
// transition table gives (MatchRules), and a refusal changes nothing at
// all, not a row of any league table nor a job.
func TestEveryMatchActionInEveryState(t *testing.T) {
	s := newSeason(t)
	jobs := &countedJobs{}
	s.svc.Jobs = jobs
	ctx := context.Background()
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	m := s.match(b.Rounds[0].Matches[0].ID)
	later := s.match(b.Rounds[1].Matches[0].ID)
	home, away := m.Team1.ID, m.Team2.ID
	outsider := b.Rounds[0].Matches[1].Team1.ID
	proof := s.proof(m)
	next, err := s.tour.Create(ctx, s.admin, tournament.NewTournament{Name: "PPL8", Season: 8})
	if err != nil {
		t.Fatal(err)
	}
	var player int64 // registered, on no team
	if err := s.db.Pool.QueryRow(ctx, `SELECT r.user_id FROM registrations r WHERE r.tournament_id = $1
		AND NOT EXISTS (SELECT 1 FROM team_players p WHERE p.user_id = r.user_id AND p.tournament_id = $1)
		AND NOT EXISTS (SELECT 1 FROM teams c WHERE c.captain_user_id = r.user_id) LIMIT 1`, s.tid).Scan(&player); err != nil {
		t.Fatal(err)
	}
	kinds := []actorKind{
		{"anonymous", core.Actor{}, []matches.Party{matches.Other}},
		{"a player", core.Actor{UserID: player, Name: "player"}, []matches.Party{matches.Other}},
		{"the home captain", s.captain(home), []matches.Party{matches.Home}},
		{"the away captain", s.captain(away), []matches.Party{matches.Away}},
		{"another team's captain", s.captain(outsider), []matches.Party{matches.Other}},
		{"a captain of another season", core.Actor{UserID: player, Name: "player",
			Captains: []core.Captaincy{{TournamentID: next.ID, Tournament: next.Name, Team: home}}}, []matches.Party{matches.Other}},
		{"an organiser", s.admin, []matches.Party{matches.Organiser}},
		{"PPL7's co-organiser", core.Actor{UserID: player, Name: "co-organiser",
			Staff: []core.StaffGrant{{TournamentID: s.tid, Tournament: "PPL7"}}}, []matches.Party{matches.Organiser}},
		{"another season's co-organiser", core.Actor{UserID: player, Name: "co-organiser",
			Staff: []core.StaffGrant{{TournamentID: next.ID, Tournament: next.Name}}}, []matches.Party{matches.Other}},
	}

	lines := matches.Report{Winner: home}
	for i, side := range m.Sides() {
		for j, p := range m.Members[side.ID][:2] {
			lines.Players = append(lines.Players, matches.PlayerLine{UserID: p.UserID, Team: side.ID, Kills: 3 + i + j, Deaths: 2, Placement: 1 + 2*i + j})
		}
	}
	report, _ := json.Marshal(lines)
	// Within the hour before it: a side may check in.
	at := time.Now().Add(30 * time.Minute).UTC().Truncate(time.Minute)
	// The home side has proposed a time, standing in every state.
	proposed := at.Add(2 * time.Hour)

	// set puts the match into state (the later match for waiting) and the
	// season into phase; it returns the match the actions are tried on.
	set := func(ctx context.Context, q postgres.Querier, state, phase string) int64 {
		t.Helper()
		exec := func(sql string, args ...any) {
			t.Helper()
			if _, err := q.Exec(ctx, sql, args...); err != nil {
				t.Fatalf("%s: %v", state, err)
			}
		}
		exec(`UPDATE tournaments SET status = $2 WHERE id = $1`, s.tid, phase)
		if state == waiting {
			return later.ID
		}
		exec(`UPDATE matches SET status = 'scheduled', room = '', reported_by = NULL, reported_at = NULL, report = NULL,
			proof_image_id = NULL, dispute_reason = '', confirm_by = NULL, winner_id = NULL, scheduled_at = $2,
			proposed_by = $3, proposed_times = $4 WHERE id = $1`, m.ID, at, m.Team1.DBID, []time.Time{proposed})
		switch state {
		case matches.StatusLive:
			exec(`UPDATE matches SET status = 'live', room = 'ROOM1' WHERE id = $1`, m.ID)
		case matches.StatusReported, matches.StatusDisputed, matches.StatusCompleted:
			exec(`UPDATE matches SET status = $2, reported_by = $3, reported_at = now(), report = $4, proof_image_id = $5,
				confirm_by = now() - interval '1 minute' WHERE id = $1`, m.ID, state, m.Team1.DBID, report, proof)
		case matches.StatusCancelled:
			exec(`UPDATE matches SET status = 'cancelled' WHERE id = $1`, m.ID)
		}
		switch state {
		case matches.StatusDisputed:
			exec(`UPDATE matches SET dispute_reason = 'lag', confirm_by = NULL WHERE id = $1`, m.ID)
		case matches.StatusCompleted:
			exec(`UPDATE matches SET winner_id = $2, confirm_by = NULL WHERE id = $1`, m.ID, m.Team1.DBID)
		}
		return m.ID
	}

	do := map[matches.Action]func(ctx context.Context, a core.Actor, id int64) error{
		matches.ActPostRoom: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.PostRoom(ctx, a, id, "ROOM42")
			return err
		},
		matches.ActSetTime: func(ctx context.Context, a core.Actor, id int64) error {
			later := at.Add(time.Hour)
			_, err := s.svc.SetTime(ctx, a, id, &later)
			return err
		},
		matches.ActPropose: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.Propose(ctx, a, id, []time.Time{at.Add(3 * time.Hour), at.Add(4 * time.Hour)})
			return err
		},
		matches.ActAccept: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.Accept(ctx, a, id, proposed)
			return err
		},
		matches.ActCheckIn: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.CheckIn(ctx, a, id)
			return err
		},
		matches.ActPickLineup: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.SetLineup(ctx, a, id, []int64{a.UserID})
			return err
		},
		matches.ActUploadProof: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.UploadProof(ctx, a, id, screenshot(t, 90))
			return err
		},
		matches.ActReport: func(ctx context.Context, a core.Actor, id int64) error {
			r := lines
			r.Players = slices.Clone(lines.Players)
			_, err := s.svc.ReportResult(ctx, a, id, matches.ReportInput{Report: r, ScreenshotID: proof})
			return err
		},
		matches.ActConfirm: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.Confirm(ctx, a, id)
			return err
		},
		matches.ActDispute: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.Dispute(ctx, a, id, "the host left")
			return err
		},
		matches.ActResolve: func(ctx context.Context, a core.Actor, id int64) error {
			r := lines
			r.Players = slices.Clone(lines.Players)
			_, err := s.svc.Resolve(ctx, a, id, r)
			return err
		},
		matches.ActForfeit: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.Forfeit(ctx, a, id)
			return err
		},
		matches.ActForfeitSide: func(ctx context.Context, a core.Actor, id int64) error {
			_, err := s.svc.ForfeitFor(ctx, a, id, home)
			return err
		},
	}
	if len(do)+2 != len(matches.MatchRules) { // the two jobs are tried below
		t.Fatalf("%d actions tried, %d in the table", len(do)+2, len(matches.MatchRules))
	}

	// want is the table's answer: "" allowed, else the kind of refusal.
	want := func(act matches.Action, k actorKind, state, phase string) string {
		r := matches.MatchRules[act]
		parties := k.parties
		if state == waiting && !slices.Contains(parties, matches.Organiser) {
			parties = []matches.Party{matches.Other} // no sides yet, so no side's captain
		}
		reported := state == matches.StatusReported || state == matches.StatusDisputed || state == matches.StatusCompleted
		switch {
		case !slices.ContainsFunc(parties, func(p matches.Party) bool { return slices.Contains(r.Who, p) }):
			if !k.actor.SignedIn() {
				return errs.Unauthorized
			}
			return errs.Forbidden
		case r.Answering && reported && slices.Contains(parties, matches.Home): // home reported
			return errs.Forbidden
		case r.Replying && slices.Contains(parties, matches.Home): // home proposed
			return errs.Forbidden
		case phase != tournament.StatusMatches, !slices.Contains(r.States, state), state == waiting:
			return errs.Conflict
		}
		return ""
	}

	try := func(t *testing.T, state, phase string, run func(ctx context.Context, id int64) error, check func(t *testing.T, err error, changed []string, status string)) {
		t.Helper()
		err := s.db.Rehearse(ctx, func(ctx context.Context, q postgres.Querier) error {
			id := set(ctx, q, state, phase)
			before, jobsBefore := pgtest.Fingerprint(ctx, t, q, pgtest.LeagueTables...), jobs.count()
			err := s.db.Attempt(ctx, func(ctx context.Context) error { return run(ctx, id) })
			changed := pgtest.Changed(before, pgtest.Fingerprint(ctx, t, q, pgtest.LeagueTables...))
			if jobs.count() != jobsBefore {
				changed = append(changed, "jobs")
			}
			var status string
			if err := q.QueryRow(ctx, `SELECT status FROM matches WHERE id = $1`, id).Scan(&status); err != nil {
				t.Fatal(err)
			}
			check(t, err, changed, status)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	tried := 0
	for _, phase := range []string{tournament.StatusMatches, tournament.StatusCompleted} {
		for _, state := range states {
			for act, run := range do {
				for _, k := range kinds {
					name := fmt.Sprintf("%s/%s in a %s match, season %s", k.name, act, state, phase)
					expect := want(act, k, state, phase)
					try(t, state, phase, func(ctx context.Context, id int64) error { return run(ctx, k.actor, id) },
						func(t *testing.T, err error, changed []string, status string) {
							tried++
							switch {
							case expect == "" && err != nil:
								t.Errorf("%s: refused (%s %q), the table allows it", name, errs.KindOf(err), errs.MessageOf(err))
							case expect == "" && matches.MatchRules[act].To != "" && status != matches.MatchRules[act].To:
								t.Errorf("%s: the match is %s, want %s", name, status, matches.MatchRules[act].To)
							case expect != "" && errs.KindOf(err) != expect:
								t.Errorf("%s: answered %s %q, want %s", name, errs.KindOf(err), errs.MessageOf(err), expect)
							case expect != "" && len(changed) > 0:
								t.Errorf("%s: refused, yet changed %v", name, changed)
							}
						})
				}
			}
			// The jobs: the deadline confirms only a report nobody answered,
			// the reminder announces only a match still to be played, and
			// in a finished season neither does anything.
			try(t, state, phase, func(ctx context.Context, id int64) error { return s.svc.AutoConfirmDue(ctx, id) },
				func(t *testing.T, err error, changed []string, status string) {
					acts := phase == tournament.StatusMatches && state == matches.StatusReported
					if err != nil || (acts && status != matches.StatusCompleted) || (!acts && len(changed) > 0) {
						t.Errorf("the deadline on a %s match, season %s: %v, %s, changed %v", state, phase, err, status, changed)
					}
				})
			try(t, state, phase, func(ctx context.Context, id int64) error {
				return s.svc.RemindDue(ctx, matches.Remind{Match: id, At: at})
			}, func(t *testing.T, err error, changed []string, status string) {
				acts := phase == tournament.StatusMatches && (state == matches.StatusScheduled || state == matches.StatusLive)
				if err != nil || (acts && !slices.Equal(changed, []string{"event_topics", "outbox"})) || (!acts && len(changed) > 0) {
					t.Errorf("the reminder of a %s match, season %s: %v, changed %v", state, phase, err, changed)
				}
			})
		}
	}
	if want := 2 * len(states) * len(do) * len(kinds); tried != want {
		t.Fatalf("tried %d cases, want %d", tried, want)
	}
}

// docs/league.md states the match's table as the code has it.
func TestTheDocsStateTheMatchTable(t *testing.T) {
	order := []matches.Action{matches.ActPostRoom, matches.ActSetTime, matches.ActPropose, matches.ActAccept, matches.ActCheckIn, matches.ActPickLineup, matches.ActUploadProof,
		matches.ActReport, matches.ActConfirm, matches.ActDispute, matches.ActResolve, matches.ActForfeit,
		matches.ActForfeitSide, matches.ActAutoConfirm, matches.ActRemind}
	if len(order) != len(matches.MatchRules) {
		t.Fatalf("%d actions listed, %d in the table", len(order), len(matches.MatchRules))
	}
	want := "| action | who | states | to |\n| --- | --- | --- | --- |\n"
	for _, act := range order {
		r := matches.MatchRules[act]
		who := make([]string, len(r.Who))
		for i, p := range r.Who {
			who[i] = string(p)
		}
		switch {
		case r.Answering:
			who = []string{"the side that did not report"}
		case r.Replying:
			who = []string{"the side that did not propose"}
		case r.HomeFirst:
			who = []string{"home captain, away captain (to counter a standing proposal)"}
		}
		want += strings.TrimRight(fmt.Sprintf("| %s | %s | %s | %s", act, strings.Join(who, ", "), strings.Join(r.States, ", "), r.To), " ") + " |\n"
	}
	b, err := os.ReadFile("../../docs/league.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "<!-- match-rules -->\n")
	got, _, _ := strings.Cut(rest, "<!-- /match-rules -->")
	if got != want {
		t.Fatalf("docs/league.md says\n%s\nthe code says\n%s", got, want)
	}
}
