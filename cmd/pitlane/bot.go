package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/pitlane/pitlane/internal/app"
	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/config"
)

const botUsage = `usage:
  pitlane bot                              run the Discord bot (DISCORD_BOT_TOKEN; one instance answers at a time)
  pitlane bot console --as DISCORD_USER_ID [--name NAME] [--echo]
                                           the command router on standard input/output, as that Discord member
`

// runBot is `pitlane bot` and `pitlane bot console`.
func runBot(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "console" {
		return botConsole(ctx, args[1:], getenv, stdin, stdout, stderr)
	}
	if len(args) > 0 {
		fmt.Fprint(stderr, botUsage)
		return usageError(fmt.Sprintf("unknown bot command %q", args[0]))
	}
	cfg, log, a, closeAll, err := botApp(ctx, getenv, stderr, slog.LevelInfo)
	if err != nil {
		return err
	}
	defer closeAll()
	if cfg.DiscordBotToken == "" {
		return fmt.Errorf("DISCORD_BOT_TOKEN is not set: create the bot in Discord's developer portal (see README, Discord)")
	}
	log.Info("discord bot starting")
	return a.RunBot(ctx)
}

func botConsole(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bot console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	as := fs.String("as", "", "the Discord user id to act as (their linked Pitlane account, or anonymous)")
	name := fs.String("name", "", "the Discord username to act as (default: console-<id>)")
	echo := fs.Bool("echo", false, "print each command before its reply (for transcripts)")
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if *as == "" || strings.Trim(*as, "0123456789") != "" {
		fmt.Fprint(stderr, botUsage)
		return usageError("--as must be a Discord user id (digits)")
	}
	if *name == "" {
		*name = "console-" + *as
	}
	// The console's output is the replies: logs (mails in development
	// included) go to standard error, warnings and worse unless mail is
	// logged, which organisers need to read the codes.
	_, _, a, closeAll, err := botApp(ctx, getenv, stderr, slog.LevelInfo)
	if err != nil {
		return err
	}
	defer closeAll()
	router := *a.Bot
	router.Channel = bot.ConsolePoster{W: stdout}
	return bot.Console(ctx, &router, bot.Member{ID: *as, Username: *name}, stdin, stdout, *echo)
}

// botApp is the app the bot commands run on: the same wiring as serve,
// without the HTTP listener.
func botApp(ctx context.Context, getenv func(string) string, stderr io.Writer, level slog.Level) (config.Config, *slog.Logger, *app.App, func(), error) {
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return cfg, nil, nil, nil, err
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	if !cfg.Production() {
		if err := cfg.EnsureSecret(); err != nil {
			return cfg, nil, nil, nil, fmt.Errorf("making a development JWT secret: %w", err)
		}
	}
	db, err := openDB(ctx, cfg.DatabaseURL, log)
	if err != nil {
		return cfg, nil, nil, nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return cfg, nil, nil, nil, err
	}
	a, err := app.New(ctx, cfg, db, nil, log)
	if err != nil {
		db.Close()
		return cfg, nil, nil, nil, err
	}
	return cfg, log, a, func() { a.Close(); db.Close() }, nil
}
