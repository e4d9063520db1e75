package postgres

import (
	"context"
	"errors"
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
		SELECT t.id, t.letter, t.name, round(coalesce(avg(s.kd), 0), 2)::float8, coalesce(sum(s.games_played), 0)
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
		return st, row.Scan(&st.Team.DBID, &st.Team.ID, &st.Team.Name, &st.Strength, &games)
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
                  WHERE c.match_id = m.id), '{}'::json)
  FROM matches m
  JOIN tournaments tn ON tn.id = m.tournament_id
  LEFT JOIN teams t1 ON t1.id = m.team1_id
  LEFT JOIN teams t2 ON t2.id = m.team2_id
  LEFT JOIN teams w ON w.id = m.winner_id
  LEFT JOIN teams rb ON rb.id = m.reported_by`

func scanMatch(row pgx.Row) (matches.Match, error) {
	var (
		m          matches.Match
		t1ID, t2ID *int64
		t1L, t1N   *string
		t2L, t2N   *string
		report     *matches.Report
	)
	err := row.Scan(&m.ID, &m.TournamentID, &m.Stage, &m.Round, &m.Slot, &t1ID, &t1L, &t1N, &t2ID, &t2L, &t2N, &m.Winner,
		&m.Status, &m.ScheduledAt, &m.Room, &m.NextMatch, &m.NextSide, &m.ReportedBy, &m.ReportedAt,
		&report, &m.Proof, &m.Dispute, &m.ConfirmBy, &m.Forfeit, &m.UpdatedAt, &m.Tournament, &m.Season,
		&m.LoserMatch, &m.LoserSide, &m.CheckedIn)
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
		_, err := q.Exec(ctx, `UPDATE matches SET scheduled_at = $2, updated_at = now() WHERE id = $1`, id, at)
		return err
	}))
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
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT u.id, `+shownName+` FROM users u LEFT JOIN stats s ON s.user_id = u.id
		WHERE u.id = ANY($1)`, ids)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var (
			id   int64
			name string
		)
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		out[id] = name
	}
	return out, unavailable(rows.Err())
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

// LockPhase implements matches.Store.
func (s Matches) LockPhase(ctx context.Context, tournamentID int64) (string, error) {
	return Auction(s).LockPhase(ctx, tournamentID)
}

// AddProof implements matches.Store; the same image twice is one proof.
func (s Matches) AddProof(ctx context.Context, matchID int64, side matches.TeamRef, userID int64, imageID string) error {
	_, err := s.DB.q(ctx).Exec(ctx, `INSERT INTO match_proofs (match_id, image_id, team_id, uploaded_by)
		VALUES ($1, $2, $3, $4) ON CONFLICT (match_id, image_id) DO NOTHING`, matchID, imageID, side.DBID, userID)
	return unavailable(err)
}

// CountProofs implements matches.Store.
func (s Matches) CountProofs(ctx context.Context, matchID int64, side matches.TeamRef) (int, error) {
	var n int
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FROM match_proofs WHERE match_id = $1 AND team_id = $2`,
		matchID, side.DBID).Scan(&n)
	return n, unavailable(err)
}

// HasProof implements matches.Store.
func (s Matches) HasProof(ctx context.Context, matchID int64, imageID string) (bool, error) {
	var ok bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM match_proofs WHERE match_id = $1 AND image_id = $2)`,
		matchID, imageID).Scan(&ok)
	return ok, unavailable(err)
}

// ImageUses are the columns that hold an image id: an image none of them
// holds may be deleted. TestImageUsesCoverEveryReference keeps the list
// equal to the database's foreign keys to images.
var ImageUses = []struct{ Table, Column string }{
	{"users", "avatar_image_id"},
	{"stats", "cart_image_id"},
	{"matches", "proof_image_id"},
	{"match_proofs", "image_id"},
}

// PruneProofs implements matches.Store.
func (s Matches) PruneProofs(ctx context.Context, before time.Time) (int, error) {
	var n int
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		rows, err := q.Query(ctx, `DELETE FROM match_proofs p WHERE p.uploaded_at < $1
			AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = p.match_id AND m.proof_image_id = p.image_id)
			RETURNING p.image_id`, before)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		n = len(ids)
		unused := `DELETE FROM images i WHERE i.id = ANY($1)`
		for _, u := range ImageUses {
			unused += ` AND NOT EXISTS (SELECT 1 FROM ` + u.Table + ` x WHERE x.` + u.Column + ` = i.id)`
		}
		_, err = q.Exec(ctx, unused, ids)
		return err
	})
	return n, unavailable(err)
}

// SaveImage stores an end-of-match screenshot.
func (s Matches) SaveImage(ctx context.Context, contentType string, data []byte) (string, error) {
	return Images(s).SaveImage(ctx, contentType, data)
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
