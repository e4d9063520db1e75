package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
)

const accountUsage = `usage:
  pitlane account delete --email ADDRESS --yes   erase an account as "Delete my account" does (a player who lost access asked)
`

// account is `pitlane account`: what a site's operator does for a player
// who cannot do it themselves.
func account(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "delete" {
		fmt.Fprint(stderr, accountUsage)
		return usageError("unknown account command")
	}
	fs := flag.NewFlagSet("account delete", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "the account's address")
	yes := fs.Bool("yes", false, "really erase it (it cannot be undone)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError(err.Error())
	}
	if *email == "" || !*yes {
		fmt.Fprint(stderr, accountUsage)
		return usageError("--email and --yes are required")
	}
	_, _, a, closeAll, err := botApp(ctx, getenv, stderr, slog.LevelWarn)
	if err != nil {
		return err
	}
	defer closeAll()
	id, err := a.Server.Accounts.EraseForOperator(ctx, *email)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "account %d erased: the league's records now show \"Deleted player %d\"\n", id, id)
	return nil
}
