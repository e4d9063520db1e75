package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// checkin checks the member in for the current tournament while its
// check-in is open. Once the matches are on, a captain's `!checkin` is for
// their team's next match, in the hour before its time.
func (c *call) checkin(ctx context.Context) Reply {
	if len(c.args) > 0 {
		return usage("checkin")
	}
	if !c.linked {
		return c.fail(core.ErrUnauthenticated)
	}
	t, err := c.Tournaments.Find(ctx, "")
	if err != nil {
		return c.fail(err)
	}
	if t.Status == tournament.StatusMatches {
		if rep, ok := c.matchCheckin(ctx, t); ok {
			return rep
		}
	}
	e, err := c.Tournaments.CheckIn(ctx, c.actor, t.Name)
	if err != nil {
		return c.fail(err)
	}
	return Reply{Text: "✅ " + e.Message + " " + c.url("/tournament?tab=reg")}
}

// matchCheckin checks a captain's team in for its next match; ok is false
// for a member who captains no team of t.
func (c *call) matchCheckin(ctx context.Context, t tournament.Tournament) (Reply, bool) {
	team, captain, ok := c.teamOf(ctx, t.Name, c.actor.UserID)
	if !ok || !captain {
		return Reply{}, false
	}
	list, err := c.Matches.Matches(ctx, c.actor, t.Name, team.ID)
	if err != nil {
		return c.fail(err), true
	}
	var next *matches.Match
	for i := range list {
		m := &list[i]
		if m.Status != matches.StatusScheduled && m.Status != matches.StatusLive || m.Team1 == nil || m.Team2 == nil {
			continue
		}
		if m.CheckinRefusal(time.Now()) == "" {
			next = m
			break
		}
		if next == nil {
			next = m
		}
	}
	if next == nil {
		return Reply{Text: fmt.Sprintf("%s has no match to check in for.", teamName(team.ID, team.Name))}, true
	}
	m, err := c.Matches.CheckIn(ctx, c.actor, next.ID)
	if err != nil {
		return c.fail(err), true
	}
	return Reply{Text: fmt.Sprintf("✅ %s is checked in for match #%d (%s vs %s, <t:%d:R>). %s", teamName(team.ID, team.Name), m.ID,
		side(m.Team1), side(m.Team2), m.ScheduledAt.Unix(), c.url(fmt.Sprintf("/matches/%d", m.ID)))}, true
}
