package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/calendar"
	"github.com/pitlane/pitlane/internal/errs"
)

// Calendar keeps the calendar feeds' generations and lists their matches.
type Calendar struct{ DB *DB }

var _ calendar.Store = Calendar{}

// feedColumn is the calendar_feeds column that names f's owner.
func feedColumn(f calendar.Feed) string {
	if f.Kind == calendar.Team {
		return "team_id"
	}
	return "user_id"
}

// Generation implements calendar.Store.
func (s Calendar) Generation(ctx context.Context, f calendar.Feed) (int, error) {
	gen := 1
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT generation FROM calendar_feeds WHERE `+feedColumn(f)+` = $1`, f.ID).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 1, nil
	}
	return gen, unavailable(err)
}

// Reset implements calendar.Store.
func (s Calendar) Reset(ctx context.Context, f calendar.Feed) (int, error) {
	col := feedColumn(f)
	var gen int
	err := s.DB.q(ctx).QueryRow(ctx, fmt.Sprintf(`INSERT INTO calendar_feeds (%[1]s, generation) VALUES ($1, 2)
		ON CONFLICT (%[1]s) WHERE %[1]s IS NOT NULL
		DO UPDATE SET generation = calendar_feeds.generation + 1, reset_at = now() RETURNING generation`, col), f.ID).Scan(&gen)
	return gen, unavailable(err)
}

// Matches implements calendar.Store: a player's are those of every team
// they captain or play for.
func (s Calendar) Matches(ctx context.Context, f calendar.Feed) ([]calendar.Match, error) {
	whose := `m.team1_id = $1 OR m.team2_id = $1`
	if f.Kind == calendar.Player {
		whose = `EXISTS (SELECT 1 FROM teams t WHERE t.id IN (m.team1_id, m.team2_id) AND (t.captain_user_id = $1
			OR EXISTS (SELECT 1 FROM team_players p WHERE p.team_id = t.id AND p.user_id = $1)))`
	}
	rows, err := s.DB.q(ctx).Query(ctx, calendarMatchSQL+` WHERE m.scheduled_at IS NOT NULL AND (`+whose+`)
		 ORDER BY m.scheduled_at, m.id`, f.ID)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (calendar.Match, error) { return scanCalendarMatch(row) })
	return out, unavailable(err)
}

// Match implements calendar.Store: NotFound for a match that does not
// exist or has no time (or no sides) yet.
func (s Calendar) Match(ctx context.Context, id int64) (calendar.Match, error) {
	m, err := scanCalendarMatch(s.DB.q(ctx).QueryRow(ctx, calendarMatchSQL+` WHERE m.id = $1 AND m.scheduled_at IS NOT NULL`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return m, errs.E(errs.NotFound, "Match %d has no time yet.", id)
	}
	return m, unavailable(err)
}

// calendarMatchSQL is a match with both sides, as a calendar lists it.
const calendarMatchSQL = `SELECT m.id, tn.name, m.stage, m.round_number, t1.name, t2.name, m.status,
       coalesce(w.name, ''), m.scheduled_at, m.time_changes, m.updated_at
  FROM matches m
  JOIN tournaments tn ON tn.id = m.tournament_id
  JOIN teams t1 ON t1.id = m.team1_id
  JOIN teams t2 ON t2.id = m.team2_id
  LEFT JOIN teams w ON w.id = m.winner_id`

func scanCalendarMatch(row pgx.Row) (calendar.Match, error) {
	var m calendar.Match
	err := row.Scan(&m.ID, &m.Tournament, &m.Stage, &m.Round, &m.Home, &m.Away, &m.Status, &m.Winner, &m.At, &m.Changes, &m.Modified)
	return m, err
}

const calendarTeamSQL = `SELECT t.id, t.tournament_id, tn.name, t.letter, t.name,
       array_remove(array_prepend(t.captain_user_id, array(SELECT p.user_id FROM team_players p WHERE p.team_id = t.id)), NULL)
  FROM teams t JOIN tournaments tn ON tn.id = t.tournament_id`

// Team implements calendar.Store.
func (s Calendar) Team(ctx context.Context, tournament, letter string) (calendar.TeamInfo, error) {
	return scanCalendarTeam(s.DB.q(ctx).QueryRow(ctx, calendarTeamSQL+` WHERE tn.name = $1 AND t.letter = $2`, tournament, letter))
}

// TeamByID implements calendar.Store.
func (s Calendar) TeamByID(ctx context.Context, id int64) (calendar.TeamInfo, error) {
	return scanCalendarTeam(s.DB.q(ctx).QueryRow(ctx, calendarTeamSQL+` WHERE t.id = $1`, id))
}

func scanCalendarTeam(row pgx.Row) (calendar.TeamInfo, error) {
	var t calendar.TeamInfo
	err := row.Scan(&t.ID, &t.TournamentID, &t.Tournament, &t.Letter, &t.Name, &t.Members)
	return t, unavailable(notFound(err, "Team not found"))
}
