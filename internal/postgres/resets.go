// A season's fixtures reset and archived, and its withdrawn teams.

package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Withdrawn implements matches.Store.
func (s Matches) Withdrawn(ctx context.Context, tournamentID int64) (bracket.Withdrawn, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT letter, withdrawn_rounds FROM teams
		WHERE tournament_id = $1 AND withdrawn_at IS NOT NULL`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := bracket.Withdrawn{}
	for rows.Next() {
		var (
			letter string
			rounds int
		)
		if err := rows.Scan(&letter, &rounds); err != nil {
			return nil, unavailable(err)
		}
		out[letter] = rounds
	}
	return out, unavailable(rows.Err())
}

// WithdrawTeam implements matches.Store.
func (s Matches) WithdrawTeam(ctx context.Context, teamID int64, reason string, rounds int) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE teams SET withdrawn_at = now(), withdrawn_reason = $2, withdrawn_rounds = $3
		WHERE id = $1`, teamID, reason, rounds)
	return unavailable(err)
}

// ResetFixtures implements matches.Store: the archive first (each match
// with its sides, winner, report, proof, lines and thread), then the
// matches go (their lineups, lines, check-ins, proofs and threads with
// them), and the season's format, options and champion; seeds an
// organiser did not set go too, so the next fixtures seed by strength
// as the rosters are then.
func (s Matches) ResetFixtures(ctx context.Context, t tournament.Tournament, by int64, forced bool) (matches.Reset, error) {
	r := matches.Reset{Tournament: t.Name}
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if err := q.QueryRow(ctx, `INSERT INTO fixture_resets (tournament_id, format, options, matches, results, forced, reset_by)
			SELECT tn.id, coalesce(tn.format, ''), tn.format_options,
			       (SELECT count(*) FROM matches WHERE tournament_id = tn.id),
			       (SELECT count(*) FROM matches WHERE tournament_id = tn.id AND status IN ('reported', 'disputed', 'completed')),
			       $2, nullif($3, 0)
			  FROM tournaments tn WHERE tn.id = $1
			RETURNING id, format, options, matches, results, forced, reset_by, reset_at`, t.ID, forced, by).
			Scan(&r.ID, &r.Format, &r.Options, &r.Matches, &r.Results, &r.Forced, &r.By, &r.At); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `INSERT INTO fixture_reset_matches (reset_id, match_id, stage, round_number, slot, team1, team2, winner,
			       status, forfeit, scheduled_at, report, proof, lines, thread_id)
			SELECT $2, m.id, m.stage, m.round_number, m.slot, t1.letter, t2.letter, w.letter, m.status, m.forfeit, m.scheduled_at,
			       m.report, m.proof_image_id,
			       coalesce((SELECT json_agg(json_build_object('user_id', l.user_id, 'team', lt.letter, 'kills', l.kills,
			                                                   'deaths', l.deaths, 'placement', l.placement) ORDER BY lt.letter, l.user_id)
			                   FROM match_lines l JOIN teams lt ON lt.id = l.team_id WHERE l.match_id = m.id), '[]'::json),
			       coalesce((SELECT th.thread_id FROM match_threads th WHERE th.match_id = m.id), '')
			  FROM matches m
			  LEFT JOIN teams t1 ON t1.id = m.team1_id
			  LEFT JOIN teams t2 ON t2.id = m.team2_id
			  LEFT JOIN teams w ON w.id = m.winner_id
			 WHERE m.tournament_id = $1`, t.ID, r.ID); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM matches WHERE tournament_id = $1`, t.ID); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `UPDATE tournaments SET format = NULL, format_options = '{}', champion_team_id = NULL
			WHERE id = $1`, t.ID); err != nil {
			return err
		}
		if t.SeedsByHand {
			return nil
		}
		_, err := q.Exec(ctx, `UPDATE teams SET seed = NULL WHERE tournament_id = $1`, t.ID)
		return err
	})
	if err != nil {
		return r, unavailable(err)
	}
	fixtures, err := s.archived(ctx, []int64{r.ID})
	r.Fixtures = fixtures[r.ID]
	return r, err
}

// Resets implements matches.Store.
func (s Matches) Resets(ctx context.Context, tournamentID int64) ([]matches.Reset, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT r.id, tn.name, r.format, r.options, r.matches, r.results, r.forced, r.reset_by, r.reset_at
		FROM fixture_resets r JOIN tournaments tn ON tn.id = r.tournament_id
		WHERE r.tournament_id = $1 ORDER BY r.id DESC`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (matches.Reset, error) {
		var r matches.Reset
		return r, row.Scan(&r.ID, &r.Tournament, &r.Format, &r.Options, &r.Matches, &r.Results, &r.Forced, &r.By, &r.At)
	})
	if err != nil {
		return nil, unavailable(err)
	}
	ids := make([]int64, len(out))
	for i, r := range out {
		ids[i] = r.ID
	}
	fixtures, err := s.archived(ctx, ids)
	for i := range out {
		out[i].Fixtures = fixtures[out[i].ID]
	}
	if out == nil {
		out = []matches.Reset{}
	}
	return out, err
}

// archived reads the fixtures of resets, by reset, in the bracket's order.
func (s Matches) archived(ctx context.Context, resets []int64) (map[int64][]matches.ArchivedMatch, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT m.reset_id, m.match_id, m.stage, m.round_number, m.slot, m.team1, m.team2, m.winner,
		       m.status, m.forfeit, m.scheduled_at, m.report, '/api/images/' || m.proof, m.lines, m.thread_id
		  FROM fixture_reset_matches m WHERE m.reset_id = ANY($1)`+matchOrder, resets)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	out := map[int64][]matches.ArchivedMatch{}
	for rows.Next() {
		var (
			reset int64
			m     matches.ArchivedMatch
			lines []byte
		)
		if err := rows.Scan(&reset, &m.ID, &m.Stage, &m.Round, &m.Slot, &m.Team1, &m.Team2, &m.Winner, &m.Status, &m.Forfeit,
			&m.ScheduledAt, &m.Report, &m.Proof, &lines, &m.ThreadID); err != nil {
			return nil, unavailable(err)
		}
		if err := json.Unmarshal(lines, &m.Lines); err != nil {
			return nil, err
		}
		out[reset] = append(out[reset], m)
	}
	return out, unavailable(rows.Err())
}
