package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// `pitlane bot console --as ID` reads commands from standard input and
// prints the replies, against the real database, as that Discord member.
func TestBotConsole(t *testing.T) {
	url, drop, err := pgtest.NewURL(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	env := map[string]string{"DATABASE_URL": url, "PITLANE_DATA_DIR": t.TempDir(), "ADMIN_EMAILS": demo.AdminEmail}
	getenv := func(k string) string { return env[k] }
	if err := run(context.Background(), []string{"seed-demo", "-players", "16"}, getenv, nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	console := func(as, input string) string {
		t.Helper()
		var out, logs bytes.Buffer
		if err := run(context.Background(), []string{"bot", "console", "--as", as}, getenv, strings.NewReader(input), &out, &logs); err != nil {
			t.Fatalf("console: %v\n%s", err, logs.String())
		}
		return out.String()
	}
	out := console(demo.AdminDiscordID, "!help\n!admin status auction\n!admin announce Auction at nine\n!bracket\n")
	for _, want := range []string{"**Pitlane bot**", "PPL7 is now in the **auction** phase", "[announcement channel] 📣 Auction at nine",
		"No fixtures yet"} {
		if !strings.Contains(out, want) {
			t.Fatalf("organiser's console lacks %q:\n%s", want, out)
		}
	}
	out = console(demo.PlayerDiscordID(2), "profile\n!admin status matches\n")
	for _, want := range []string{"Registered for PPLS-6.0", "Only organisers can do this"} {
		if !strings.Contains(out, want) {
			t.Fatalf("player's console lacks %q:\n%s", want, out)
		}
	}
	var errOut bytes.Buffer
	if err := run(context.Background(), []string{"bot", "console"}, getenv, strings.NewReader(""), &bytes.Buffer{}, &errOut); err == nil {
		t.Fatal("console without --as ran")
	}
}
