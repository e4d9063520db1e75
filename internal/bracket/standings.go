package bracket

import (
	"slices"
	"sort"
)

// Scoring is a tournament's points table.
type Scoring struct {
	Win  int `json:"win"`
	Loss int `json:"loss"`
	// KillsPerPoint gives a point for every so many kills a team makes
	// over the stage (0: kills score nothing).
	KillsPerPoint int `json:"kills_per_point"`
}

// DefaultScoring is the league's table unless an organiser sets another: the
// one place it is written (a new tournament is given it; the web app shows
// what the server says it counts).
// A point for every 50 kills keeps kills a tiebreaker's weight: a 4v4 match
// sees about 20 to 60 kills a team, a win is worth 3.
var DefaultScoring = Scoring{Win: 3, Loss: 0, KillsPerPoint: 50}

// TieBreak is the order the Points Table ranks by, as the page states it.
var TieBreak = []string{"points", "kill difference", "head-to-head", "kills"}

// Line is one player's part in a completed match.
type Line struct {
	UserID    int64  `json:"user_id"`
	Team      string `json:"team"`
	Kills     int    `json:"kills"`
	Deaths    int    `json:"deaths"`
	Placement int    `json:"placement"`
}

// Result is a completed match as the tables count it. A forfeit counts as
// a win and a loss, with no kills.
type Result struct {
	Home, Away, Winner string
	Forfeit            bool
	Lines              []Line
}

func (r Result) loser() string {
	if r.Winner == r.Home {
		return r.Away
	}
	return r.Home
}

// Row is a team's line of the Points Table.
type Row struct {
	Team       string `json:"team"`
	Played     int    `json:"played"`
	Won        int    `json:"won"`
	Lost       int    `json:"lost"`
	Kills      int    `json:"kills"`
	Deaths     int    `json:"deaths"`
	KillDiff   int    `json:"kill_difference"`
	KillPoints int    `json:"kill_points"`
	Points     int    `json:"points"`
	// A Swiss stage's: the rounds the team sat out (each a point), and the
	// sum of the points of the opponents it played.
	Byes     int `json:"byes,omitempty"`
	Buchholz int `json:"buchholz,omitempty"`
}

// Standings ranks teams by results: points (wins, losses and kill points),
// then kill difference, then head-to-head (wins in the matches between the
// teams still level), then kills, then the team's name.
func Standings(teams []string, results []Result, s Scoring) []Row {
	rows := tally(teams, results)
	out := make([]Row, 0, len(rows))
	for _, row := range rows {
		if s.KillsPerPoint > 0 {
			row.KillPoints = row.Kills / s.KillsPerPoint
		}
		row.Points = row.Won*s.Win + row.Lost*s.Loss + row.KillPoints
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		if a.KillDiff != b.KillDiff {
			return a.KillDiff > b.KillDiff
		}
		return a.Team < b.Team
	})
	// Head-to-head, then kills, within each group still level on points
	// and kill difference.
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Points == out[i].Points && out[j].KillDiff == out[i].KillDiff {
			j++
		}
		if j-i > 1 {
			group := out[i:j]
			names := make([]string, len(group))
			for k, row := range group {
				names[k] = row.Team
			}
			h2h := headToHead(names, results)
			sort.SliceStable(group, func(x, y int) bool {
				a, b := group[x], group[y]
				if h2h[a.Team] != h2h[b.Team] {
					return h2h[a.Team] > h2h[b.Team]
				}
				if a.Kills != b.Kills {
					return a.Kills > b.Kills
				}
				return a.Team < b.Team
			})
		}
		i = j
	}
	return out
}

// tally counts each team's matches, wins, losses, kills and deaths in the
// results: every team of teams, and any other a result names.
func tally(teams []string, results []Result) map[string]*Row {
	rows := map[string]*Row{}
	for _, t := range teams {
		rows[t] = &Row{Team: t}
	}
	for _, r := range results {
		for _, t := range []string{r.Home, r.Away} {
			if rows[t] == nil {
				rows[t] = &Row{Team: t}
			}
			rows[t].Played++
		}
		rows[r.Winner].Won++
		rows[r.loser()].Lost++
		for _, l := range r.Lines {
			if row := rows[l.Team]; row != nil {
				row.Kills += l.Kills
				row.Deaths += l.Deaths
			}
		}
	}
	for _, row := range rows {
		row.KillDiff = row.Kills - row.Deaths
	}
	return rows
}

// headToHead counts each team's wins in the matches among teams.
func headToHead(teams []string, results []Result) map[string]int {
	wins := map[string]int{}
	for _, r := range results {
		if slices.Contains(teams, r.Home) && slices.Contains(teams, r.Away) {
			wins[r.Winner]++
		}
	}
	return wins
}

// Killer is a player's line of the Red Cap race.
type Killer struct {
	UserID  int64  `json:"user_id"`
	Team    string `json:"team"`
	Kills   int    `json:"kills"`
	Deaths  int    `json:"deaths"`
	Matches int    `json:"matches"`
}

// RedCap ranks players by kills in the results, ties by fewer deaths (then
// fewer matches, then the player's id, so the order is total).
func RedCap(results []Result) []Killer {
	by := map[int64]*Killer{}
	for _, r := range results {
		for _, l := range r.Lines {
			k := by[l.UserID]
			if k == nil {
				k = &Killer{UserID: l.UserID, Team: l.Team}
				by[l.UserID] = k
			}
			k.Kills += l.Kills
			k.Deaths += l.Deaths
			k.Matches++
		}
	}
	out := make([]Killer, 0, len(by))
	for _, k := range by {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Kills != b.Kills:
			return a.Kills > b.Kills
		case a.Deaths != b.Deaths:
			return a.Deaths < b.Deaths
		case a.Matches != b.Matches:
			return a.Matches < b.Matches
		}
		return a.UserID < b.UserID
	})
	return out
}
