package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Claims keeps what was announced across instances (postgres.Bot).
type Claims interface {
	// ClaimAnnouncement reports whether this call was the first for key.
	ClaimAnnouncement(ctx context.Context, key string) (bool, error)
	// SwapState sets key to value and reports whether that changed it.
	SwapState(ctx context.Context, key, value string) (bool, error)
}

// Announcer posts the league's news to the announcement channel:
// registrations, a check-in opening and closing, auction sales, substitutes
// signed, matches about to start or overdue, results and a new Red Cap
// holder. It follows
// the hub in process; each event is claimed in the database first, so it is
// announced once however many instances follow it.
//
// What the hub could not hand it (a resync: Redis lost its data, a gap in a
// failover) and what it could not announce (the database away for the
// claim) it reads from the outbox (Missed) and announces late, in order;
// so does a bot that takes over, for the news its predecessor may have left
// (the claims keep what was announced from being posted twice). News older
// than Horizon is old news: not announced late.
type Announcer struct {
	Feed    core.Feed
	Claims  Claims
	Channel Poster
	// Missed is the outbox (postgres.Bot); nil: what the hub misses is not
	// announced.
	Missed Outbox
	// Horizon bounds how late news is announced. Default 10 minutes.
	Horizon time.Duration
	Log     *slog.Logger
	// Seasons, when set, names each season by its display name; without
	// it (or when the season cannot be read) a season goes by its name.
	Seasons interface {
		Find(ctx context.Context, name string) (tournament.Tournament, error)
	}
}

// season is the name the tournament called name goes by.
func (a *Announcer) season(ctx context.Context, name string) string {
	if a.Seasons == nil || name == "" {
		return name
	}
	t, err := a.Seasons.Find(ctx, name)
	if err != nil {
		return name
	}
	return t.DisplayName()
}

// Topics the announcer follows.
var announceTopics = []string{core.TopicRegistrations, core.TopicTeams, core.TopicBracket}

// Run announces until ctx ends.
func (a *Announcer) Run(ctx context.Context) {
	f := &follower{outbox: a.Missed, horizon: a.Horizon, handle: a.Announce, skip: olderStandings, log: a.Log, what: "announcing"}
	f.run(ctx, a.Feed, announceTopics...)
}

// Announce posts one delivery if it is news and nobody announced it yet.
func (a *Announcer) Announce(ctx context.Context, d core.Delivery) error {
	text, key, err := a.news(ctx, d)
	if err != nil || text == "" {
		return err
	}
	first, err := a.Claims.ClaimAnnouncement(ctx, key)
	if err != nil || !first {
		return err
	}
	return a.Channel.Post(ctx, Reply{Text: text})
}

// news is what d tells the channel ("" for nothing) and its claim key.
func (a *Announcer) news(ctx context.Context, d core.Delivery) (text, key string, err error) {
	key = d.Topic + ":" + strconv.FormatInt(d.Seq, 10)
	switch d.Event {
	case "player.registered":
		var v struct {
			Tournament string `json:"tournament"`
			Player     struct {
				Name   string  `json:"name"`
				KD     float64 `json:"kd"`
				Hidden bool    `json:"hidden"`
			} `json:"player"`
		}
		if json.Unmarshal(d.Data, &v) != nil {
			return "", "", nil
		}
		if v.Player.Hidden {
			return fmt.Sprintf("🏁 **%s** registered for %s.", v.Player.Name, a.season(ctx, v.Tournament)), key, nil
		}
		return fmt.Sprintf("🏁 **%s** registered for %s (K/D %.2f).", v.Player.Name, a.season(ctx, v.Tournament), v.Player.KD), key, nil
	case "registration.places":
		var v struct {
			Tournament string `json:"tournament"`
			Places     struct {
				Waitlisted int    `json:"waitlisted"`
				CheckedIn  int    `json:"checked_in"`
				State      string `json:"checkin_state"`
				Checkin    struct {
					Deadline *time.Time `json:"deadline"`
					ClosedAt *time.Time `json:"closed_at"`
				} `json:"checkin"`
			} `json:"places"`
		}
		if json.Unmarshal(d.Data, &v) != nil || v.Places.Checkin.Deadline == nil {
			return "", "", nil
		}
		at := v.Places.Checkin.Deadline.Unix()
		switch v.Places.State {
		case "open":
			// Once per deadline: a deadline moved is news again.
			return fmt.Sprintf("✅ Check-in for %s is open until <t:%d:F> (<t:%d:R>): type `!checkin`, or press **Check in** on the tournament page. "+
					"Whoever has not checked in by then goes to the waitlist.", a.season(ctx, v.Tournament), at, at),
				fmt.Sprintf("checkin:%s:%d", v.Tournament, at), nil
		case "closed":
			return fmt.Sprintf("🔒 Check-in for %s has closed: %d players checked in, %d on the waitlist.", a.season(ctx, v.Tournament),
				v.Places.CheckedIn, v.Places.Waitlisted), fmt.Sprintf("checkin-closed:%s:%d", v.Tournament, at), nil
		}
		return "", "", nil
	case "substitute.request":
		var v struct {
			Tournament string `json:"tournament"`
			Request    struct {
				ID     int64  `json:"id"`
				Team   string `json:"team"`
				Status string `json:"status"`
				Price  int    `json:"price"`
				Player struct {
					Name string `json:"name"`
				} `json:"player"`
			} `json:"request"`
		}
		if json.Unmarshal(d.Data, &v) != nil || v.Request.Status != "approved" {
			return "", "", nil
		}
		return fmt.Sprintf("✍️ Team %s signed **%s** as a substitute for %d credits (%s).", v.Request.Team, v.Request.Player.Name,
			v.Request.Price, a.season(ctx, v.Tournament)), fmt.Sprintf("substitute:%s:%d", v.Tournament, v.Request.ID), nil
	case "auction.sold":
		var v struct {
			Tournament string `json:"tournament"`
			Sale       struct {
				Player struct {
					Name string `json:"name"`
				} `json:"player"`
				Team  string `json:"team"`
				Price int    `json:"price"`
			} `json:"sale"`
		}
		if json.Unmarshal(d.Data, &v) != nil {
			return "", "", nil
		}
		return fmt.Sprintf("🔨 **%s** sold to Team %s for %d credits.", v.Sale.Player.Name, v.Sale.Team, v.Sale.Price), key, nil
	case "match.updated":
		var v matchNews
		if json.Unmarshal(d.Data, &v) != nil || v.Match.Status != "completed" || v.Match.Winner == nil ||
			v.Match.Team1 == nil || v.Match.Team2 == nil {
			return "", "", nil
		}
		win, lose := v.Match.Team1, v.Match.Team2
		if *v.Match.Winner != win.ID {
			win, lose = lose, win
		}
		// One result per match and winner: a re-sent or corrected event
		// with the same outcome is not news again.
		key = fmt.Sprintf("result:%s:%d:%s", v.Tournament, v.Match.ID, *v.Match.Winner)
		return fmt.Sprintf("🏆 %s: %s beat %s — match #%d, %s.", a.season(ctx, v.Tournament),
			teamName(win.ID, win.Name), teamName(lose.ID, lose.Name), v.Match.ID,
			strings.ToLower(matches.RoundName(v.Match.Stage, v.Match.Round))), key, nil
	case "match.reminder", "match.overdue":
		var v matchNews
		if json.Unmarshal(d.Data, &v) != nil || v.Match.ScheduledAt == nil || v.Match.Team1 == nil || v.Match.Team2 == nil {
			return "", "", nil
		}
		at := v.Match.ScheduledAt.Unix()
		sides := teamName(v.Match.Team1.ID, v.Match.Team1.Name) + " vs " + teamName(v.Match.Team2.ID, v.Match.Team2.Name)
		// Once per match, time and kind: a job run twice is not news twice.
		key = fmt.Sprintf("%s:%s:%d:%d", d.Event, v.Tournament, v.Match.ID, at)
		if d.Event == "match.overdue" {
			return fmt.Sprintf("⚠️ %s: %s — match #%d was due <t:%d:R> and has no result yet. Captains: report it on Pitlane; "+
				"organisers can rule or forfeit a side.", a.season(ctx, v.Tournament), sides, v.Match.ID, at), key, nil
		}
		return fmt.Sprintf("⏰ %s: %s — match #%d starts <t:%d:R> (<t:%d:t>).", a.season(ctx, v.Tournament), sides, v.Match.ID, at, at), key, nil
	case "standings.updated":
		var v struct {
			Tournament string `json:"tournament"`
			RedCap     struct {
				Rows []struct {
					UserID int64  `json:"user_id"`
					Name   string `json:"name"`
					Kills  int    `json:"kills"`
				} `json:"rows"`
			} `json:"red_cap"`
		}
		if json.Unmarshal(d.Data, &v) != nil || len(v.RedCap.Rows) == 0 || v.RedCap.Rows[0].Kills == 0 {
			return "", "", nil
		}
		top := v.RedCap.Rows[0]
		changed, err := a.Claims.SwapState(ctx, "redcap:"+v.Tournament, strconv.FormatInt(top.UserID, 10))
		if err != nil || !changed {
			return "", "", err
		}
		return fmt.Sprintf("🧢 New Red Cap holder in %s: **%s** with %d kills.", a.season(ctx, v.Tournament), top.Name, top.Kills), key, nil
	}
	return "", "", nil
}

// matchNews is what the announcer reads of a match event.
type matchNews struct {
	Tournament string `json:"tournament"`
	Match      struct {
		ID          int64      `json:"id"`
		Round       int        `json:"round_number"`
		Stage       string     `json:"stage"`
		Status      string     `json:"status"`
		Winner      *string    `json:"winner"`
		ScheduledAt *time.Time `json:"scheduled_at"`
		Team1       *struct {
			ID, Name string
		} `json:"team1"`
		Team2 *struct {
			ID, Name string
		} `json:"team2"`
	} `json:"match"`
}

// olderStandings passes over, of a catch-up's Red Cap tables, all but
// each tournament's newest: only it tells who holds the Red Cap now.
func olderStandings(evs []core.Delivery) func(core.Delivery) bool {
	newest := newestStandings(evs)
	return func(d core.Delivery) bool {
		return d.Event == "standings.updated" && newest[tournamentOf(d)] != d.Seq
	}
}

// newestStandings is, per tournament, the seq of the last standings.updated
// in evs (in seq order).
func newestStandings(evs []core.Delivery) map[string]int64 {
	newest := map[string]int64{}
	for _, d := range evs {
		if d.Event == "standings.updated" {
			newest[tournamentOf(d)] = d.Seq
		}
	}
	return newest
}

func tournamentOf(d core.Delivery) string {
	var v struct {
		Tournament string `json:"tournament"`
	}
	_ = json.Unmarshal(d.Data, &v)
	return v.Tournament
}
