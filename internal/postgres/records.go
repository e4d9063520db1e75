package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/records"
)

// Records is the PostgreSQL store of records.Store. Its queries select no
// e-mail, by design.
type Records struct{ DB *DB }

var _ records.Store = Records{}

// img is the URL of the image whose id is in col, or NULL.
func img(col string) string {
	return strings.ReplaceAll(`CASE WHEN %s IS NULL THEN NULL ELSE '/api/images/' || %s END`, "%s", col)
}

// isPlayer tells whether account u is a player: it saved its stats or is
// on a season's list. An organiser who never played is no player, and
// neither is an account that never saved its stats.
const isPlayer = `(EXISTS (SELECT 1 FROM stats WHERE user_id = u.id) OR EXISTS (SELECT 1 FROM registrations WHERE user_id = u.id))`

// Profile implements records.Store.
func (s Records) Profile(ctx context.Context, id int64) (records.Profile, bool, error) {
	p := records.Profile{Details: &records.Details{}}
	var gone bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT u.id, `+shownName+`, u.profile_hidden, u.deleted_at IS NOT NULL, `+isPlayer+`,
		`+img("u.avatar_image_id")+`, `+img("s.cart_image_id")+`, coalesce(u.discord_username, ''), u.discord_verified,
		coalesce(s.description, ''), coalesce(s.level, 0), coalesce(s.kills, 0), coalesce(s.deaths, 0), coalesce(s.games_played, 0),
		coalesce(s.kd, 0)::float8, coalesce(s.category, 4), coalesce(s.verified, false)
		FROM users u LEFT JOIN stats s ON s.user_id = u.id WHERE u.id = $1`, id).
		Scan(&p.ID, &p.Name, &p.Hidden, &gone, &p.Player, &p.Avatar, &p.CartImage, &p.Discord, &p.DiscordVerified, &p.Description,
			&p.Level, &p.Kills, &p.Deaths, &p.GamesPlayed, &p.KD, &p.Tier, &p.StatsVerified)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, false, errs.E(errs.NotFound, "No such player")
	}
	return p, gone, unavailable(err)
}

// historyPoints is how many uploads a profile's chart shows, the latest.
const historyPoints = 120

// profileMatches is how many matches a profile lists, the latest.
const profileMatches = 100

// seasonFigures is each player's figures in each season of $1's, with
// their place in that season's Red Cap race (most kills, then fewest
// deaths).
const seasonFigures = `
WITH lines AS (
	SELECT m.tournament_id, l.user_id, sum(l.kills)::int AS kills, sum(l.deaths)::int AS deaths, count(*)::int AS n
	  FROM match_lines l JOIN matches m ON m.id = l.match_id
	 WHERE m.status = 'completed'
	   AND m.tournament_id IN (SELECT m2.tournament_id FROM match_lines l2 JOIN matches m2 ON m2.id = l2.match_id WHERE l2.user_id = $1)
	 GROUP BY 1, 2)
SELECT tournament_id, kills, deaths, n, rank FROM (
	SELECT *, rank() OVER (PARTITION BY tournament_id ORDER BY kills DESC, deaths) AS rank FROM lines) r
 WHERE user_id = $1`

// ProfileDetail implements records.Store: the history, seasons, matches,
// badges, titles and Red Caps.
func (s Records) ProfileDetail(ctx context.Context, p *records.Profile) error {
	q := s.DB.q(ctx)
	rows, err := q.Query(ctx, `SELECT taken_at, level, kills, deaths, games_played, kd::float8 FROM (
		SELECT * FROM stats_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2) h ORDER BY id`, p.ID, historyPoints)
	if err != nil {
		return unavailable(err)
	}
	if p.History, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Point, error) {
		var pt records.Point
		return pt, r.Scan(&pt.At, &pt.Level, &pt.Kills, &pt.Deaths, &pt.GamesPlayed, &pt.KD)
	}); err != nil {
		return unavailable(err)
	}

	rows, err = q.Query(ctx, `WITH figures AS (`+seasonFigures+`)
		SELECT t.name, coalesce(nullif(t.display_name, ''), t.name), t.season, t.status,
		       te.letter, te.name, coalesce(te.captain_user_id = $1, false), coalesce(tp.substitute, false),
		       coalesce(r.tier, s.category), tp.credits, coalesce(t.champion_team_id = te.id, false),
		       coalesce(f.n, 0), coalesce(f.kills, 0), coalesce(f.deaths, 0), f.rank::int
		  FROM tournaments t
		  LEFT JOIN registrations r ON r.tournament_id = t.id AND r.user_id = $1
		  LEFT JOIN team_players tp ON tp.tournament_id = t.id AND tp.user_id = $1
		  LEFT JOIN teams te ON te.tournament_id = t.id AND (te.id = tp.team_id OR te.captain_user_id = $1)
		  LEFT JOIN figures f ON f.tournament_id = t.id
		  LEFT JOIN stats s ON s.user_id = $1
		 WHERE r.user_id IS NOT NULL OR te.id IS NOT NULL OR f.tournament_id IS NOT NULL
		 ORDER BY t.season DESC NULLS LAST, t.id DESC`, p.ID)
	if err != nil {
		return unavailable(err)
	}
	if p.Seasons, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Season, error) {
		var se records.Season
		var letter, team *string
		err := r.Scan(&se.Tournament, &se.DisplayName, &se.Season, &se.Status, &letter, &team, &se.Captain, &se.Substitute,
			&se.Tier, &se.Price, &se.Champion, &se.Matches, &se.Kills, &se.Deaths, &se.RedCap)
		if letter != nil {
			se.Team = &records.TeamRef{Tournament: se.Tournament, Letter: *letter, Name: *team}
		}
		return se, err
	}); err != nil {
		return unavailable(err)
	}
	for _, se := range p.Seasons {
		if se.Champion && se.Status == "completed" {
			p.Titles++
		}
		if se.RedCap != nil && *se.RedCap == 1 && se.Status == "completed" {
			p.RedCaps++
		}
	}

	rows, err = q.Query(ctx, `SELECT m.id, t.name, m.stage, m.round_number, te.letter, te.name, o.letter, o.name,
		       coalesce(m.winner_id = l.team_id, false), l.kills, l.deaths, l.placement, coalesce(m.reported_at, m.scheduled_at)
		  FROM match_lines l JOIN matches m ON m.id = l.match_id JOIN tournaments t ON t.id = m.tournament_id
		  JOIN teams te ON te.id = l.team_id
		  LEFT JOIN teams o ON o.id = CASE WHEN m.team1_id = l.team_id THEN m.team2_id ELSE m.team1_id END
		 WHERE l.user_id = $1
		 ORDER BY coalesce(m.reported_at, m.scheduled_at) DESC NULLS LAST, m.id DESC LIMIT $2`, p.ID, profileMatches)
	if err != nil {
		return unavailable(err)
	}
	if p.Matches, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.MatchLine, error) {
		var ml records.MatchLine
		var oLetter, oName *string
		err := r.Scan(&ml.MatchID, &ml.Tournament, &ml.Stage, &ml.Round, &ml.Team.Letter, &ml.Team.Name, &oLetter, &oName,
			&ml.Won, &ml.Kills, &ml.Deaths, &ml.Placement, &ml.PlayedAt)
		ml.Team.Tournament = ml.Tournament
		if oLetter != nil {
			ml.Opponent = &records.TeamRef{Tournament: ml.Tournament, Letter: *oLetter, Name: *oName}
		}
		return ml, err
	}); err != nil {
		return unavailable(err)
	}

	rows, err = q.Query(ctx, `SELECT b.id, b.name, b.icon, b.color FROM user_badges ub JOIN badges b ON b.id = ub.badge_id
		WHERE ub.user_id = $1 ORDER BY b.id`, p.ID)
	if err != nil {
		return unavailable(err)
	}
	p.Badges, err = pgx.CollectRows(rows, pgx.RowToStructByPos[records.Badge])
	return unavailable(err)
}

// like is q as a LIKE pattern for any part of a lower-cased name.
func like(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(q)) + "%"
}

// SearchPlayers implements records.Store: visible players whose card or
// account name holds q (the trigram indexes answer the LIKE), by id.
func (s Records) SearchPlayers(ctx context.Context, q string, after int64, limit int) ([]records.PlayerCard, error) {
	where := `true`
	args := []any{after, limit}
	if q != "" {
		// Each name by its own trigram index; the few ids found are then
		// read by the primary key.
		where = `u.id = ANY(ARRAY(SELECT user_id FROM stats WHERE lower(player_name) LIKE $3
			UNION SELECT id FROM users WHERE lower(name) LIKE $3 UNION SELECT id FROM users WHERE lower(discord_username) LIKE $3))`
		args = append(args, like(q))
	}
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT u.id, `+shownName+`, `+img("u.avatar_image_id")+`, `+img("s.cart_image_id")+`,
		coalesce(s.category, 4), coalesce(s.kd, 0)::float8
		FROM users u LEFT JOIN stats s ON s.user_id = u.id
		WHERE u.id > $1 AND u.deleted_at IS NULL AND NOT u.profile_hidden AND `+isPlayer+` AND `+where+`
		ORDER BY u.id LIMIT $2`, args...)
	if err != nil {
		return nil, unavailable(err)
	}
	cards, err := pgx.CollectRows(rows, pgx.RowToStructByPos[records.PlayerCard])
	return cards, unavailable(err)
}

// SearchTeams implements records.Store: teams whose name holds q, the
// latest seasons first.
func (s Records) SearchTeams(ctx context.Context, q string, limit int) ([]records.TeamHit, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT t.name, te.letter, te.name, coalesce(nullif(t.display_name, ''), t.name), te.logo
		FROM teams te JOIN tournaments t ON t.id = te.tournament_id
		WHERE lower(te.name) LIKE $1 ORDER BY t.id DESC, te.letter LIMIT $2`, like(q), limit)
	if err != nil {
		return nil, unavailable(err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.TeamHit, error) {
		var h records.TeamHit
		return h, r.Scan(&h.Tournament, &h.Letter, &h.Name, &h.DisplayName, &h.Logo)
	})
	return hits, unavailable(err)
}

// SetHidden implements records.Store. The player's cards change on the
// lists they are on, so those lists' cache versions are raised with it.
func (s Records) SetHidden(ctx context.Context, userID int64, hidden bool) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := tx.Exec(ctx, `UPDATE users SET profile_hidden = $2 WHERE id = $1`, userID, hidden); err != nil {
			return err
		}
		return bumpRosters(ctx, tx, userID)
	}))
}

// Team implements records.Store: the team, its captain and roster with
// the season's figures of each, and its fixtures.
func (s Records) Team(ctx context.Context, tournament, letter string) (records.Team, error) {
	q := s.DB.q(ctx)
	var t records.Team
	var teamID, tournamentID int64
	var captainID *int64
	err := q.QueryRow(ctx, `SELECT te.id, t.id, t.name, te.letter, te.name, coalesce(nullif(t.display_name, ''), t.name), t.status,
		te.logo, coalesce(t.champion_team_id = te.id, false), te.captain_user_id
		FROM teams te JOIN tournaments t ON t.id = te.tournament_id WHERE t.name = $1 AND te.letter = upper($2)`, tournament, letter).
		Scan(&teamID, &tournamentID, &t.Tournament, &t.Letter, &t.Name, &t.DisplayName, &t.Status, &t.Logo, &t.Champion, &captainID)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, errs.E(errs.NotFound, "No team %s in %s", strings.ToUpper(letter), tournament)
	}
	if err != nil {
		return t, unavailable(err)
	}
	rows, err := q.Query(ctx, `WITH members AS (
			SELECT user_id, false AS captain, substitute, credits FROM team_players WHERE team_id = $1
			UNION ALL SELECT captain_user_id, true, false, NULL FROM teams WHERE id = $1 AND captain_user_id IS NOT NULL),
		figures AS (
			SELECT l.user_id, count(*)::int AS n, sum(l.kills)::int AS kills, sum(l.deaths)::int AS deaths
			  FROM match_lines l JOIN matches m ON m.id = l.match_id WHERE l.team_id = $1 AND m.status = 'completed' GROUP BY 1)
		SELECT u.id, `+shownName+`, `+shownImage+`, u.profile_hidden OR u.deleted_at IS NOT NULL, mb.captain, mb.substitute,
		       coalesce(r.tier, s.category), mb.credits, coalesce(f.n, 0), coalesce(f.kills, 0), coalesce(f.deaths, 0)
		  FROM members mb JOIN users u ON u.id = mb.user_id LEFT JOIN stats s ON s.user_id = u.id
		  LEFT JOIN registrations r ON r.tournament_id = $2 AND r.user_id = u.id
		  LEFT JOIN figures f ON f.user_id = u.id
		 ORDER BY mb.captain DESC, mb.substitute, mb.credits DESC NULLS LAST, u.id`, teamID, tournamentID)
	if err != nil {
		return t, unavailable(err)
	}
	members, err := pgx.CollectRows(rows, pgx.RowToStructByPos[records.Member])
	if err != nil {
		return t, unavailable(err)
	}
	core.ShowCards(core.Public, members)
	t.Roster = []records.Member{}
	for i := range members {
		if members[i].Captain {
			t.Captain = &members[i]
			continue
		}
		t.Roster = append(t.Roster, members[i])
	}
	rows, err = q.Query(ctx, `SELECT m.id, m.stage, m.round_number, o.letter, o.name, m.status,
		       CASE WHEN m.winner_id IS NULL THEN NULL ELSE m.winner_id = $1 END,
		       coalesce((SELECT sum(kills) FROM match_lines WHERE match_id = m.id AND team_id = $1), 0)::int,
		       coalesce((SELECT sum(kills) FROM match_lines WHERE match_id = m.id AND team_id = o.id), 0)::int,
		       m.scheduled_at,
		       (SELECT max(c.at) FROM match_checkins c WHERE c.match_id = m.id HAVING count(DISTINCT c.team_id) = 2)
		  FROM matches m LEFT JOIN teams o ON o.id = CASE WHEN m.team1_id = $1 THEN m.team2_id ELSE m.team1_id END
		 WHERE m.team1_id = $1 OR m.team2_id = $1
		 ORDER BY m.round_number, m.stage, m.slot`, teamID)
	if err != nil {
		return t, unavailable(err)
	}
	t.Fixtures, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Fixture, error) {
		var f records.Fixture
		var oLetter, oName *string
		err := r.Scan(&f.ID, &f.Stage, &f.Round, &oLetter, &oName, &f.Status, &f.Won, &f.Kills, &f.OppKills, &f.ScheduledAt, &f.BothIn)
		if oLetter != nil {
			f.Opponent = &records.TeamRef{Tournament: t.Tournament, Letter: *oLetter, Name: *oName}
		}
		return f, err
	})
	return t, unavailable(err)
}

// boardSQL is each leaderboard's query: rows of (id, name, avatar,
// hidden, value, matches) best first, after the keyset ($1 value, $2 id),
// at most $3, players with at least $4 matches.
var boardSQL = map[records.Kind]string{
	records.Kills: `WITH b AS (SELECT l.user_id, sum(l.kills)::float8 AS v, count(*)::int AS n
		FROM match_lines l JOIN matches m ON m.id = l.match_id WHERE m.status = 'completed' GROUP BY 1)`,
	records.KD: `WITH b AS (SELECT l.user_id, round(sum(l.kills)::numeric / greatest(sum(l.deaths), 1), 2)::float8 AS v, count(*)::int AS n
		FROM match_lines l JOIN matches m ON m.id = l.match_id WHERE m.status = 'completed' GROUP BY 1)`,
	records.Titles: `WITH won AS (
			SELECT t.id AS tournament_id, t.champion_team_id AS team_id FROM tournaments t
			 WHERE t.status = 'completed' AND t.champion_team_id IS NOT NULL),
		champions AS (
			SELECT tp.user_id, w.tournament_id FROM won w JOIN team_players tp ON tp.team_id = w.team_id
			UNION SELECT te.captain_user_id, w.tournament_id FROM won w JOIN teams te ON te.id = w.team_id WHERE te.captain_user_id IS NOT NULL),
		b AS (SELECT c.user_id, count(*)::float8 AS v,
			(SELECT count(*) FROM match_lines l WHERE l.user_id = c.user_id)::int AS n FROM champions c GROUP BY 1)`,
	records.RedCaps: `WITH lines AS (
			SELECT m.tournament_id, l.user_id, sum(l.kills) AS kills, sum(l.deaths) AS deaths, count(*) AS n
			  FROM match_lines l JOIN matches m ON m.id = l.match_id JOIN tournaments t ON t.id = m.tournament_id
			 WHERE m.status = 'completed' AND t.status = 'completed' GROUP BY 1, 2),
		ranked AS (SELECT *, rank() OVER (PARTITION BY tournament_id ORDER BY kills DESC, deaths) AS rank FROM lines),
		b AS (SELECT user_id, count(*)::float8 AS v, sum(n)::int AS n FROM ranked WHERE rank = 1 GROUP BY 1)`,
}

const boardRows = `
SELECT u.id, ` + shownName + `, ` + shownImage + `, u.profile_hidden OR u.deleted_at IS NOT NULL, b.v, b.n
  FROM b JOIN users u ON u.id = b.user_id LEFT JOIN stats s ON s.user_id = u.id
 WHERE b.n >= $4 AND ($1::float8 IS NULL OR b.v < $1 OR (b.v = $1 AND u.id > $2))
 ORDER BY b.v DESC, u.id LIMIT $3`

// Board implements records.Store.
func (s Records) Board(ctx context.Context, kind records.Kind, min int, after *paging.Key, limit int) ([]records.Row, error) {
	var v *float64
	var id int64
	if after != nil {
		v, id = &after.Num, after.ID
	}
	if kind == records.Seasons {
		return s.archive(ctx, v, id, limit)
	}
	rows, err := s.DB.q(ctx).Query(ctx, boardSQL[kind]+boardRows, v, id, limit, min)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Row, error) {
		var row records.Row
		return row, r.Scan(&row.ID, &row.Name, &row.Avatar, &row.Hidden, &row.Value, &row.Matches)
	})
	core.ShowCards(core.Public, out)
	return out, unavailable(err)
}

// archive is the season archive: completed seasons, the latest first
// (by season number, then id), each with its champion and Red Cap.
func (s Records) archive(ctx context.Context, after *float64, afterID int64, limit int) ([]records.Row, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `WITH done AS (
			SELECT t.id, t.name, coalesce(nullif(t.display_name, ''), t.name) AS display, t.season,
			       coalesce(t.season, 0)::float8 AS v, t.champion_team_id
			  FROM tournaments t WHERE t.status = 'completed')
		SELECT d.id, d.name, d.display, d.season, d.v, te.letter, te.name,
		       (SELECT count(*) FROM matches m WHERE m.tournament_id = d.id AND m.status = 'completed')::int,
		       coalesce((SELECT `+shownName+` FROM match_lines l JOIN matches m ON m.id = l.match_id
		                   JOIN users u ON u.id = l.user_id LEFT JOIN stats s ON s.user_id = u.id
		                  WHERE m.tournament_id = d.id AND m.status = 'completed'
		                  GROUP BY u.id, s.player_name ORDER BY sum(l.kills) DESC, sum(l.deaths) LIMIT 1), '')
		  FROM done d LEFT JOIN teams te ON te.id = d.champion_team_id
		 WHERE $1::float8 IS NULL OR d.v < $1 OR (d.v = $1 AND d.id > $2)
		 ORDER BY d.v DESC, d.id LIMIT $3`, after, afterID, limit)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Row, error) {
		var row records.Row
		var letter, team *string
		err := r.Scan(&row.ID, &row.Tournament, &row.DisplayName, &row.Season, &row.Value, &letter, &team, &row.Matches, &row.RedCap)
		row.Name = row.DisplayName
		if letter != nil {
			row.Champion = &records.TeamRef{Tournament: row.Tournament, Letter: *letter, Name: *team}
		}
		return row, err
	})
	return out, unavailable(err)
}

// Meetings implements records.Store: the completed matches in which
// players a and b played on opposite sides, latest first (at most 100).
func (s Records) Meetings(ctx context.Context, a, b int64) ([]records.Meeting, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT m.id, t.name, m.round_number, ta.letter, ta.name, tb.letter, tb.name,
		       la.kills, la.deaths, lb.kills, lb.deaths, CASE WHEN m.winner_id IS NULL THEN NULL ELSE m.winner_id = la.team_id END
		  FROM match_lines la
		  JOIN match_lines lb ON lb.match_id = la.match_id AND lb.user_id = $2 AND lb.team_id <> la.team_id
		  JOIN matches m ON m.id = la.match_id JOIN tournaments t ON t.id = m.tournament_id
		  JOIN teams ta ON ta.id = la.team_id JOIN teams tb ON tb.id = lb.team_id
		 WHERE la.user_id = $1 AND m.status = 'completed'
		 ORDER BY m.id DESC LIMIT 100`, a, b)
	if err != nil {
		return nil, unavailable(err)
	}
	ms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (records.Meeting, error) {
		var m records.Meeting
		err := r.Scan(&m.MatchID, &m.Tournament, &m.Round, &m.Team.Letter, &m.Team.Name, &m.Opponent.Letter, &m.Opponent.Name,
			&m.Kills, &m.Deaths, &m.OppKills, &m.OppDeaths, &m.Won)
		m.Team.Tournament, m.Opponent.Tournament = m.Tournament, m.Tournament
		return m, err
	})
	return ms, unavailable(err)
}
