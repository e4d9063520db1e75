// Command pitlane is the league site: the API server, its migrations, the
// demo data, the stats extractor and the Discord bot, as subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pitlane:", err)
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError string

func (u usageError) Error() string { return string(u) }

const usage = `usage: pitlane <command> [arguments]

commands:
  serve                 run the API, the websocket hub and the web app (reads the environment)
  migrate               apply pending database migrations
  seed-demo [flags]     load the demo league into an empty database
  extract FILE...       read stats from screenshots, one JSON object per file
  bot                   the Discord bot (DISCORD_BOT_TOKEN)
  bot console --as ID   the bot's commands on standard input/output, as Discord member ID
  vapid-keys            print a new key pair for Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)
  account delete --email ADDRESS --yes
                        erase an account as its owner's "Delete my account" does
`

// run is main without the process: arguments, environment and output are
// passed in, so tests can call it.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, getenv, stderr)
	case "migrate":
		return migrate(ctx, getenv, stdout)
	case "seed-demo":
		return seedDemo(ctx, args[1:], getenv, stdout)
	case "extract":
		return extractFiles(ctx, args[1:], getenv, stdout, stderr)
	case "bot":
		return runBot(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "vapid-keys":
		return vapidKeys(stdout)
	case "account":
		return account(ctx, args[1:], getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError(fmt.Sprintf("unknown command %q", args[0]))
}
