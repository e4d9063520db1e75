// Command pitlane-load measures Pitlane's websocket hub: it holds many
// websocket clients subscribed to the "deck" topic, publishes slide changes
// and reports delivery latency, lost and duplicated events, connect errors
// and the server's memory and CPU. It only ever talks to loopback addresses.
//
//	pitlane-load ws -url ws://127.0.0.1:8080/api/ws -publish-url http://127.0.0.1:8080/api/deck -token T -server-pid PID
//	pitlane-load ws -inprocess -clients 10000
//	pitlane-load ws -inprocess -redis redis://127.0.0.1:6379/0 -instances 2 -clients 20000
//	pitlane-load ws -inprocess -anchor -clients 10000   # beside centrifuge, with ratios
//	pitlane-load auction -base http://127.0.0.1:8080 -password P -spectators 10000
//	pitlane-load night -pitlane bin/pitlane -spectators 10000 [-fault kill|redis|failover|postgres]
//	pitlane-load check-league -pitlane bin/pitlane -database-url URL [-ledger FILE]
//	pitlane-load cheers -redis redis://127.0.0.1:6379/0 -instances 2 -clients 2000 -seconds 10
//
// auction and night are scenarios against real `pitlane serve` instances:
// night starts its own (docs/hub.md, "The night scenario").
//
// The subcommands "hub", "anchor" and "worker" are the child processes "ws"
// starts: hub servers (for -inprocess), centrifuge servers (for -anchor) and
// client workers, each in its own process
// so that no process needs more than ~10,000 file descriptors (this machine
// caps RLIMIT_NOFILE at 20,000) and the server's RSS is the server's alone.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pitlane-load:", err)
		os.Exit(1)
	}
}

const usage = `usage: pitlane-load ws [flags]        (run "pitlane-load ws -h" for the flags)
       pitlane-load auction [flags]   (run "pitlane-load auction -h")
       pitlane-load night [flags]     (run "pitlane-load night -h")
       pitlane-load check-league -database-url URL [-ledger FILE]   (a restored backup)
       pitlane-load cheers [flags]    (run "pitlane-load cheers -h")`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	raiseFileLimit()
	switch args[0] {
	case "ws":
		return runWS(ctx, args[1:])
	case "hub":
		return runHub(ctx, args[1:])
	case "auction":
		return runAuctionScenario(ctx, args[1:])
	case "night":
		return runNight(ctx, args[1:])
	case "check-league":
		return runCheckLeague(ctx, args[1:])
	case "cheers":
		return runCheers(ctx, args[1:])
	case "anchor":
		return runAnchor(ctx, args[1:])
	case "worker":
		return runWorker(ctx, args[1:])
	}
	return errors.New(usage)
}
