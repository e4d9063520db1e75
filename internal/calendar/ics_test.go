package calendar

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TEXT values escape backslash, semicolon and comma, and write line breaks
// as \n (RFC 5545, 3.3.11).
func TestTextEscaping(t *testing.T) {
	for in, want := range map[string]string{
		`Team A; Team B, round 1`: `Team A\; Team B\, round 1`,
		`C:\karts`:                `C:\\karts`,
		"line one\r\nline two\n":  `line one\nline two\n`,
		"bell\a":                  "bell",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// A content line longer than 75 octets is folded: CRLF then one space,
// every physical line at most 75 octets, never inside a UTF-8 character,
// and unfolding gives the line back (RFC 5545, 3.1).
func TestFolding(t *testing.T) {
	long := "SUMMARY:" + strings.Repeat("Ünïcödé kärts 🏎️ ", 20)
	folded := fold(long)
	if !strings.HasSuffix(folded, "\r\n") {
		t.Fatalf("not ended with CRLF: %q", folded[len(folded)-5:])
	}
	lines := strings.Split(strings.TrimSuffix(folded, "\r\n"), "\r\n")
	if len(lines) < 4 {
		t.Fatalf("%d lines for %d octets", len(lines), len(long))
	}
	for i, l := range lines {
		if len(l) > 75 {
			t.Errorf("line %d has %d octets", i, len(l))
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d splits a character: %q", i, l)
		}
		if i > 0 && !strings.HasPrefix(l, " ") {
			t.Errorf("continuation %d does not start with a space", i)
		}
	}
	if unfolded := strings.ReplaceAll(strings.TrimSuffix(folded, "\r\n"), "\r\n ", ""); unfolded != long {
		t.Fatalf("unfolded differs:\n%q\n%q", unfolded, long)
	}
	if got := fold("UID:1"); got != "UID:1\r\n" {
		t.Fatalf("a short line: %q", got)
	}
}

// An event is written in UTC with its UID, SEQUENCE and LAST-MODIFIED; a
// cancelled one says so.
func TestEncode(t *testing.T) {
	at := time.Date(2026, 12, 1, 19, 30, 0, 0, time.FixedZone("CET", 3600))
	mod := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	out := string(Encode("PPL7, team A", []Event{
		{UID: "match-7@pitlane.example", Summary: "PPL7: A v B", Start: at, Duration: 90 * time.Minute, Sequence: 2, Modified: mod},
		{UID: "match-8@pitlane.example", Summary: "PPL7: A v C", Start: at, Duration: time.Hour, Modified: mod, Cancelled: true},
	}))
	for _, want := range []string{
		"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", "X-WR-CALNAME:PPL7\\, team A\r\n",
		"UID:match-7@pitlane.example\r\n", "DTSTART:20261201T183000Z\r\n", "DURATION:PT1H30M\r\n",
		"SEQUENCE:2\r\n", "LAST-MODIFIED:20261125T100000Z\r\n", "DTSTAMP:20261125T100000Z\r\n",
		"SUMMARY:PPL7: A v C\r\nSTATUS:CANCELLED\r\n", "END:VCALENDAR\r\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Count(out, "BEGIN:VEVENT") != 2 || strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Fatalf("events or line ends wrong:\n%q", out)
	}
}
