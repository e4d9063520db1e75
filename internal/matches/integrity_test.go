package matches_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// The other side cannot wipe a reported result by forfeiting: its kills
// stay in the report, and an organiser who wants another outcome rules.
func TestAForfeitNeverWipesAReport(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	m, home, away, _ := s.firstMatch()
	in := s.report(m, home, rand.New(rand.NewPCG(3, 3)))
	if _, err := s.svc.ReportResult(ctx, s.captain(home), m.ID, in); err != nil {
		t.Fatal(err)
	}
	_, err := s.svc.Forfeit(ctx, s.captain(away), m.ID)
	refused(t, "the away captain forfeits a reported match", err, errs.Conflict)
	_, err = s.svc.ForfeitFor(ctx, s.admin, m.ID, away)
	refused(t, "an organiser forfeits a side of a reported match", err, errs.Conflict)
	got := s.match(m.ID)
	if got.Status != matches.StatusReported || got.Report == nil || len(got.Report.Players) != len(in.Players) {
		t.Fatalf("the report did not survive: %+v", got)
	}
	if _, err := s.svc.Confirm(ctx, s.captain(away), m.ID); err != nil {
		t.Fatal(err)
	}
	rc, _ := s.svc.RedCapOf(ctx, "PPL7")
	kills := 0
	for _, r := range rc.Rows {
		kills += r.Kills
	}
	want := 0
	for _, p := range in.Players {
		want += p.Kills
	}
	if kills != want {
		t.Fatalf("the Red Cap counts %d kills, the report %d", kills, want)
	}
}

// A finished season is final: no ruling changes its champion once the
// badges are given, and no captain plays on.
func TestNoRulingAfterTheSeason(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 5))
	if _, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.SingleElimination); err != nil {
		t.Fatal(err)
	}
	for s.play(func(m matches.Match) string { return m.Team1.ID }, rng) > 0 {
	}
	if _, err := s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusCompleted, false); err != nil {
		t.Fatal(err)
	}
	b, _ := s.svc.Bracket(ctx, s.admin, "PPL7")
	final := b.Rounds[len(b.Rounds)-1].Matches[0]
	final = s.match(final.ID)
	overturn := matches.Report{Winner: final.Team2.ID, Players: []matches.PlayerLine{{UserID: final.Members[final.Team2.ID][0].UserID, Kills: 9}}}
	_, err := s.svc.Resolve(ctx, s.admin, final.ID, overturn)
	refused(t, "a ruling after the season", err, errs.Conflict)
	if after, _ := s.svc.Bracket(ctx, s.admin, "PPL7"); after.Champion == nil || after.Champion.ID != b.Champion.ID {
		t.Fatalf("the champion changed: %+v, was %+v", after.Champion, b.Champion)
	}
	_, err = s.tour.SetStatus(ctx, s.admin, "PPL7", tournament.StatusMatches, false)
	refused(t, "reopening a completed season", err, errs.Conflict)
}

// A match moved to another time is announced once, for its new time: the
// reminders of the old time are dropped with the change (river's jobs).
func TestRescheduleReplacesTheReminders(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	jobs := &postgres.Jobs{DB: s.db}
	postgres.Work(jobs, s.svc.RemindDue)
	if err := jobs.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs.Stop(context.Background()) })
	s.svc.Jobs = jobs
	m, home, _, _ := s.firstMatch()
	pending := func() (n int) {
		t.Helper()
		if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1 AND args->>'match' = $2
			AND state IN ('scheduled', 'available')`, matches.Remind{}.Kind(), fmt.Sprint(m.ID)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 3 {
		at := time.Now().Add(time.Duration(24+i) * time.Hour)
		if _, err := s.svc.SetTime(ctx, s.captain(home), m.ID, &at); err != nil {
			t.Fatal(err)
		}
		if n := pending(); n != 2 {
			t.Fatalf("after %d times set: %d reminders pending, want 2 (30 minutes before, and overdue)", i+1, n)
		}
	}
	if _, err := s.svc.SetTime(ctx, s.captain(home), m.ID, nil); err != nil {
		t.Fatal(err)
	}
	if n := pending(); n != 0 {
		t.Fatalf("the time cleared, %d reminders still pending", n)
	}
}

// A proof belongs to its match: uploaded by its sides while it is open, at
// most MaxProofs a side, cited only by its own report; what no report
// cites is forgotten after a day.
func TestProofsBelongToTheirMatch(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.RoundRobin)
	if err != nil {
		t.Fatal(err)
	}
	m := s.match(b.Rounds[0].Matches[0].ID)
	other := s.match(b.Rounds[0].Matches[1].ID)
	home := m.Team1.ID

	_, err = s.svc.UploadProof(ctx, s.captain(other.Team1.ID), m.ID, screenshot(t, 1))
	refused(t, "a proof from a team not in the match", err, errs.Forbidden)
	good := s.report(m, home, rng) // uploads its proof
	for i := range matches.MaxProofs - 1 {
		if _, err := s.svc.UploadProof(ctx, s.captain(home), m.ID, screenshot(t, uint8(10+i))); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.svc.UploadProof(ctx, s.captain(home), m.ID, screenshot(t, 99))
	refused(t, "one proof more than a side may upload", err, errs.Unprocessable)

	// Another match's proof, or any stored image, is not this report's.
	theirs, err := s.svc.UploadProof(ctx, s.captain(other.Team1.ID), other.ID, screenshot(t, 77))
	if err != nil {
		t.Fatal(err)
	}
	in := good
	in.ScreenshotID = theirs
	_, err = s.svc.ReportResult(ctx, s.captain(home), m.ID, in)
	refused(t, "a report citing another match's proof", err, errs.Invalid)
	avatar, _ := (postgres.Images{DB: s.db}).SaveImage(ctx, "image/png", screenshot(t, 250))
	in.ScreenshotID = avatar
	_, err = s.svc.ReportResult(ctx, s.captain(home), m.ID, in)
	refused(t, "a report citing an image not uploaded as a proof", err, errs.Invalid)

	if _, err := s.svc.ReportResult(ctx, s.captain(home), m.ID, good); err != nil {
		t.Fatal(err)
	}
	_, err = s.svc.UploadProof(ctx, s.captain(m.Team2.ID), m.ID, screenshot(t, 3))
	refused(t, "a proof for a reported match", err, errs.Conflict)

	// A day on, only the cited proofs remain, and images nothing uses go.
	var proofsBefore, imagesBefore int
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM match_proofs`).Scan(&proofsBefore)
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM images`).Scan(&imagesBefore)
	s.svc.Now = func() time.Time { return time.Now().Add(matches.ProofKeep + time.Minute) }
	if err := s.svc.PruneProofsDue(ctx, matches.PruneProofs{}); err != nil {
		t.Fatal(err)
	}
	var proofs, images int
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM match_proofs`).Scan(&proofs)
	s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM images`).Scan(&images)
	if proofs != 1 || imagesBefore-images != proofsBefore-1 {
		t.Fatalf("after pruning: %d proofs (want the cited one), %d of %d images gone (want %d)", proofs, imagesBefore-images, imagesBefore, proofsBefore-1)
	}
	if got := s.match(m.ID); got.Proof == nil {
		t.Fatal("the cited proof was pruned")
	}
}

// An organiser may rule by naming the winner only (from /admin or the bot's
// !admin resolve): a reported match keeps its lines, a no-show counts each
// side's players with no kills.
func TestARulingThatNamesOnlyTheWinner(t *testing.T) {
	s := newSeason(t)
	ctx := context.Background()
	b, err := s.svc.Generate(ctx, s.admin, "PPL7", bracket.RoundRobin)
	if err != nil {
		t.Fatal(err)
	}
	noShow := s.match(b.Rounds[0].Matches[0].ID)
	got, err := s.svc.Resolve(ctx, s.admin, noShow.ID, matches.Report{Winner: noShow.Team2.ID})
	if err != nil || got.Status != matches.StatusCompleted || *got.Winner != noShow.Team2.ID {
		t.Fatalf("%+v %v", got, err)
	}
	for _, p := range got.Report.Players {
		if p.Kills != 0 || p.Deaths != 0 {
			t.Fatalf("a no-show ruling counted %+v", p)
		}
	}
	if len(got.Report.Players) != 2*matches.KartsPerSide {
		t.Fatalf("%d lines, want four a side", len(got.Report.Players))
	}

	reported := s.match(b.Rounds[0].Matches[1].ID)
	in := s.report(reported, reported.Team1.ID, rand.New(rand.NewPCG(2, 2)))
	if _, err := s.svc.ReportResult(ctx, s.captain(reported.Team1.ID), reported.ID, in); err != nil {
		t.Fatal(err)
	}
	got, err = s.svc.Resolve(ctx, s.admin, reported.ID, matches.Report{Winner: reported.Team2.ID})
	if err != nil || *got.Winner != reported.Team2.ID || len(got.Report.Players) != len(in.Players) || got.Report.Players[0].Kills != in.Players[0].Kills {
		t.Fatalf("the reported lines did not stand: %+v %v", got.Report, err)
	}
}
