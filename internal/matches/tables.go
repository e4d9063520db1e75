// The Points Table and the Red Cap, from the completed results.

package matches

import (
	"context"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/tournament"
)

// TableRow is a Points Table row with the team's name.
type TableRow struct {
	bracket.Row
	TeamRef TeamRef `json:"-"`
	Name    string  `json:"name"`
	// Withdrawn: the team withdrew; it keeps what it won, plays no more.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// Table is the Points Table and the Red Cap at one moment.
type Table struct {
	Tournament string          `json:"tournament"`
	Seq        int64           `json:"seq"`
	Stage      string          `json:"stage"` // the matches it counts: "league", or "all"
	Scoring    bracket.Scoring `json:"scoring"`
	TieBreak   []string        `json:"tie_break"`
	Rows       []TableRow      `json:"rows"`
}

// RedCapRow is a Red Cap row with the player's name.
type RedCapRow struct {
	bracket.Killer
	Name     string `json:"name"`
	TeamName string `json:"team_name"`
}

// RedCap is the top-killer race at one moment.
type RedCap struct {
	Tournament string      `json:"tournament"`
	Seq        int64       `json:"seq"`
	Rows       []RedCapRow `json:"rows"`
}

func (s *Service) standings(ctx context.Context, t tournament.Tournament) (Table, error) {
	tab := Table{Tournament: t.Name, Scoring: t.Scoring, TieBreak: bracket.TieBreak, Stage: bracket.StageLeague, Rows: []TableRow{}}
	switch t.Format {
	case bracket.SingleElimination, bracket.DoubleElimination:
		tab.Stage = "all"
	case bracket.Swiss:
		return s.swissTable(ctx, t, tab)
	}
	stage := tab.Stage
	if stage == "all" {
		stage = ""
	}
	results, err := s.Store.Results(ctx, t.ID, stage)
	if err != nil {
		return tab, err
	}
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	seeds, err := s.fixtureTeams(ctx, t, all)
	if err != nil {
		return tab, err
	}
	refs, err := s.Store.Teams(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	out, err := s.Store.Withdrawn(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	var letters []string // the teams in the fixtures, played or not
	for _, st := range seeds {
		letters = append(letters, st.Team.ID)
	}
	for _, row := range bracket.Standings(letters, results, t.Scoring) {
		tab.Rows = append(tab.Rows, TableRow{Row: row, TeamRef: refs[row.Team], Name: refs[row.Team].Name, Withdrawn: out.Out(row.Team)})
	}
	return tab, nil
}

// swissTable is a Swiss stage's standings as the Points Table: a win or a
// bye a point, ties by Buchholz, then kill difference, then seed.
func (s *Service) swissTable(ctx context.Context, t tournament.Tournament, tab Table) (Table, error) {
	tab.Stage, tab.Scoring, tab.TieBreak = bracket.StageSwiss, bracket.SwissScoring, bracket.SwissTieBreak
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	st, err := s.swissStage(ctx, t, all)
	if err != nil {
		return tab, err
	}
	refs := map[string]TeamRef{}
	for _, ref := range st.bySeed {
		refs[ref.ID] = ref
	}
	for _, row := range bracket.SwissStandings(st.teams, st.rounds, st.results, st.out) {
		tab.Rows = append(tab.Rows, TableRow{Row: row, TeamRef: refs[row.Team], Name: refs[row.Team].Name, Withdrawn: st.out.Out(row.Team)})
	}
	return tab, nil
}

func (s *Service) redCap(ctx context.Context, t tournament.Tournament) (RedCap, error) {
	rc := RedCap{Tournament: t.Name, Rows: []RedCapRow{}}
	results, err := s.Store.Results(ctx, t.ID, "")
	if err != nil {
		return rc, err
	}
	killers := bracket.RedCap(results)
	ids := make([]int64, len(killers))
	for i, k := range killers {
		ids[i] = k.UserID
	}
	names, err := s.Store.Names(ctx, ids)
	if err != nil {
		return rc, err
	}
	teams, err := s.Store.Teams(ctx, t.ID)
	if err != nil {
		return rc, err
	}
	for _, k := range killers {
		rc.Rows = append(rc.Rows, RedCapRow{Killer: k, Name: names[k.UserID], TeamName: teams[k.Team].Name})
	}
	return rc, nil
}

func (s *Service) emitStandings(ctx context.Context, t tournament.Tournament) error {
	tab, err := s.standings(ctx, t)
	if err != nil {
		return err
	}
	rc, err := s.redCap(ctx, t)
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicBracket, EventStandings, map[string]any{"tournament": t.Name,
		"standings": tab, "red_cap": rc})
	return err
}

// Standings is the named tournament's Points Table.
func (s *Service) Standings(ctx context.Context, name string) (Table, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Table{}, err
	}
	var tab Table
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if tab, err = s.standings(ctx, t); err != nil {
			return err
		}
		tab.Seq, err = s.Events.Seq(ctx, core.TopicBracket)
		return err
	})
	return tab, err
}

// RedCapOf is the named tournament's Red Cap race.
func (s *Service) RedCapOf(ctx context.Context, name string) (RedCap, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return RedCap{}, err
	}
	var rc RedCap
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if rc, err = s.redCap(ctx, t); err != nil {
			return err
		}
		rc.Seq, err = s.Events.Seq(ctx, core.TopicBracket)
		return err
	})
	return rc, err
}
