package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

func migrate(ctx context.Context, getenv func(string) string, stdout io.Writer) error {
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return err
	}
	db, err := openDB(ctx, cfg.DatabaseURL, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := db.Migrate(ctx)
	for _, name := range applied {
		fmt.Fprintln(stdout, "applied", name)
	}
	if err == nil && len(applied) == 0 {
		fmt.Fprintln(stdout, "database is up to date")
	}
	return err
}

func seedDemo(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("seed-demo", flag.ContinueOnError)
	players := fs.Int("players", 60, "registered players to create (the first eight captain teams A to H)")
	phase := fs.String("phase", "registration", "the league's phase: registration, auction (two rounds sold), matches (full rosters) or completed")
	password := fs.String("password", "", "password of the organiser and captain accounts (empty: they cannot sign in)")
	playersSignIn := fs.Bool("players-sign-in", false, "every player signs in with -password too (player009@demo.pitlane.local …; load scenarios act as them)")
	force := fs.Bool("force", false, "allow loading into a production database")
	ifEmpty := fs.Bool("if-empty", false, "do nothing (and succeed) when the database already has accounts")
	format := fs.String("format", "", "the fixtures' format (made at the matches phase, played at completed): "+
		strings.Join(bracket.Formats, ", ")+"; empty: none made at matches, the default played at completed")
	rounds := fs.Int("rounds", 0, "with -format swiss: its rounds (0: the default)")
	topCut := fs.Int("top-cut", 0, "with -format swiss: the top of the standings in play-offs (2, 4 or 8; 0: none)")
	noReset := fs.Bool("no-reset", false, "with -format double_elimination: no grand final reset")
	seasons := fs.Int("seasons", 1, "seasons in the league's history, the current one included: the others are played to their champions first (needs 56 players)")
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if *seasons < 1 || *seasons > 100 {
		return usageError("-seasons is from 1 to 100")
	}
	if !demo.ValidPhase(*phase) {
		return usageError(fmt.Sprintf("-phase must be one of %v", demo.Phases))
	}
	fixtures := matches.FormatInput{Format: *format, Rounds: *rounds, TopCut: *topCut}
	if *noReset {
		fixtures.GrandFinalReset = new(bool)
	}
	if *format != "" && !bracket.ValidFormat(*format) {
		return usageError(fmt.Sprintf("-format must be one of %v", bracket.Formats))
	}
	if *format != "" && *phase != tournament.StatusMatches && *phase != tournament.StatusCompleted {
		return usageError("-format goes with -phase matches or completed")
	}
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return err
	}
	if cfg.Production() && !*force {
		return fmt.Errorf("refusing to load demo data with PITLANE_ENV=production (pass -force if you mean it)")
	}
	db, err := openDB(ctx, unsyncedCommits(cfg.DatabaseURL), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return err
	}
	var users int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&users); err != nil {
		return err
	}
	if users > 0 && *ifEmpty {
		fmt.Fprintf(stdout, "database has %d accounts; demo data not loaded\n", users)
		return nil
	}
	start := time.Now()
	res, err := demo.Load(ctx, db, demo.Options{Players: *players, Captains: true, Tournament: cfg.DefaultTournament, Password: *password,
		PlayersSignIn: *playersSignIn, History: *seasons > 1})
	if err != nil {
		return err
	}
	if err := demo.PastSeasons(ctx, db, cfg.DefaultTournament, *seasons-1); err != nil {
		return fmt.Errorf("playing the league's past seasons: %w", err)
	}
	if err := demo.AdvanceIn(ctx, db, cfg.DefaultTournament, *phase, fixtures); err != nil {
		return fmt.Errorf("playing the demo league to its %s phase: %w", *phase, err)
	}
	fmt.Fprintf(stdout, "loaded %d registered players and %d captains into %s at its %s phase, after %d past seasons, in %s (organiser: %s)\n",
		res.Players, res.Teams, cfg.DefaultTournament, *phase, *seasons-1, time.Since(start).Round(time.Millisecond), res.Admin)
	return nil
}

// openDB connects, waiting up to 30 s for a database that is still starting
// (containers start in any order).
func openDB(ctx context.Context, url string, log *slog.Logger) (*postgres.DB, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		db, err := postgres.Open(ctx, url)
		if err == nil || time.Now().After(deadline) {
			return db, err
		}
		if log != nil {
			log.Warn("waiting for the database", slog.Any("err", err))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// unsyncedCommits asks the database not to wait for the disk at each of
// the seed's commits (thousands of small ones): demo data lost to a crash
// is loaded again. A URL that cannot be read is left as it is.
func unsyncedCommits(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return raw
	}
	q := u.Query()
	q.Set("options", strings.TrimSpace(q.Get("options")+" -c synchronous_commit=off"))
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20") // a space, as PostgreSQL reads it
	return u.String()
}
