package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// `pitlane account delete` erases an account on the operator's word, as
// the player's own deletion does; without --yes it does nothing.
func TestAccountDelete(t *testing.T) {
	ctx := context.Background()
	url, drop, err := pgtest.NewURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	env := map[string]string{"DATABASE_URL": url, "PITLANE_DATA_DIR": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	if err := run(ctx, []string{"seed-demo", "-players", "16", "-password", "pitlane-demo", "-players-sign-in"}, getenv, nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	const who = "player012@demo.pitlane.local"
	if err := run(ctx, []string{"account", "delete", "--email", who}, getenv, nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Fatal("deleted without --yes")
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"account", "delete", "--email", who, "--yes"}, getenv, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Deleted player") {
		t.Fatalf("output: %q", out.String())
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var left int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM users WHERE email = $1`, who).Scan(&left); err != nil || left != 0 {
		t.Fatalf("the address is still kept: %d (%v)", left, err)
	}
	if err := run(ctx, []string{"account", "delete", "--email", "captain.a@demo.pitlane.local", "--yes"}, getenv, nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "team A of PPL7") {
		t.Fatalf("a running season's captain: %v", err)
	}
}
