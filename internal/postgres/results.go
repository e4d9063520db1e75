// The completed matches as the tables count them, the champion and the season's badges.

package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/matches"
)

// Complete implements matches.Store.
func (s Matches) Complete(ctx context.Context, m matches.Match, winner matches.TeamRef, lines []matches.PlayerLine, forfeit bool) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		report := matches.Report{Winner: winner.ID, Players: lines}
		if report.Players == nil {
			report.Players = []matches.PlayerLine{}
		}
		if _, err := q.Exec(ctx, `UPDATE matches SET status = 'completed', winner_id = $2, forfeit = $3, report = $4,
			confirm_by = NULL, updated_at = now() WHERE id = $1`, m.ID, winner.DBID, forfeit, report); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM match_lines WHERE match_id = $1`, m.ID); err != nil {
			return err
		}
		for _, l := range lines {
			side := m.Side(l.Team)
			if _, err := q.Exec(ctx, `INSERT INTO match_lines (match_id, team_id, user_id, kills, deaths, placement)
				VALUES ($1, $2, $3, $4, $5, $6)`, m.ID, side.DBID, l.UserID, l.Kills, l.Deaths, l.Placement); err != nil {
				return err
			}
		}
		place := func(match *int64, side int, team *matches.TeamRef) error {
			if match == nil || team == nil {
				return nil
			}
			column := "team1_id"
			if side == 2 {
				column = "team2_id"
			}
			_, err := q.Exec(ctx, `UPDATE matches SET `+column+` = $2, updated_at = now() WHERE id = $1`, *match, team.DBID)
			return err
		}
		if err := place(m.NextMatch, m.NextSide, &winner); err != nil {
			return err
		}
		return place(m.LoserMatch, m.LoserSide, m.Other(winner.ID))
	})
}

// Results implements matches.Store.
func (s Matches) Results(ctx context.Context, tournamentID int64, stage string) ([]bracket.Result, error) {
	q := s.DB.q(ctx)
	rows, err := q.Query(ctx, `SELECT m.id, t1.letter, t2.letter, w.letter, m.forfeit FROM matches m
		JOIN teams t1 ON t1.id = m.team1_id JOIN teams t2 ON t2.id = m.team2_id JOIN teams w ON w.id = m.winner_id
		WHERE m.tournament_id = $1 AND m.status = 'completed' AND ($2 = '' OR m.stage = $2) ORDER BY m.id`, tournamentID, stage)
	if err != nil {
		return nil, unavailable(err)
	}
	var (
		out   []bracket.Result
		index = map[int64]int{}
	)
	for rows.Next() {
		var (
			id int64
			r  bracket.Result
		)
		if err := rows.Scan(&id, &r.Home, &r.Away, &r.Winner, &r.Forfeit); err != nil {
			rows.Close()
			return nil, err
		}
		index[id] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(err)
	}
	rows, err = q.Query(ctx, `SELECT l.match_id, l.user_id, t.letter, l.kills, l.deaths, l.placement FROM match_lines l
		JOIN matches m ON m.id = l.match_id JOIN teams t ON t.id = l.team_id
		WHERE m.tournament_id = $1 AND m.status = 'completed' ORDER BY l.match_id, l.user_id`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			matchID int64
			l       bracket.Line
		)
		if err := rows.Scan(&matchID, &l.UserID, &l.Team, &l.Kills, &l.Deaths, &l.Placement); err != nil {
			return nil, err
		}
		if i, ok := index[matchID]; ok {
			out[i].Lines = append(out[i].Lines, l)
		}
	}
	return out, unavailable(rows.Err())
}

// Names implements matches.Store: the card names of users.
func (s Matches) Names(ctx context.Context, ids []int64) (map[int64]string, error) {
	return idStrings(s.DB.q(ctx).Query(ctx, `SELECT u.id, `+shownName+` FROM users u LEFT JOIN stats s ON s.user_id = u.id
		WHERE u.id = ANY($1)`, ids))
}

// Teams implements matches.Store.
func (s Matches) Teams(ctx context.Context, tournamentID int64) (map[string]matches.TeamRef, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT id, letter, name FROM teams WHERE tournament_id = $1`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := map[string]matches.TeamRef{}
	for rows.Next() {
		var t matches.TeamRef
		if err := rows.Scan(&t.DBID, &t.ID, &t.Name); err != nil {
			return nil, err
		}
		out[t.ID] = t
	}
	return out, unavailable(rows.Err())
}

// SetChampion implements matches.Store.
func (s Matches) SetChampion(ctx context.Context, tournamentID int64, team *matches.TeamRef) error {
	var id *int64
	if team != nil {
		id = &team.DBID
	}
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE tournaments SET champion_team_id = $2 WHERE id = $1`, tournamentID, id)
	return unavailable(err)
}

// Champion implements matches.Store.
func (s Matches) Champion(ctx context.Context, tournamentID int64) (*matches.TeamRef, error) {
	var t matches.TeamRef
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT c.id, c.letter, c.name FROM tournaments tr JOIN teams c ON c.id = tr.champion_team_id
		WHERE tr.id = $1`, tournamentID).Scan(&t.DBID, &t.ID, &t.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return &t, nil
}

// Award implements matches.Store; the winners' cards change, so their
// lists' cache versions are raised too.
func (s Matches) Award(ctx context.Context, badge, icon, color string, userIDs []int64) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `INSERT INTO badges (name, icon, color) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
			badge, icon, color); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `INSERT INTO user_badges (user_id, badge_id)
			SELECT unnest($1::bigint[]), id FROM badges WHERE name = $2 ON CONFLICT DO NOTHING`, userIDs, badge); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1
			WHERE id IN (SELECT tournament_id FROM registrations WHERE user_id = ANY($1))`, userIDs)
		return err
	})
}

// TeamMembers implements matches.Store.
func (s Matches) TeamMembers(ctx context.Context, teamID int64) ([]matches.Member, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT u.id, `+shownName+` FROM teams t
		JOIN LATERAL (SELECT t.captain_user_id AS uid UNION ALL SELECT tp.user_id FROM team_players tp WHERE tp.team_id = t.id) m
		  ON m.uid IS NOT NULL
		JOIN users u ON u.id = m.uid LEFT JOIN stats s ON s.user_id = u.id WHERE t.id = $1`, teamID)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (matches.Member, error) {
		var p matches.Member
		return p, row.Scan(&p.UserID, &p.Name)
	})
	return out, unavailable(err)
}
