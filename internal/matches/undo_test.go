package matches_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Fixtures are reset freely while nothing is played; once results exist
// only with force, and then they are archived with their lines, never
// lost. A reset takes the format, the champion and the seeds by strength
// away, lets the fixtures be made again in another format, and the season
// go back to its auction.
func TestResetFixtures(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(38, 1))
	home := func(m matches.Match) string { return m.Team1.ID }

	if _, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", false); errs.KindOf(err) != errs.Conflict {
		t.Fatalf("a reset with no fixtures: %v", err)
	}
	if _, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination); err != nil {
		t.Fatal(err)
	}
	_, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.DoubleElimination)
	if errs.KindOf(err) != errs.Conflict || !strings.Contains(errs.MessageOf(err), "reset them first") {
		t.Fatalf("fixtures made twice: %v", err)
	}
	refused(t, "a captain's reset", func() error { _, err := s.svc.ResetFixtures(ctx, s.captain("A"), "PPL7", true); return err }(), errs.Forbidden)

	t.Run("NothingPlayedResetsFreely", func(t *testing.T) {
		r, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", false)
		if err != nil || r.Matches != 7 || r.Results != 0 || r.Forced || r.Format != bracket.SingleElimination || len(r.Fixtures) != 7 {
			t.Fatalf("%+v %v", r, err)
		}
		b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
		if len(b.Rounds) != 0 || b.Format != "" || b.Champion != nil || b.SeededBy != matches.SeededBy {
			t.Fatalf("after the reset: %+v", b)
		}
		if name := s.lastEvent(core.TopicBracket); name != matches.EventStandings {
			t.Fatalf("the tables are not told: the last event is %s", name)
		}
		if n := s.events(matches.EventReset); n != 1 {
			t.Fatalf("%d reset events", n)
		}
	})

	t.Run("ResultsNeedForceAndAreArchived", func(t *testing.T) {
		if _, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.DoubleElimination); err != nil {
			t.Fatal(err)
		}
		b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
		first, second := s.match(b.Rounds[0].Matches[0].ID), s.match(b.Rounds[0].Matches[1].ID)
		in := s.report(first, first.Team1.ID, rng)
		if _, err := s.svc.ReportResult(ctx, s.captain(first.Team1.ID), first.ID, in); err != nil {
			t.Fatal(err)
		}
		if _, err := s.svc.Confirm(ctx, s.captain(first.Team2.ID), first.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.svc.ForfeitFor(ctx, s.admin, second.ID, second.Team2.ID); err != nil {
			t.Fatal(err)
		}
		before := pgtest.Fingerprint(ctx, t, s.db.Pool, pgtest.LeagueTables...)
		_, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", false)
		problems := errs.ProblemsOf(err)
		if errs.KindOf(err) != errs.Conflict || len(problems) != 2 || !strings.Contains(problems[1], "won by forfeit") {
			t.Fatalf("unforced over results: %v %q", err, problems)
		}
		if changed := pgtest.Changed(before, pgtest.Fingerprint(ctx, t, s.db.Pool, pgtest.LeagueTables...)); len(changed) > 0 {
			t.Fatalf("a refused reset changed %v", changed)
		}
		r, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", true)
		if err != nil || r.Results != 2 || !r.Forced || r.Matches != 14 {
			t.Fatalf("%+v %v", r, err)
		}
		i := slices.IndexFunc(r.Fixtures, func(m matches.ArchivedMatch) bool { return m.ID == first.ID })
		kept := r.Fixtures[i]
		if kept.Status != matches.StatusCompleted || *kept.Winner != first.Team1.ID || len(kept.Lines) != len(in.Report.Players) ||
			kept.Proof == nil || kept.Report == nil {
			t.Fatalf("the archived result: %+v", kept)
		}
		for _, l := range kept.Lines {
			j := slices.IndexFunc(in.Report.Players, func(p matches.PlayerLine) bool { return p.UserID == l.UserID })
			if j < 0 || in.Report.Players[j].Kills != l.Kills || in.Report.Players[j].Deaths != l.Deaths {
				t.Fatalf("line %+v is not what was reported", l)
			}
		}
		rc, _ := s.svc.RedCapOf(ctx, "PPL7")
		if len(rc.Rows) != 0 {
			t.Fatalf("the Red Cap counts reset results: %+v", rc.Rows)
		}
		all, err := s.svc.Resets(ctx, s.admin, "PPL7")
		if err != nil || len(all) != 2 || all[0].ID != r.ID || all[1].Results != 0 {
			t.Fatalf("the resets: %+v %v", all, err)
		}
		if _, err := s.svc.Resets(ctx, s.captain("A"), "PPL7"); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("a captain reads the archive: %v", err)
		}
	})

	t.Run("SeedsByHandStay", func(t *testing.T) {
		order := []string{"H", "G", "F", "E", "D", "C", "B", "A"}
		if _, err := s.svc.SetSeeds(ctx, s.admin, "PPL7", order); err != nil {
			t.Fatal(err)
		}
		if _, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.RoundRobin); err != nil {
			t.Fatal(err)
		}
		s.play(home, rng)
		if _, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", true); err != nil {
			t.Fatal(err)
		}
		b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
		if b.SeededBy != matches.SeededByOrder || b.Seeds[0].Team.ID != "H" {
			t.Fatalf("seeds after a reset: %s %+v", b.SeededBy, b.Seeds)
		}
	})

	t.Run("BackToTheAuction", func(t *testing.T) {
		if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusAuction, false); err != nil {
			t.Fatalf("back to the auction after the reset: %v", err)
		}
		_, err := s.svc.ResetFixtures(ctx, s.admin, "PPL7", true)
		want := "Fixtures are reset in the matches phase (a completed season is final): PPL7 is in its auction phase."
		if errs.KindOf(err) != errs.Conflict || errs.MessageOf(err) != want {
			t.Fatalf("a reset in the auction: %v", err)
		}
	})
}

// playSome reports and confirms n matches, one at a time, each the first
// that can be played then.
func (s *season) playSome(n int, win func(m matches.Match) string, rng *rand.Rand) {
	s.t.Helper()
	ctx := context.Background()
	for range n {
		all, err := s.svc.Matches(ctx, s.admin, "PPL7", "")
		if err != nil {
			s.t.Fatal(err)
		}
		i := slices.IndexFunc(all, func(m matches.Match) bool {
			return m.Status == matches.StatusScheduled && m.Team1 != nil && m.Team2 != nil
		})
		if i < 0 {
			s.t.Fatal("nothing left to play")
		}
		m := s.match(all[i].ID)
		if _, err := s.svc.ReportResult(ctx, s.captain(m.Team1.ID), m.ID, s.report(m, win(m), rng)); err != nil {
			s.t.Fatalf("report %d: %v", m.ID, err)
		}
		if _, err := s.svc.Confirm(ctx, s.captain(m.Team2.ID), m.ID); err != nil {
			s.t.Fatalf("confirm %d: %v", m.ID, err)
		}
	}
}

// lastEvent is the name of topic's last event.
func (s *season) lastEvent(topic string) string {
	s.t.Helper()
	var name string
	if err := s.db.Pool.QueryRow(context.Background(), `SELECT event FROM outbox WHERE topic = $1 ORDER BY seq DESC LIMIT 1`,
		topic).Scan(&name); err != nil {
		s.t.Fatal(err)
	}
	return name
}

// A team withdrawn mid-season, in every format: its matches still to play
// go to its opponents by forfeit (now, or once the opponent is known), the
// rest of the season is played, and the bracket still crowns a champion
// that is not the withdrawn team, which stays in the tables marked so.
func TestWithdrawATeamMidSeason(t *testing.T) {
	cases := []struct {
		name string
		in   matches.FormatInput
		// playFirst is how many results come before the withdrawal.
		playFirst int
	}{
		{"SingleElimination", matches.FormatInput{Format: bracket.SingleElimination}, 4},
		{"DoubleEliminationWithReset", matches.FormatInput{Format: bracket.DoubleElimination}, 7},
		{"RoundRobin", matches.FormatInput{Format: bracket.RoundRobin}, 10},
		{"LeagueThenPlayoffs", matches.FormatInput{Format: bracket.LeagueThenPlayoffs}, 9},
		{"SwissWithATopCut", matches.FormatInput{Format: bracket.Swiss, Rounds: 3, TopCut: 4}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSeason(t)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(38, 2))
			random := func(m matches.Match) string {
				if rng.IntN(2) == 0 {
					return m.Team1.ID
				}
				return m.Team2.ID
			}
			if _, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", c.in); err != nil {
				t.Fatal(err)
			}
			s.playSome(c.playFirst, random, rng)
			// The withdrawn team is one still in the running with a match to play.
			b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
			gone := ""
			for _, r := range b.Rounds {
				for _, m := range r.Matches {
					if gone == "" && m.Status == matches.StatusScheduled && m.Team1 != nil && m.Team2 != nil {
						gone = m.Team2.ID
					}
				}
			}
			if gone == "" {
				t.Fatal("no match left to play")
			}
			refused(t, "a captain withdrawing a team", func() error {
				_, err := s.svc.WithdrawTeam(ctx, s.captain(gone), "PPL7", gone, "")
				return err
			}(), errs.Forbidden)
			w, err := s.svc.WithdrawTeam(ctx, s.admin, "PPL7", gone, "Stopped showing up")
			if err != nil || w.Team.ID != gone || len(w.Forfeited) == 0 {
				t.Fatalf("%+v %v", w, err)
			}
			if _, err := s.svc.WithdrawTeam(ctx, s.admin, "PPL7", gone, ""); errs.KindOf(err) != errs.Conflict {
				t.Fatalf("withdrawn twice: %v", err)
			}
			for s.play(random, rng) > 0 {
			}
			b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
			if b.Champion == nil || b.Champion.ID == gone {
				t.Fatalf("champion %+v, %s withdrawn", b.Champion, gone)
			}
			// Every match of the withdrawn team after it withdrew is a forfeit it lost.
			for _, r := range b.Rounds {
				for _, m := range r.Matches {
					if m.Side(gone) == nil || !slices.Contains(w.Forfeited, m.ID) && !m.Forfeit {
						continue
					}
					if m.Status != matches.StatusCompleted || !m.Forfeit || *m.Winner == gone {
						t.Fatalf("match %d of withdrawn %s: %s, winner %v, forfeit %v", m.ID, gone, m.Status, m.Winner, m.Forfeit)
					}
				}
				if r.Bye != nil && r.Bye.ID == gone && r.Number > 1 {
					t.Fatalf("withdrawn %s has the bye of round %d", gone, r.Number)
				}
			}
			table, _ := s.svc.Standings(ctx, "PPL7")
			i := slices.IndexFunc(table.Rows, func(r matches.TableRow) bool { return r.Team == gone })
			if i < 0 || !table.Rows[i].Withdrawn {
				t.Fatalf("the table does not mark %s withdrawn: %+v", gone, table.Rows)
			}
			_, err = s.svc.WithdrawTeam(ctx, s.admin, "PPL7", b.Champion.ID, "")
			if errs.KindOf(err) != errs.Conflict || !strings.Contains(errs.MessageOf(err), "last team in the running") {
				t.Fatalf("the champion withdrawn: %v", err)
			}
			if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A team withdrawn before the fixtures is left out of them; a reported
// match of a team withdrawn waits for a ruling (a forfeit never lands on
// a report), and the ruling carries the season on.
func TestWithdrawnBeforeTheFixturesAndOverAReport(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(38, 3))
	if _, err := s.svc.WithdrawTeam(ctx, s.admin, "PPL7", "C", "Half the team quit"); err != nil {
		t.Fatal(err)
	}
	b, err := s.svc.GenerateWith(ctx, s.admin, "PPL7", matches.FormatInput{Format: bracket.SingleElimination})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range b.Rounds {
		for _, m := range r.Matches {
			n++
			if m.Side("C") != nil {
				t.Fatalf("withdrawn C plays match %d", m.ID)
			}
		}
	}
	if n != 6 {
		t.Fatalf("%d matches for seven teams, want 6", n)
	}
	table, _ := s.svc.Standings(ctx, "PPL7")
	if len(table.Rows) != 7 {
		t.Fatalf("the table has %d rows: C is in no fixtures", len(table.Rows))
	}

	m := s.match(b.Rounds[0].Matches[0].ID)
	if _, err := s.svc.ReportResult(ctx, s.captain(m.Team1.ID), m.ID, s.report(m, m.Team1.ID, rng)); err != nil {
		t.Fatal(err)
	}
	w, err := s.svc.WithdrawTeam(ctx, s.admin, "PPL7", m.Team1.ID, "")
	if err != nil || !slices.Equal(w.ToRule, []int64{m.ID}) || slices.Contains(w.Forfeited, m.ID) {
		t.Fatalf("%+v %v", w, err)
	}
	if got := s.match(m.ID); got.Status != matches.StatusReported {
		t.Fatalf("the report was forfeited over: %s", got.Status)
	}
	// The organiser rules it for the reporting side; its next match then goes to whoever meets it.
	if _, err := s.svc.Resolve(ctx, s.admin, m.ID, matches.Report{Winner: m.Team1.ID}); err != nil {
		t.Fatal(err)
	}
	for s.play(func(m matches.Match) string { return m.Team1.ID }, rng) > 0 {
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if b.Champion == nil || b.Champion.ID == m.Team1.ID || b.Champion.ID == "C" {
		t.Fatalf("champion %+v", b.Champion)
	}
}
