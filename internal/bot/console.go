package bot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
)

// Console feeds the router from r, one command a line, and prints each
// reply to w, as `pitlane bot console --as ID` does. Lines are private (only
// the organiser at the terminal sees them), so codes are accepted. It
// returns at the end of input. With echo, each command is printed before
// its reply ("> !help"), for transcripts.
func Console(ctx context.Context, router *Router, member Member, r io.Reader, w io.Writer, echo bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, Prefix) {
			line = Prefix + line // the console may leave the prefix out
		}
		if echo {
			if _, err := fmt.Fprintf(w, "> %s\n", line); err != nil {
				return err
			}
		}
		rep := router.Handle(ctx, Request{Member: member, Text: line, Where: InConsole})
		if _, err := fmt.Fprint(w, Render(rep)); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Render is a reply as plain text (the console's, and a fallback).
func Render(rep Reply) string {
	var b strings.Builder
	if rep.Text != "" {
		b.WriteString(rep.Text + "\n")
	}
	if e := rep.Embed; e != nil {
		b.WriteString("┌ " + e.Title)
		if e.URL != "" {
			b.WriteString(" <" + e.URL + ">")
		}
		b.WriteString("\n")
		if e.Description != "" {
			for _, l := range strings.Split(e.Description, "\n") {
				b.WriteString("│ " + l + "\n")
			}
		}
		for _, f := range e.Fields {
			lines := strings.Split(f.Value, "\n")
			b.WriteString("│ " + f.Name + ": " + lines[0] + "\n")
			for _, l := range lines[1:] {
				b.WriteString("│   " + l + "\n")
			}
		}
		if e.Footer != "" {
			b.WriteString("└ " + e.Footer + "\n")
		} else {
			b.WriteString("└\n")
		}
	}
	return b.String()
}

// ConsolePoster is the console's announcement channel: it prints.
type ConsolePoster struct{ W io.Writer }

// Post implements Poster.
func (p ConsolePoster) Post(_ context.Context, r Reply) error {
	_, err := fmt.Fprint(p.W, "[announcement channel] "+Render(r))
	return err
}
