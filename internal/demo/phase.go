package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/league"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Phases a demo league can be loaded at, in order.
var Phases = []string{tournament.StatusRegistration, tournament.StatusAuction, tournament.StatusMatches, tournament.StatusCompleted}

// ValidPhase reports whether p is one of Phases.
func ValidPhase(p string) bool {
	for _, q := range Phases {
		if q == p {
			return true
		}
	}
	return false
}

// noJobs: the demo closes every lot it opens itself and opens no check-in,
// so there is nothing to schedule.
type noJobs struct{}

func (noJobs) Schedule(context.Context, core.Job, time.Time) error { return nil }

func (noJobs) Unschedule(context.Context, string, string, any) error { return nil }

// Advance plays a freshly loaded league forward to phase through the
// league's services, acting as the organiser and the captains:
//
//   - registration: as loaded (captains named, rosters empty);
//   - auction: the auction is running and two rounds are done (two players
//     bought by every team, a few lots unsold), no lot open;
//   - matches: every team has bought its five players (the organiser makes
//     the fixtures);
//   - completed: the season was played (a league then play-offs, every
//     result reported and confirmed), its champion and Red Cap crowned.
func Advance(ctx context.Context, db *postgres.DB, name, phase string) error {
	return AdvanceIn(ctx, db, name, phase, matches.FormatInput{})
}

// AdvanceIn is Advance with the fixtures in the format given: at the
// matches phase they are made and none played (none are made when no
// format is given); at completed the season is played in it (the default
// format when none is given).
func AdvanceIn(ctx context.Context, db *postgres.DB, name, phase string, fixtures matches.FormatInput) error {
	if !ValidPhase(phase) {
		return fmt.Errorf("demo: phase must be one of %v", Phases)
	}
	if phase == tournament.StatusRegistration {
		return nil
	}
	// The services as serve wires them; no scheduler, as every lot is closed
	// and every report answered here.
	lg := league.New(db, league.Options{Default: name, Jobs: noJobs{}, LotTime: time.Hour})
	tour, auc, mat := lg.Tournaments, lg.Auction, lg.Matches
	organiser := core.System
	t, err := tour.Find(ctx, name)
	if err != nil {
		return err
	}
	if _, err := tour.SetStatus(ctx, organiser, name, tournament.StatusAuction, true); err != nil {
		return err
	}
	perTeam := 2
	if phase != tournament.StatusAuction {
		perTeam = auction.Slots
	}
	if err := runAuction(ctx, auc, t, perTeam); err != nil {
		return err
	}
	if phase == tournament.StatusAuction {
		return nil
	}
	if _, err := tour.SetStatus(ctx, organiser, name, tournament.StatusMatches, true); err != nil {
		return err
	}
	if phase == tournament.StatusMatches && fixtures.Format == "" {
		return nil
	}
	if _, err := mat.GenerateWith(ctx, core.System, t.Name, fixtures); err != nil {
		return err
	}
	if phase == tournament.StatusMatches {
		return nil
	}
	if err := playSeason(ctx, mat, t); err != nil {
		return err
	}
	_, err = tour.SetStatus(ctx, organiser, name, tournament.StatusCompleted, true)
	return err
}

// playSeason plays every match of the fixtures, those made as earlier
// ones end included: the home captain reports two karts a side with a
// screenshot, the other side confirms.
func playSeason(ctx context.Context, mat *matches.Service, t tournament.Tournament) error {
	rng := rand.New(rand.NewPCG(11, 2026))
	captain := func(m matches.Match, side *matches.TeamRef) core.Actor {
		c := m.Members[side.ID][0] // the captain comes first
		return core.Actor{UserID: c.UserID, Name: c.Name, Captains: []core.Captaincy{{TournamentID: t.ID, Tournament: t.Name, Team: side.ID}}}
	}
	for {
		ms, err := mat.Matches(ctx, core.System, t.Name, "")
		if err != nil {
			return err
		}
		played := 0
		for _, m := range ms {
			if !m.Open() || m.Team1 == nil || m.Team2 == nil {
				continue
			}
			r := matches.Report{Winner: m.Team1.ID}
			if rng.IntN(2) == 0 {
				r.Winner = m.Team2.ID
			}
			place := 1
			for _, side := range m.Sides() {
				for _, p := range m.Members[side.ID][:2] {
					kills := 4 + rng.IntN(18)
					if side.ID == r.Winner {
						kills += 5
					}
					r.Players = append(r.Players, matches.PlayerLine{UserID: p.UserID, Kills: kills, Deaths: 2 + rng.IntN(12), Placement: place})
					place++
				}
			}
			proof, err := mat.UploadProof(ctx, captain(m, m.Team1), m.ID, kart(200))
			if err != nil {
				return err
			}
			if _, err := mat.ReportResult(ctx, captain(m, m.Team1), m.ID, matches.ReportInput{Report: r, ScreenshotID: proof}); err != nil {
				return err
			}
			if _, err := mat.Confirm(ctx, captain(m, m.Team2), m.ID); err != nil {
				return err
			}
			played++
		}
		if played == 0 {
			return nil
		}
	}
}

// runAuction sells players, strongest tier first, until every team has
// perTeam of them: the captains bid against each other within their
// purses, and every fifth lot goes unsold (back to the pool).
func runAuction(ctx context.Context, auc *auction.Service, t tournament.Tournament, perTeam int) error {
	rng := rand.New(rand.NewPCG(5, 2026))
	organiser := core.System
	for lotNo := 0; ; lotNo++ {
		v, err := auc.State(ctx, t.Name)
		if err != nil {
			return err
		}
		var bidders []auction.Team
		for _, team := range v.Teams {
			if team.Captain != nil && len(team.Players) < perTeam {
				bidders = append(bidders, team)
			}
		}
		if len(bidders) == 0 || len(v.Pool) == 0 {
			return nil
		}
		afford := 0
		for _, team := range bidders {
			afford = max(afford, team.MaxBid)
		}
		p, base := v.Pool[0], 0
		if auction.PriceOf(p.Tier).Base > afford {
			base = auction.MinPrice // the organiser starts low enough for someone to bid
		}
		unsold := lotNo%5 == 4 && len(v.Pool) > len(bidders)*perTeam+1
		if unsold {
			p, base = v.Pool[len(v.Pool)-1], 0 // the weakest: nobody bids
		}
		lot, err := auc.OpenLot(ctx, organiser, t.Name, p.UserID, base)
		if err != nil {
			return err
		}
		if !unsold {
			rng.Shuffle(len(bidders), func(i, j int) { bidders[i], bidders[j] = bidders[j], bidders[i] })
			for round := 0; round < 1+rng.IntN(4); round++ {
				for _, team := range bidders {
					if lot.High != nil && lot.High.Team == team.ID {
						continue
					}
					captain := core.Actor{UserID: team.Captain.UserID, Name: team.Captain.Name,
						Captains: []core.Captaincy{{TournamentID: t.ID, Tournament: t.Name, Team: team.ID}}}
					next := auction.NextBids(lot, team.State(), 1)
					if len(next) == 0 {
						continue
					}
					if lot, err = auc.Bid(ctx, captain, t.Name, lot.ID, next[0]); err != nil {
						return err
					}
				}
			}
		}
		if _, err := auc.Close(ctx, organiser, t.Name, lot.ID); err != nil {
			return err
		}
	}
}
