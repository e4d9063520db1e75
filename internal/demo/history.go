package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/league"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// SeasonPlayers is how many of the league's players sign up for each past
// season: eight captains, their forty buys and a few left unsold.
const SeasonPlayers = 56

// PastName is the name of the k-th past season (from 1) of current.
func PastName(current string, k int) string { return fmt.Sprintf("%s-S%02d", current, k) }

// PastSeasons gives a loaded league n completed seasons before current,
// through the league's services as an organiser would run them: each is
// opened, a rotating share of current's players sign up for it, eight of
// them captain, the auction sells the rest and the season is played to its
// champion.
func PastSeasons(ctx context.Context, db *postgres.DB, current string, n int) error {
	if n <= 0 {
		return nil
	}
	ids, err := (postgres.Demo{DB: db}).Registered(ctx, current)
	if err != nil {
		return err
	}
	if len(ids) < SeasonPlayers {
		return fmt.Errorf("demo: past seasons need at least %d players, the league has %d", SeasonPlayers, len(ids))
	}
	lg := league.New(db, league.Options{Default: current, Jobs: noJobs{}, LotTime: time.Hour})
	for k := 1; k <= n; k++ {
		name := PastName(current, k)
		if _, err := lg.Tournaments.Create(ctx, core.System, tournament.NewTournament{Name: name, Season: k}); err != nil {
			return fmt.Errorf("season %s: %w", name, err)
		}
		start := (k * 53) % len(ids)
		picked := make([]int64, SeasonPlayers)
		for j := range picked {
			picked[j] = ids[(start+j)%len(ids)]
		}
		for _, id := range picked {
			if _, err := lg.Tournaments.Register(ctx, core.Actor{UserID: id}, name); err != nil {
				return fmt.Errorf("season %s: %w", name, err)
			}
		}
		for t := 0; t < 8; t++ {
			if _, err := lg.Auction.SetCaptain(ctx, core.System, name, string(rune('A'+t)), picked[t]); err != nil {
				return fmt.Errorf("season %s: %w", name, err)
			}
		}
		if err := AdvanceIn(ctx, db, name, tournament.StatusCompleted, matches.FormatInput{}); err != nil {
			return fmt.Errorf("season %s: %w", name, err)
		}
	}
	return nil
}
