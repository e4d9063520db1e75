package main

// The Discord bot's side of a night: what it should have announced, from the
// committed events, against what it posted to the fake Discord.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// botCheck compares the bot's announcements with the news the night's
// events carry, as the announcer tells them (internal/bot): registrations,
// sales, results (once per match and winner) and each new Red Cap holder.
type botCheck struct {
	Expected  map[string]int `json:"expected"`
	Posted    map[string]int `json:"posted"`
	Twice     int            `json:"twice"`
	Sessions  int            `json:"sessions"` // gateway sessions: a new leader opens one
	Announced int            `json:"announced"`
	Missing   int            `json:"missing"`
}

var announcementKinds = []struct{ kind, prefix string }{
	{"registrations", "🏁"}, {"sales", "🔨"}, {"results", "🏆"}, {"Red Cap", "🧢"},
}

func expectedAnnouncements(events []outboxEvent) map[string]int {
	want := map[string]int{}
	results := map[string]bool{}
	holder := ""
	for _, e := range events {
		switch e.Name {
		case tournament.EventRegistered:
			want["registrations"]++
		case auction.EventSold:
			want["sales"]++
		case matches.EventMatch:
			var v struct {
				Tournament string
				Match      matches.Match
			}
			if json.Unmarshal(e.Data, &v) == nil && v.Match.Status == matches.StatusCompleted && v.Match.Winner != nil &&
				v.Match.Team1 != nil && v.Match.Team2 != nil {
				key := fmt.Sprintf("%s:%d:%s", v.Tournament, v.Match.ID, *v.Match.Winner)
				if !results[key] {
					results[key] = true
					want["results"]++
				}
			}
		case matches.EventStandings:
			var v struct {
				RedCap struct {
					Rows []struct {
						UserID int64 `json:"user_id"`
						Kills  int   `json:"kills"`
					} `json:"rows"`
				} `json:"red_cap"`
			}
			if json.Unmarshal(e.Data, &v) != nil || len(v.RedCap.Rows) == 0 || v.RedCap.Rows[0].Kills == 0 {
				continue
			}
			if top := fmt.Sprint(v.RedCap.Rows[0].UserID); top != holder {
				holder = top
				want["Red Cap"]++
			}
		}
	}
	return want
}

// waitBot waits (up to limit) for the bot to post what the events say,
// then counts what it posted.
func (n *night) waitBot(ctx context.Context, events []outboxEvent, limit time.Duration) *botCheck {
	bc := &botCheck{Expected: expectedAnnouncements(events), Posted: map[string]int{}}
	total := 0
	for _, v := range bc.Expected {
		total += v
	}
	deadline := time.Now().Add(limit)
	var posts []string
	for {
		posts = n.st.discord.announcements()
		if len(posts) >= total || time.Now().After(deadline) || sleep(ctx, 200*time.Millisecond) != nil {
			break
		}
	}
	seen := map[string]bool{}
	for _, p := range posts {
		if seen[p] {
			bc.Twice++
		}
		seen[p] = true
		for _, k := range announcementKinds {
			if strings.HasPrefix(p, k.prefix) {
				bc.Posted[k.kind]++
			}
		}
	}
	bc.Announced, bc.Missing, bc.Sessions = len(posts), max(total-len(posts), 0), n.st.discord.sessions()
	return bc
}
