package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/matches"
)

// Matches is the PostgreSQL store of matches.Store.
type Matches struct{ DB *DB }

var _ matches.Store = Matches{}

// membersSQL lists who plays for each team of a tournament: its captain,
// the players it bought, then its substitutes.
const membersSQL = `
SELECT t.letter, u.id, ` + shownName + `, m.o = 2
  FROM teams t
  JOIN LATERAL (SELECT t.captain_user_id AS uid, 0 AS o UNION ALL
                SELECT tp.user_id, CASE WHEN tp.substitute THEN 2 ELSE 1 END FROM team_players tp WHERE tp.team_id = t.id) m
    ON m.uid IS NOT NULL
  JOIN users u ON u.id = m.uid
  LEFT JOIN stats s ON s.user_id = u.id
 WHERE t.tournament_id = $1
 ORDER BY t.letter, m.o, u.id`

// SeedTeams implements matches.Store.
func (s Matches) SeedTeams(ctx context.Context, tournamentID int64) ([]matches.SeededTeam, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `
		SELECT t.id, t.letter, t.name, round(coalesce(avg(s.kd), 0), 2)::float8, coalesce(sum(s.games_played), 0),
		       t.withdrawn_at IS NOT NULL
		  FROM teams t
		  JOIN LATERAL (SELECT t.captain_user_id AS uid UNION ALL
		                SELECT tp.user_id FROM team_players tp WHERE tp.team_id = t.id AND NOT tp.substitute) m ON true
		  LEFT JOIN stats s ON s.user_id = m.uid
		 WHERE t.tournament_id = $1 AND t.captain_user_id IS NOT NULL
		 GROUP BY t.id ORDER BY t.seed NULLS LAST, 4 DESC, 5 DESC, t.letter`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	i := 0
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (matches.SeededTeam, error) {
		var (
			st    matches.SeededTeam
			games int
		)
		i++
		st.Seed = i
		return st, row.Scan(&st.Team.DBID, &st.Team.ID, &st.Team.Name, &st.Strength, &games, &st.Withdrawn)
	})
	if out == nil {
		out = []matches.SeededTeam{}
	}
	return out, unavailable(err)
}

// SetSeeds implements matches.Store: one statement, so the seeds are
// checked unique once they are all set.
func (s Matches) SetSeeds(ctx context.Context, tournamentID int64, order []string, byHand bool) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `UPDATE teams t SET seed = o.seed
			  FROM teams x LEFT JOIN unnest($2::text[]) WITH ORDINALITY AS o(letter, seed) ON o.letter = x.letter
			 WHERE x.id = t.id AND t.tournament_id = $1`, tournamentID, order); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `UPDATE tournaments SET seeds_by_hand = $2 WHERE id = $1`, tournamentID, byHand)
		return err
	}))
}

// CreateMatches implements matches.Store.
func (s Matches) CreateMatches(ctx context.Context, tournamentID int64, fx []bracket.Match, seeds map[int]matches.TeamRef) ([]int64, error) {
	ids := make([]int64, len(fx))
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		team := func(seed int) *int64 {
			if t, ok := seeds[seed]; ok && seed > 0 {
				return &t.DBID
			}
			return nil
		}
		for i, m := range fx {
			if err := q.QueryRow(ctx, `INSERT INTO matches (tournament_id, stage, round_number, slot, team1_id, team2_id)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, tournamentID, m.Stage, m.Round, m.Slot,
				team(m.Home), team(m.Away)).Scan(&ids[i]); err != nil {
				return err
			}
		}
		for i, m := range fx {
			if m.Next >= 0 {
				if _, err := q.Exec(ctx, `UPDATE matches SET next_match_id = $2, next_side = $3 WHERE id = $1`,
					ids[i], ids[m.Next], m.Side); err != nil {
					return err
				}
			}
			if m.LoserSide > 0 {
				if _, err := q.Exec(ctx, `UPDATE matches SET loser_match_id = $2, loser_side = $3 WHERE id = $1`,
					ids[i], ids[m.LoserNext], m.LoserSide); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return ids, unavailable(err)
}

// DeleteMatch implements matches.Store.
func (s Matches) DeleteMatch(ctx context.Context, id int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `DELETE FROM matches WHERE id = $1`, id)
	return unavailable(err)
}

// SetFormat implements matches.Store.
func (s Matches) SetFormat(ctx context.Context, tournamentID int64, format string, o bracket.Options) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE tournaments SET format = $2, format_options = $3 WHERE id = $1`, tournamentID, format, o)
	return unavailable(err)
}

const matchSQL = `
SELECT m.id, m.tournament_id, m.stage, m.round_number, m.slot,
       t1.id, t1.letter, t1.name, t2.id, t2.letter, t2.name, w.letter,
       m.status, m.scheduled_at, m.room, m.next_match_id, coalesce(m.next_side, 0), rb.letter, m.reported_at,
       m.report, '/api/images/' || m.proof_image_id, m.dispute_reason, m.confirm_by, m.forfeit, m.updated_at, tn.name, tn.status,
       m.loser_match_id, coalesce(m.loser_side, 0),
       coalesce((SELECT json_object_agg(ct.letter, c.at) FROM match_checkins c JOIN teams ct ON ct.id = c.team_id
                  WHERE c.match_id = m.id), '{}'::json),
       pb.letter, m.proposed_times
  FROM matches m
  JOIN tournaments tn ON tn.id = m.tournament_id
  LEFT JOIN teams t1 ON t1.id = m.team1_id
  LEFT JOIN teams t2 ON t2.id = m.team2_id
  LEFT JOIN teams w ON w.id = m.winner_id
  LEFT JOIN teams rb ON rb.id = m.reported_by
  LEFT JOIN teams pb ON pb.id = m.proposed_by`

func scanMatch(row pgx.Row) (matches.Match, error) {
	var (
		m          matches.Match
		t1ID, t2ID *int64
		t1L, t1N   *string
		t2L, t2N   *string
		report     *matches.Report
		proposedBy *string
		proposed   []time.Time
	)
	err := row.Scan(&m.ID, &m.TournamentID, &m.Stage, &m.Round, &m.Slot, &t1ID, &t1L, &t1N, &t2ID, &t2L, &t2N, &m.Winner,
		&m.Status, &m.ScheduledAt, &m.Room, &m.NextMatch, &m.NextSide, &m.ReportedBy, &m.ReportedAt,
		&report, &m.Proof, &m.Dispute, &m.ConfirmBy, &m.Forfeit, &m.UpdatedAt, &m.Tournament, &m.Season,
		&m.LoserMatch, &m.LoserSide, &m.CheckedIn, &proposedBy, &proposed)
	if proposedBy != nil && len(proposed) > 0 {
		for i := range proposed {
			proposed[i] = proposed[i].UTC()
		}
		m.Proposal = &matches.Proposal{By: *proposedBy, Times: proposed}
	}
	m.Bracket = bracket.BracketOf(m.Stage)
	if m.ScheduledAt != nil {
		opens := m.ScheduledAt.Add(-matches.CheckinBefore)
		m.CheckinOpensAt = &opens
	}
	if t1ID != nil {
		m.Team1 = &matches.TeamRef{DBID: *t1ID, ID: *t1L, Name: *t1N}
	}
	if t2ID != nil {
		m.Team2 = &matches.TeamRef{DBID: *t2ID, ID: *t2L, Name: *t2N}
	}
	m.Report = report
	m.Lineups, m.Members = map[string][]matches.Member{}, map[string][]matches.Member{}
	return m, err
}

// withPeople fills the matches' lineups and their teams' members.
func (s Matches) withPeople(ctx context.Context, tournamentID int64, ms []matches.Match) error {
	q := s.DB.q(ctx)
	rows, err := q.Query(ctx, membersSQL, tournamentID)
	if err != nil {
		return err
	}
	members := map[string][]matches.Member{}
	for rows.Next() {
		var (
			letter string
			p      matches.Member
		)
		if err := rows.Scan(&letter, &p.UserID, &p.Name, &p.Substitute); err != nil {
			rows.Close()
			return err
		}
		members[letter] = append(members[letter], p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	ids := make([]int64, len(ms))
	index := map[int64]int{}
	for i, m := range ms {
		ids[i], index[m.ID] = m.ID, i
		for _, side := range m.Sides() {
			ms[i].Members[side.ID] = members[side.ID]
		}
	}
	rows, err = q.Query(ctx, `SELECT l.match_id, t.letter, u.id, `+shownName+`
		FROM match_lineups l JOIN teams t ON t.id = l.team_id JOIN users u ON u.id = l.user_id
		LEFT JOIN stats s ON s.user_id = u.id WHERE l.match_id = ANY($1) ORDER BY l.match_id, t.letter, u.id`, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			matchID int64
			letter  string
			p       matches.Member
		)
		if err := rows.Scan(&matchID, &letter, &p.UserID, &p.Name); err != nil {
			return err
		}
		i := index[matchID]
		ms[i].Lineups[letter] = append(ms[i].Lineups[letter], p)
	}
	return rows.Err()
}

// matchOrder lists a tournament's matches by round (a Swiss stage's before
// its top cut's, a league's before its play-offs'), a double elimination's
// winners bracket before its losers bracket and its grand final.
const matchOrder = ` ORDER BY CASE m.stage WHEN 'losers' THEN 1 WHEN 'grand_final' THEN 2 ELSE 0 END, m.round_number, m.stage, m.slot`

// Matches implements matches.Store, in matchOrder.
func (s Matches) Matches(ctx context.Context, tournamentID int64) ([]matches.Match, error) {
	rows, err := s.DB.q(ctx).Query(ctx, matchSQL+` WHERE m.tournament_id = $1`+matchOrder, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	ms, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (matches.Match, error) { return scanMatch(row) })
	if err != nil {
		return nil, unavailable(err)
	}
	if ms == nil {
		ms = []matches.Match{}
	}
	return ms, unavailable(s.withPeople(ctx, tournamentID, ms))
}

// FindMatch implements matches.Store.
func (s Matches) FindMatch(ctx context.Context, id int64) (matches.Match, error) {
	m, err := scanMatch(s.DB.q(ctx).QueryRow(ctx, matchSQL+` WHERE m.id = $1`, id))
	if err != nil {
		return m, unavailable(notFound(err, "Match not found"))
	}
	ms := []matches.Match{m}
	err = s.withPeople(ctx, m.TournamentID, ms)
	return ms[0], unavailable(err)
}

// LockMatch implements matches.Store: the lock alone, then a fresh read.
func (s Matches) LockMatch(ctx context.Context, id int64) (matches.Match, error) {
	if _, err := s.DB.q(ctx).Exec(ctx, `SELECT 1 FROM matches WHERE id = $1 FOR UPDATE`, id); err != nil {
		return matches.Match{}, unavailable(err)
	}
	return s.FindMatch(ctx, id)
}

// SetRoom implements matches.Store: the match is live.
func (s Matches) SetRoom(ctx context.Context, id int64, room string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE matches SET room = $2, status = 'live', updated_at = now() WHERE id = $1`, id, room)
	return unavailable(err)
}

// SetTime implements matches.Store.
func (s Matches) SetTime(ctx context.Context, id int64, at *time.Time) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `DELETE FROM match_checkins c USING matches m
			WHERE c.match_id = $1 AND m.id = c.match_id AND m.scheduled_at IS DISTINCT FROM $2`, id, at); err != nil {
			return err
		}
		// A time set clears the proposal it answers; a time changed counts
		// for the calendar feeds (an event's SEQUENCE).
		_, err := q.Exec(ctx, `UPDATE matches SET scheduled_at = $2, proposed_by = NULL, proposed_times = '{}',
			time_changes = time_changes + (scheduled_at IS DISTINCT FROM $2)::int,
			time_changed_at = CASE WHEN scheduled_at IS DISTINCT FROM $2 THEN now() ELSE time_changed_at END,
			updated_at = now() WHERE id = $1`, id, at)
		return err
	}))
}

// Propose implements matches.Store.
func (s Matches) Propose(ctx context.Context, id int64, side matches.TeamRef, times []time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE matches SET proposed_by = $2, proposed_times = $3, updated_at = now() WHERE id = $1`,
		id, side.DBID, times)
	return unavailable(err)
}

// CheckIn implements matches.Store.
func (s Matches) CheckIn(ctx context.Context, id int64, side matches.TeamRef, userID int64) (bool, error) {
	var checked bool
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		tag, err := q.Exec(ctx, `INSERT INTO match_checkins (match_id, team_id, user_id) VALUES ($1, $2, nullif($3, 0))
			ON CONFLICT DO NOTHING`, id, side.DBID, userID)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		checked = true
		_, err = q.Exec(ctx, `UPDATE matches SET updated_at = now() WHERE id = $1`, id)
		return err
	})
	return checked, unavailable(err)
}

// SetLineup implements matches.Store.
func (s Matches) SetLineup(ctx context.Context, id int64, team matches.TeamRef, userIDs []int64) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `DELETE FROM match_lineups WHERE match_id = $1 AND team_id = $2`, id, team.DBID); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `INSERT INTO match_lineups (match_id, team_id, user_id) SELECT $1, $2, unnest($3::bigint[])`,
			id, team.DBID, userIDs); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `UPDATE matches SET updated_at = now() WHERE id = $1`, id)
		return err
	})
}

// SaveReport implements matches.Store.
func (s Matches) SaveReport(ctx context.Context, id int64, by matches.TeamRef, r matches.Report, proof string, confirmBy time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE matches SET status = 'reported', reported_by = $2, reported_at = now(), report = $3,
		proof_image_id = $4, confirm_by = $5, dispute_reason = '', updated_at = now() WHERE id = $1`, id, by.DBID, r, proof, confirmBy)
	return unavailable(err)
}

// SetDisputed implements matches.Store.
func (s Matches) SetDisputed(ctx context.Context, id int64, reason string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE matches SET status = 'disputed', dispute_reason = $2, confirm_by = NULL,
		updated_at = now() WHERE id = $1`, id, reason)
	return unavailable(err)
}

// LockPhase implements matches.Store.
func (s Matches) LockPhase(ctx context.Context, tournamentID int64) (string, error) {
	return Auction(s).LockPhase(ctx, tournamentID)
}
