// The iCalendar text of a feed (RFC 5545): its escaping, its line folding, its events.

package calendar

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is one VEVENT: a match with a time.
type Event struct {
	UID         string // stable for the match across every change
	Summary     string
	Description string
	URL         string
	Start       time.Time
	Duration    time.Duration
	// Sequence counts the changes of the event's time (and its
	// cancellation); Modified is when the event last changed.
	Sequence  int
	Modified  time.Time
	Cancelled bool
}

// Encode writes a calendar of events: times in UTC (no time zone to
// define), lines ended with CRLF and folded at 75 octets.
func Encode(name string, events []Event) []byte {
	var b strings.Builder
	line := func(name, value string) { b.WriteString(fold(name + ":" + value)) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//Pitlane//League calendar//EN")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	line("X-WR-CALNAME", Text(name))
	for _, e := range events {
		line("BEGIN", "VEVENT")
		line("UID", Text(e.UID))
		line("DTSTAMP", utc(e.Modified))
		line("LAST-MODIFIED", utc(e.Modified))
		line("SEQUENCE", strconv.Itoa(e.Sequence))
		line("DTSTART", utc(e.Start))
		line("DURATION", duration(e.Duration))
		line("SUMMARY", Text(e.Summary))
		if e.Description != "" {
			line("DESCRIPTION", Text(e.Description))
		}
		if e.URL != "" {
			line("URL", e.URL)
		}
		if e.Cancelled {
			line("STATUS", "CANCELLED")
		} else {
			line("STATUS", "CONFIRMED")
		}
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	return []byte(b.String())
}

// Text escapes a TEXT value: backslash, semicolon and comma are escaped,
// a line break is written as \n, other control characters are dropped.
func Text(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\\' || r == ';' || r == ',':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			if r == '\t' {
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fold splits a content line into lines of at most 75 octets, each
// continuation starting with a space, never inside a UTF-8 character; every
// line ends with CRLF.
func fold(s string) string {
	const limit = 75
	var b strings.Builder
	width := limit
	for len(s) > width {
		cut := width
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		width = limit - 1 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
	return b.String()
}

func utc(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// duration is d as an iCalendar DURATION (whole minutes).
func duration(d time.Duration) string {
	m := int(d.Minutes())
	if m <= 0 {
		return "PT0M"
	}
	out := "PT"
	if m >= 60 {
		out += strconv.Itoa(m/60) + "H"
	}
	if m%60 != 0 {
		out += strconv.Itoa(m%60) + "M"
	}
	return out
}
