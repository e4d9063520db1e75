// From the league's events to notices: who hears of what.

package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
)

// Notice is one thing to tell some players. Key names the thing itself
// (match 12 reported at 18:04), not the event that told of it: two events
// telling of one thing make one notice.
type Notice struct {
	Key   string
	Kind  string
	Users []int64
	Title string
	Body  string
	Path  string // the site's page it is about
}

// notifying are the events a notice may come of.
var notifying = []string{matches.EventMatch, matches.EventReminder, auction.EventLot, auction.EventBid, auction.EventSold}

// Notifies tells whether a player may be notified of event.
func Notifies(event string) bool { return slices.Contains(notifying, event) }

type matchNews struct {
	Tournament string        `json:"tournament"`
	Match      matches.Match `json:"match"`
}

// Derive is what ev tells players, asking dir who they are.
func Derive(ctx context.Context, ev core.Event, dir Directory) ([]Notice, error) {
	switch ev.Name {
	case matches.EventMatch, matches.EventReminder:
		var n matchNews
		if err := json.Unmarshal(ev.Data, &n); err != nil {
			return nil, fmt.Errorf("notify: %s: %w", ev.Name, err)
		}
		if ev.Name == matches.EventReminder {
			return reminder(n.Match), nil
		}
		return matchNotices(ctx, n.Tournament, n.Match, dir)
	case auction.EventLot:
		var n struct {
			Tournament string      `json:"tournament"`
			Lot        auction.Lot `json:"lot"`
		}
		if err := json.Unmarshal(ev.Data, &n); err != nil || n.Lot.Status != auction.LotOpen {
			return nil, err
		}
		return []Notice{{Key: fmt.Sprintf("lot:%d:up", n.Lot.ID), Kind: KindLotUp, Users: []int64{n.Lot.Player.UserID},
			Title: "Your lot is up", Body: fmt.Sprintf("The captains of %s are bidding on you now.", n.Tournament), Path: "/auction"}}, nil
	case auction.EventBid:
		var n auction.BidNews
		if err := json.Unmarshal(ev.Data, &n); err != nil {
			return nil, err
		}
		return outbid(ctx, n, dir)
	case auction.EventSold:
		var n struct {
			Tournament string       `json:"tournament"`
			Sale       auction.Sale `json:"sale"`
		}
		if err := json.Unmarshal(ev.Data, &n); err != nil {
			return nil, err
		}
		return []Notice{{Key: fmt.Sprintf("lot:%d:sold", n.Sale.LotID), Kind: KindBought, Users: []int64{n.Sale.Player.UserID},
			Title: fmt.Sprintf("Team %s bought you", n.Sale.Team),
			Body:  fmt.Sprintf("Team %s bought you for %d credits in %s.", n.Sale.Team, n.Sale.Price, n.Tournament), Path: "/auction"}}, nil
	}
	return nil, nil
}

func outbid(ctx context.Context, n auction.BidNews, dir Directory) ([]Notice, error) {
	beaten, err := dir.BeatenTeam(ctx, n.LotID, n.Bid.Amount)
	if err != nil || beaten == "" || beaten == n.Bid.Team {
		return nil, err
	}
	captain, err := dir.Captain(ctx, n.Tournament, beaten)
	if err != nil || captain == 0 {
		return nil, err
	}
	return []Notice{{Key: fmt.Sprintf("lot:%d:bid:%d", n.LotID, n.Bid.Amount), Kind: KindOutbid, Users: []int64{captain},
		Title: "You were outbid", Body: fmt.Sprintf("Team %s bid %d credits, over yours.", n.Bid.Team, n.Bid.Amount), Path: "/auction"}}, nil
}

// matchNotices: a match with both sides and a time is news to its players
// (at each new time); a report to the other side's captain; a ruling on a
// dispute to both captains.
func matchNotices(ctx context.Context, tournament string, m matches.Match, dir Directory) ([]Notice, error) {
	if m.Team1 == nil || m.Team2 == nil {
		return nil, nil
	}
	title := fmt.Sprintf("Match %d: %s v %s", m.ID, m.Team1.Name, m.Team2.Name)
	path := fmt.Sprintf("/matches/%d", m.ID)
	var out []Notice
	switch {
	case m.Status == matches.StatusScheduled && m.ScheduledAt != nil:
		at := m.ScheduledAt.UTC()
		out = append(out, Notice{Key: fmt.Sprintf("match:%d:time:%s", m.ID, at.Format(time.RFC3339)), Kind: KindMatchTime,
			Users: players(m), Title: title, Body: "Set for " + at.Format("Mon 2 Jan 15:04 UTC") + ".", Path: path})
	case m.Status == matches.StatusReported && m.ReportedBy != nil && m.ReportedAt != nil:
		other := m.Team1
		if *m.ReportedBy == m.Team1.ID {
			other = m.Team2
		}
		captain, err := dir.Captain(ctx, tournament, other.ID)
		if err != nil || captain == 0 {
			return nil, err
		}
		body := fmt.Sprintf("Team %s reported the result: confirm or dispute it.", *m.ReportedBy)
		if m.ConfirmBy != nil {
			body = fmt.Sprintf("Team %s reported the result: confirm or dispute it by %s, or it stands.", *m.ReportedBy,
				m.ConfirmBy.UTC().Format("Mon 2 Jan 15:04 UTC"))
		}
		out = append(out, Notice{Key: fmt.Sprintf("match:%d:report:%s", m.ID, m.ReportedAt.UTC().Format(time.RFC3339Nano)),
			Kind: KindReportWaiting, Users: []int64{captain}, Title: title, Body: body, Path: path})
	case m.Status == matches.StatusCompleted && m.Dispute != "" && m.Winner != nil:
		var captains []int64
		for _, side := range m.Sides() {
			c, err := dir.Captain(ctx, tournament, side.ID)
			if err != nil {
				return nil, err
			}
			if c != 0 {
				captains = append(captains, c)
			}
		}
		out = append(out, Notice{Key: fmt.Sprintf("match:%d:ruled:%s", m.ID, *m.Winner), Kind: KindDisputeRuled, Users: captains,
			Title: title, Body: fmt.Sprintf("An organiser ruled on the dispute: team %s won.", *m.Winner), Path: path})
	}
	return out, nil
}

func reminder(m matches.Match) []Notice {
	if m.Team1 == nil || m.Team2 == nil || m.ScheduledAt == nil {
		return nil
	}
	return []Notice{{Key: fmt.Sprintf("match:%d:soon:%s", m.ID, m.ScheduledAt.UTC().Format(time.RFC3339)), Kind: KindMatchTime,
		Users: players(m), Title: fmt.Sprintf("Match %d: %s v %s", m.ID, m.Team1.Name, m.Team2.Name),
		Body: fmt.Sprintf("Starts in %d minutes.", int(matches.RemindBefore.Minutes())), Path: fmt.Sprintf("/matches/%d", m.ID)}}
}

// players are everyone who may play for either side.
func players(m matches.Match) []int64 {
	var out []int64
	for _, side := range m.Sides() {
		for _, p := range m.Members[side.ID] {
			if !slices.Contains(out, p.UserID) {
				out = append(out, p.UserID)
			}
		}
	}
	return out
}
