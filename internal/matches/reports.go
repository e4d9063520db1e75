// Results as the sides give them: a report, the other side's answer, and the deadline that confirms an unanswered one.

package matches

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// AutoConfirm is the job that confirms a report nobody answered by its
// deadline. It is written with the report, so it survives restarts.
type AutoConfirm struct {
	Match int64 `json:"match"`
}

// Kind implements core.Job.
func (AutoConfirm) Kind() string { return "match.auto_confirm" }

// checkReport applies the rules of a result (filling each line's team when
// it is not given): a winner of the two sides,
// each line a player of the side it names (in its lineup when one was
// picked), at most four a side, kills and deaths in range, placements 1 to 8
// given once (0: not given).
func checkReport(m Match, r Report) error {
	for i, p := range r.Players {
		if p.Team != "" {
			continue
		}
		for _, side := range m.Sides() {
			if isMember(m.Members[side.ID], p.UserID) {
				r.Players[i].Team = side.ID
			}
		}
		if r.Players[i].Team == "" {
			return errs.E(errs.Unprocessable, "Player %d plays for neither side of this match.", p.UserID)
		}
	}
	if m.Side(r.Winner) == nil {
		return errs.E(errs.Invalid, "The winner must be team %s or team %s.", letterOf(m.Team1), letterOf(m.Team2))
	}
	perSide := map[string]int{}
	seen := map[int64]bool{}
	places := map[int]bool{}
	for _, p := range r.Players {
		side := m.Side(p.Team)
		switch {
		case side == nil:
			return errs.E(errs.Invalid, "Player %d is given for team %q, which is not in this match.", p.UserID, errs.Echo(p.Team))
		case seen[p.UserID]:
			return errs.E(errs.Invalid, "Player %d is reported twice.", p.UserID)
		case !isMember(m.Members[p.Team], p.UserID):
			return errs.E(errs.Unprocessable, "Player %d does not play for team %s.", p.UserID, p.Team)
		case len(m.Lineups[p.Team]) > 0 && !isMember(m.Lineups[p.Team], p.UserID):
			return errs.E(errs.Unprocessable, "Player %d is not in team %s's lineup.", p.UserID, p.Team)
		case p.Kills < 0 || p.Kills > MaxKills || p.Deaths < 0 || p.Deaths > MaxKills:
			return errs.E(errs.Invalid, "Kills and deaths are whole numbers from 0 to %d.", MaxKills)
		case p.Placement < 0 || p.Placement > 2*KartsPerSide:
			return errs.E(errs.Invalid, "A placement is from 1 to %d.", 2*KartsPerSide)
		case p.Placement > 0 && places[p.Placement]:
			return errs.E(errs.Invalid, "Placement %d is given twice.", p.Placement)
		}
		seen[p.UserID] = true
		places[p.Placement] = p.Placement > 0
		perSide[p.Team]++
		if perSide[p.Team] > KartsPerSide {
			return errs.E(errs.Invalid, "At most %d players a side.", KartsPerSide)
		}
	}
	if len(r.Players) == 0 {
		return errs.E(errs.Invalid, "Report the players' kills, deaths and placements.")
	}
	return nil
}

// ReportInput is a captain's report.
type ReportInput struct {
	Report
	ScreenshotID string
}

// ReportResult records a side's report with the end-of-match screenshot;
// the other side has ConfirmAfter to confirm or dispute it.
func (s *Service) ReportResult(ctx context.Context, a core.Actor, id int64, in ReportInput) (Match, error) {
	m, err := s.change(ctx, a, ActReport, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if err := checkReport(m, in.Report); err != nil {
			return err
		}
		if in.ScreenshotID == "" {
			return errs.E(errs.Invalid, "Attach the end-of-match screenshot (upload it first).")
		}
		ok, err := s.Store.HasProof(ctx, m.ID, in.ScreenshotID)
		if err != nil {
			return err
		}
		if !ok {
			return errs.E(errs.Invalid, "The screenshot %q was not uploaded for match %d: upload it on this match first.", errs.Echo(in.ScreenshotID), m.ID)
		}
		confirmBy := s.now().Add(s.confirmAfter())
		if err := s.Store.SaveReport(ctx, id, *side, in.Report, in.ScreenshotID, confirmBy); err != nil {
			return err
		}
		if err := s.Jobs.Schedule(ctx, AutoConfirm{Match: id}, confirmBy); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionReport, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "report": in.Report})
	})
	return shown(m, a, s.now()), err
}

// Confirm accepts the other side's report (the side that did not report).
func (s *Service) Confirm(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActConfirm, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if err := s.Audit.Record(ctx, a, ActionConfirm, m.TournamentID, matchTarget(m), nil); err != nil {
			return err
		}
		return s.complete(ctx, m, *m.Report, false)
	})
	return shown(m, a, s.now()), err
}

// Dispute refuses the other side's report, with a reason; an organiser
// then rules.
func (s *Service) Dispute(ctx context.Context, a core.Actor, id int64, reason string) (Match, error) {
	reason = strings.TrimSpace(reason)
	m, err := s.change(ctx, a, ActDispute, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if utf8.RuneCountInString(reason) < 3 || utf8.RuneCountInString(reason) > MaxReason {
			return errs.E(errs.Invalid, "Say why you dispute the result (3 to %d characters).", MaxReason)
		}
		if err := s.Store.SetDisputed(ctx, id, reason); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionDispute, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "reason": reason})
	})
	return shown(m, a, s.now()), err
}

// AutoConfirmDue confirms a report nobody answered by its deadline (the
// job); anything else is left alone.
func (s *Service) AutoConfirmDue(ctx context.Context, id int64) error {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		if m.Report == nil || m.ConfirmBy == nil || s.now().Before(*m.ConfirmBy) {
			return nil
		}
		if _, err := s.may(ctx, ActAutoConfirm, core.System, m); err != nil {
			return nil // answered, ruled on, or its season over: nothing to confirm
		}
		if err := s.Audit.Record(ctx, core.System, ActionConfirm, m.TournamentID, matchTarget(m),
			map[string]any{"by": "deadline"}); err != nil {
			return err
		}
		if err := s.complete(ctx, m, *m.Report, false); err != nil {
			return err
		}
		done, err := s.Store.FindMatch(ctx, id)
		if err != nil {
			return err
		}
		return s.emitMatch(ctx, EventMatch, done)
	})
	if errs.KindOf(err) == errs.NotFound {
		return nil // the match is gone: nothing to confirm
	}
	return err
}
