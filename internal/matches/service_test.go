package matches_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/tournament"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// season is the demo league at its matches phase on a database of the
// test's own, with the services of the matches.
type season struct {
	t     *testing.T
	db    *postgres.DB
	tour  *tournament.Service
	svc   *matches.Service
	admin core.Actor
	tid   int64
}

type noJobs struct{}

func (noJobs) Schedule(context.Context, core.Job, time.Time) error { return nil }

func (noJobs) Unschedule(context.Context, string, string, any) error { return nil }

func newSeason(t *testing.T) *season {
	t.Helper()
	ctx := context.Background()
	db := pgtest.Copy(t, "season at matches", func(ctx context.Context, db *postgres.DB) error {
		if _, err := demo.Load(ctx, db, demo.Options{Players: 60, Captains: true}); err != nil {
			return err
		}
		return demo.Advance(ctx, db, "PPL7", tournament.StatusMatches)
	})
	s := &season{t: t, db: db, admin: core.Actor{Name: "organiser", Admin: true, UserID: 1}}
	outbox, audit := postgres.Outbox{DB: db}, postgres.Audit{DB: db}
	s.tour = &tournament.Service{Store: postgres.Tournaments{DB: db}, Tx: db, Events: outbox, Audit: audit, Default: "PPL7"}
	s.svc = &matches.Service{Store: postgres.Matches{DB: db}, Images: postgres.Matches{DB: db}, Tournaments: s.tour, Tx: db,
		Events: outbox, Audit: audit, Jobs: noJobs{}}
	s.tour.OnComplete = s.svc.Award
	tr, _ := s.tour.Find(ctx, "PPL7")
	s.tid = tr.ID
	return s
}

// screenshot is a small PNG, as a captain's end-of-match screenshot is.
func screenshot(t *testing.T, shade uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 32, 24))
	for i := range img.Pix {
		img.Pix[i] = shade
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// proof uploads an end-of-match screenshot for m as its home captain, for
// a report to cite.
func (s *season) proof(m matches.Match) string {
	s.t.Helper()
	id, err := s.svc.UploadProof(context.Background(), s.captain(m.Team1.ID), m.ID, screenshot(s.t, 200))
	if err != nil {
		s.t.Fatalf("proof for match %d: %v", m.ID, err)
	}
	return id
}

// captain is the actor of team letter's captain.
func (s *season) captain(letter string) core.Actor {
	s.t.Helper()
	var id int64
	if err := s.db.Pool.QueryRow(context.Background(), `SELECT captain_user_id FROM teams WHERE tournament_id = $1 AND letter = $2`,
		s.tid, letter).Scan(&id); err != nil {
		s.t.Fatal(err)
	}
	return core.Actor{UserID: id, Name: "captain " + letter, Captains: []core.Captaincy{{TournamentID: s.tid, Tournament: "PPL7", Team: letter}}}
}

// report is a plausible result of m won by winner: two players a side.
func (s *season) report(m matches.Match, winner string, rng *rand.Rand) matches.ReportInput {
	r := matches.Report{Winner: winner}
	place := 1
	for _, side := range m.Sides() {
		for _, p := range m.Members[side.ID][:2] {
			r.Players = append(r.Players, matches.PlayerLine{UserID: p.UserID, Kills: rng.IntN(15), Deaths: rng.IntN(10), Placement: place})
			place++
		}
	}
	in := matches.ReportInput{Report: r}
	if m.Status == matches.StatusScheduled || m.Status == matches.StatusLive {
		in.ScreenshotID = s.proof(m) // a played match's lines serve a ruling, which cites none
	}
	return in
}

func (s *season) match(id int64) matches.Match {
	s.t.Helper()
	m, err := s.svc.Match(context.Background(), s.admin, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return m
}

// play reports and confirms every match that can be played now, the
// winner chosen by win; it returns how many it played.
func (s *season) play(win func(m matches.Match) string, rng *rand.Rand) int {
	s.t.Helper()
	ctx := context.Background()
	b, err := s.svc.Bracket(ctx, s.admin, "PPL7")
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for _, round := range b.Rounds {
		for _, m := range round.Matches {
			if m.Status != matches.StatusScheduled || m.Team1 == nil || m.Team2 == nil {
				continue
			}
			m = s.match(m.ID)
			if _, err := s.svc.ReportResult(ctx, s.captain(m.Team1.ID), m.ID, s.report(m, win(m), rng)); err != nil {
				s.t.Fatalf("report %d: %v", m.ID, err)
			}
			if _, err := s.svc.Confirm(ctx, s.captain(m.Team2.ID), m.ID); err != nil {
				s.t.Fatalf("confirm %d: %v", m.ID, err)
			}
			n++
		}
	}
	return n
}

// firstMatch makes round-robin fixtures and returns the first match, its
// home and away sides and a team that does not play it.
func (s *season) firstMatch() (m matches.Match, home, away, outsider string) {
	s.t.Helper()
	ctx := context.Background()
	if _, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.RoundRobin); err != nil {
		s.t.Fatal(err)
	}
	b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
	m = s.match(b.Rounds[0].Matches[0].ID)
	home, away = m.Team1.ID, m.Team2.ID
	for _, l := range []string{"A", "B", "C", "D"} {
		if l != home && l != away {
			return m, home, away, l
		}
	}
	return m, home, away, ""
}

func refused(t *testing.T, what string, err error, kind string) {
	t.Helper()
	if errs.KindOf(err) != kind {
		t.Fatalf("%s: got %s %q, want %s", what, errs.KindOf(err), errs.MessageOf(err), kind)
	}
}

// A whole season of the Premier League's format: a league of eight, its
// top four in semi-finals by the table, a final, a champion, and the
// awards on the winners' cards when the organiser completes the season.
func TestSeasonLeagueThenPlayoffs(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 7))
	_, err := s.svc.Generate(ctx, s.captain("A"), "PPL7", "")
	refused(t, "a captain makes the fixtures", err, errs.Forbidden)
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", "")
	if err != nil {
		t.Fatal(err)
	}
	if b.Format != bracket.LeagueThenPlayoffs || len(b.Rounds) != 7 || len(b.Seeds) != 8 || b.Seeds[0].Strength < b.Seeds[7].Strength {
		t.Fatalf("bracket %s with %d rounds, seeds %+v", b.Format, len(b.Rounds), b.Seeds)
	}
	_, err = s.svc.Generate(ctx, s.admin, "PPL7", "")
	refused(t, "fixtures twice", err, errs.Conflict)

	// The league: the lower letter wins, so A tops the table.
	lower := func(m matches.Match) string { return min(m.Team1.ID, m.Team2.ID) }
	if n := s.play(lower, rng); n != 28 {
		t.Fatalf("%d league matches played, want 28", n)
	}
	table, err := s.svc.Standings(ctx, "PPL7")
	if err != nil || len(table.Rows) != 8 || table.Rows[0].Team != "A" || table.Rows[0].Won != 7 || table.Rows[7].Team != "H" {
		t.Fatalf("table %+v %v", table.Rows, err)
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	last := b.Rounds[len(b.Rounds)-1]
	semis := b.Rounds[len(b.Rounds)-2]
	if semis.Stage != bracket.StageSemi || len(semis.Matches) != 2 || last.Stage != bracket.StageFinal ||
		semis.Matches[0].Team1.ID != "A" || semis.Matches[0].Team2.ID != "D" || semis.Matches[1].Team1.ID != "B" || semis.Matches[1].Team2.ID != "C" {
		t.Fatalf("play-offs %+v / %+v", semis, last)
	}
	_, err = s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false)
	refused(t, "completing without a champion", err, errs.Conflict)

	// The play-offs: the higher letter wins now, so C beats B, D beats A, and D takes the final.
	higher := func(m matches.Match) string { return max(m.Team1.ID, m.Team2.ID) }
	if n := s.play(higher, rng) + s.play(higher, rng); n != 3 {
		t.Fatalf("%d play-off matches, want 3", n)
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if b.Champion == nil || b.Champion.ID != "D" {
		t.Fatalf("champion %+v, want D", b.Champion)
	}
	rc, err := s.svc.RedCapOf(ctx, "PPL7")
	if err != nil || len(rc.Rows) == 0 || rc.Rows[0].Name == "" {
		t.Fatalf("red cap %+v %v", rc, err)
	}
	if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false); err != nil {
		t.Fatal(err)
	}
	var winners, redCaps int
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM user_badges ub JOIN badges b ON b.id = ub.badge_id WHERE b.name = 'Season 7 Winner'`).Scan(&winners)
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM user_badges ub JOIN badges b ON b.id = ub.badge_id
		WHERE b.name = 'Red Cap Season 7' AND ub.user_id = $1`, rc.Rows[0].UserID).Scan(&redCaps)
	if winners != 6 || redCaps != 1 {
		t.Fatalf("%d Season 7 Winner badges (want 6: captain and five players), red cap badge %d", winners, redCaps)
	}
}

// The rules of a report: only a side's captain reports, once; only the
// other side confirms or disputes; an organiser rules; nothing changes on
// a refusal.
func TestReportConfirmDispute(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 1))
	m, home, away, outsider := s.firstMatch()
	b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
	good := s.report(m, home, rng)

	_, err := s.svc.ReportResult(ctx, s.captain(outsider), m.ID, good)
	refused(t, "a report by another team's captain", err, errs.Forbidden)
	_, err = s.svc.ReportResult(ctx, s.admin, m.ID, good)
	refused(t, "a report by an organiser", err, errs.Forbidden)
	bad := s.report(m, home, rng)
	bad.Players[0].Kills = -1
	_, err = s.svc.ReportResult(ctx, s.captain(home), m.ID, bad)
	refused(t, "negative kills", err, errs.Invalid)
	bad = s.report(m, "Z", rng)
	_, err = s.svc.ReportResult(ctx, s.captain(home), m.ID, bad)
	refused(t, "a winner not in the match", err, errs.Invalid)
	bad = s.report(m, home, rng)
	bad.ScreenshotID = ""
	_, err = s.svc.ReportResult(ctx, s.captain(home), m.ID, bad)
	refused(t, "no screenshot", err, errs.Invalid)
	if s.match(m.ID).Status != matches.StatusScheduled {
		t.Fatal("a refused report changed the match")
	}

	reported, err := s.svc.ReportResult(ctx, s.captain(home), m.ID, good)
	if err != nil || reported.Status != matches.StatusReported || reported.ConfirmBy == nil {
		t.Fatalf("%+v %v", reported, err)
	}
	_, err = s.svc.ReportResult(ctx, s.captain(away), m.ID, good)
	refused(t, "a second report", err, errs.Conflict)
	_, err = s.svc.Confirm(ctx, s.captain(home), m.ID)
	refused(t, "a confirm by the reporter", err, errs.Forbidden)
	_, err = s.svc.Dispute(ctx, s.captain(away), m.ID, "")
	refused(t, "a dispute without a reason", err, errs.Invalid)

	disputed, err := s.svc.Dispute(ctx, s.captain(away), m.ID, "Our fourth kart was kicked by the host.")
	if err != nil || disputed.Status != matches.StatusDisputed {
		t.Fatalf("%+v %v", disputed, err)
	}
	_, err = s.svc.Confirm(ctx, s.captain(away), m.ID)
	refused(t, "confirming a disputed match", err, errs.Conflict)
	_, err = s.svc.Resolve(ctx, s.captain(away), m.ID, good.Report)
	refused(t, "a captain rules", err, errs.Forbidden)
	ruled := good.Report
	ruled.Winner = away
	done, err := s.svc.Resolve(ctx, s.admin, m.ID, ruled)
	if err != nil || done.Status != matches.StatusCompleted || done.Winner == nil || *done.Winner != away {
		t.Fatalf("%+v %v", done, err)
	}
	table, _ := s.svc.Standings(ctx, "PPL7")
	for _, row := range table.Rows {
		if row.Team == away && row.Won != 1 {
			t.Fatalf("the ruling's winner has %d wins", row.Won)
		}
	}
	var audited int
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE action IN ('match.report', 'match.dispute', 'match.resolve')`).Scan(&audited)
	if audited != 3 {
		t.Fatalf("%d audited match actions, want 3", audited)
	}

	t.Run("UnansweredReportConfirmsItself", func(t *testing.T) {
		s.svc.ConfirmAfter = time.Millisecond
		next := s.match(b.Rounds[0].Matches[1].ID)
		if _, err := s.svc.ReportResult(ctx, s.captain(next.Team1.ID), next.ID, s.report(next, next.Team2.ID, rng)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		if err := s.svc.AutoConfirmDue(ctx, next.ID); err != nil {
			t.Fatal(err)
		}
		if got := s.match(next.ID); got.Status != matches.StatusCompleted || *got.Winner != next.Team2.ID {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("Forfeit", func(t *testing.T) {
		next := s.match(b.Rounds[0].Matches[2].ID)
		for _, l := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
			if next.Side(l) == nil {
				_, err := s.svc.Forfeit(ctx, s.captain(l), next.ID)
				refused(t, "forfeit by another team", err, errs.Forbidden)
				break
			}
		}
		got, err := s.svc.Forfeit(ctx, s.captain(next.Team1.ID), next.ID)
		if err != nil || !got.Forfeit || *got.Winner != next.Team2.ID {
			t.Fatalf("%+v %v", got, err)
		}
	})
	t.Run("OrganiserForfeitsASide", func(t *testing.T) {
		next := s.match(b.Rounds[0].Matches[3].ID)
		_, err := s.svc.ForfeitFor(ctx, s.captain(next.Team1.ID), next.ID, next.Team2.ID)
		refused(t, "a captain forfeiting for the other side", err, errs.Forbidden)
		_, err = s.svc.ForfeitFor(ctx, s.admin, next.ID, "Z")
		refused(t, "a team not in the match", err, errs.Invalid)
		got, err := s.svc.ForfeitFor(ctx, s.admin, next.ID, strings.ToLower(next.Team2.ID))
		if err != nil || !got.Forfeit || *got.Winner != next.Team1.ID {
			t.Fatalf("%+v %v", got, err)
		}
		_, err = s.svc.ForfeitFor(ctx, s.admin, next.ID, next.Team1.ID)
		refused(t, "forfeiting a completed match", err, errs.Conflict)
	})
}

// A knockout of eight: standard pairs, winners advance to the side the
// bracket says, one champion; and a result cannot be corrected once the
// winner's next match is played.
func TestSingleEliminationSeason(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination)
	if err != nil {
		t.Fatal(err)
	}
	seedOf := map[string]int{}
	for _, st := range b.Seeds {
		seedOf[st.Team.ID] = st.Seed
	}
	var pairs []string
	for _, m := range b.Rounds[0].Matches {
		pairs = append(pairs, fmt.Sprintf("%d-%d", seedOf[m.Team1.ID], seedOf[m.Team2.ID]))
	}
	if fmt.Sprint(pairs) != "[1-8 4-5 2-7 3-6]" {
		t.Fatalf("first round %v", pairs)
	}
	favourite := func(m matches.Match) string {
		if seedOf[m.Team1.ID] < seedOf[m.Team2.ID] {
			return m.Team1.ID
		}
		return m.Team2.ID
	}
	first := b.Rounds[0].Matches[0]
	for s.play(favourite, rng) > 0 {
	}
	b, _ = s.svc.Bracket(ctx, s.admin, "PPL7")
	if b.Champion == nil || seedOf[b.Champion.ID] != 1 {
		t.Fatalf("champion %+v", b.Champion)
	}
	m := s.match(first.ID)
	correction := s.report(m, m.Team2.ID, rng).Report
	_, err = s.svc.Resolve(ctx, s.admin, m.ID, correction)
	refused(t, "correcting a result whose next match is played", err, errs.Conflict)
}
