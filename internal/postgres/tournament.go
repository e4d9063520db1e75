package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Tournaments is the PostgreSQL store of tournament.Store.
type Tournaments struct{ DB *DB }

var _ tournament.Store = Tournaments{}

// EnsureTournament creates the named tournament, open for registration,
// with its eight teams, unless it exists: DEFAULT_TOURNAMENT may name one
// the migrations did not.
func (s Tournaments) EnsureTournament(ctx context.Context, name string) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `INSERT INTO tournaments (name, scoring) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			name, bracket.DefaultScoring); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `INSERT INTO teams (tournament_id, letter, name)
			SELECT t.id, l, 'Team ' || l FROM tournaments t, unnest(string_to_array('A,B,C,D,E,F,G,H', ',')) AS l
			 WHERE t.name = $1 ON CONFLICT (tournament_id, letter) DO NOTHING`, name)
		return err
	})
}

const tournamentColumns = `id, name, status, purse, coalesce(season, 0), coalesce(format, ''), scoring, created_at, roster_version,
	format_options, seeds_by_hand, coalesce(registration_cap, 0), checkin_opened_at, checkin_deadline, checkin_closed_at,
	display_name, hero, description, starts_on, ends_on, coalesce(banner_image_id, '')`

func scanTournament(row pgx.Row, t *tournament.Tournament) error {
	l := &t.Look
	return row.Scan(&t.ID, &t.Name, &t.Status, &t.Purse, &t.Season, &t.Format, &t.Scoring, &t.CreatedAt, &t.RosterVersion,
		&t.Options, &t.SeedsByHand, &t.Cap, &t.Checkin.OpenedAt, &t.Checkin.Deadline, &t.Checkin.ClosedAt,
		&l.DisplayName, &l.Hero, &l.Description, &l.StartsOn, &l.EndsOn, &l.BannerID)
}

// CreateTournament implements tournament.Store.
func (s Tournaments) CreateTournament(ctx context.Context, in tournament.Tournament) (tournament.Tournament, error) {
	var t tournament.Tournament
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		scoring := in.Scoring
		if scoring == (bracket.Scoring{}) {
			scoring = bracket.DefaultScoring
		}
		err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `INSERT INTO tournaments (name, season, purse, scoring) VALUES ($1, nullif($2, 0), $3, $4)
			RETURNING `+tournamentColumns, in.Name, in.Season, in.Purse, scoring), &t)
		if isUniqueViolation(err) {
			return errs.E(errs.Conflict, "A tournament named %s exists already.", errs.Echo(in.Name))
		}
		if err != nil {
			return err
		}
		return s.EnsureTournament(ctx, t.Name)
	})
	return t, unavailable(err)
}

// Tournaments implements tournament.Store.
func (s Tournaments) Tournaments(ctx context.Context) ([]tournament.Tournament, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT `+tournamentColumns+` FROM tournaments ORDER BY created_at DESC, id DESC`)
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.Tournament, error) {
		var t tournament.Tournament
		return t, scanTournament(row, &t)
	})
	return out, unavailable(err)
}

// FindTournament implements tournament.Store.
func (s Tournaments) FindTournament(ctx context.Context, name string) (tournament.Tournament, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE name = $1`, name), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, tournament.ErrUnknown(name)
	}
	return t, unavailable(err)
}

// FindTournamentByID implements tournament.Store.
func (s Tournaments) FindTournamentByID(ctx context.Context, id int64) (tournament.Tournament, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = $1`, id), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, errs.E(errs.NotFound, "Tournament %d not found", id)
	}
	return t, unavailable(err)
}

// LockForMove implements tournament.Store: the lock, then the facts in
// statements of their own, so they are read after any change that held the
// row before us has committed.
func (s Tournaments) LockForMove(ctx context.Context, id int64) (tournament.Tournament, tournament.Facts, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = $1 FOR UPDATE`, id), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, tournament.Facts{}, errs.E(errs.NotFound, "Tournament %d not found", id)
	} else if err != nil {
		return t, tournament.Facts{}, unavailable(err)
	}
	f, err := s.MoveFacts(ctx, t)
	return t, f, err
}

// MoveFacts implements tournament.Store.
func (s Tournaments) MoveFacts(ctx context.Context, t tournament.Tournament) (tournament.Facts, error) {
	f := tournament.Facts{Checkin: t.Checkin}
	q := s.DB.q(ctx)
	err := q.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM auction_lots WHERE tournament_id = $1 AND status = 'open'),
		(SELECT count(*) FROM auction_lots WHERE tournament_id = $1 AND status = 'sold'),
		(SELECT count(*) FROM matches WHERE tournament_id = $1),
		(SELECT count(*) FROM matches WHERE tournament_id = $1 AND status NOT IN ('completed', 'cancelled')),
		(SELECT champion_team_id IS NOT NULL FROM tournaments WHERE id = $1),
		(SELECT count(*) FROM team_players WHERE tournament_id = $1 AND substitute)`, t.ID).
		Scan(&f.OpenLot, &f.Sales, &f.Fixtures, &f.Unplayed, &f.Champion, &f.Substitutes)
	if err != nil {
		return f, unavailable(err)
	}
	rows, err := q.Query(ctx, `SELECT t.letter, t.captain_user_id IS NOT NULL, t.withdrawn_at IS NOT NULL,
		(SELECT count(*) FROM team_players p WHERE p.team_id = t.id AND NOT p.substitute)
		FROM teams t WHERE t.tournament_id = $1 ORDER BY t.letter`, t.ID)
	if err != nil {
		return f, unavailable(err)
	}
	f.Teams, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.TeamFacts, error) {
		var tf tournament.TeamFacts
		return tf, row.Scan(&tf.Letter, &tf.Captain, &tf.Withdrawn, &tf.Players)
	})
	if err != nil || t.Checkin.ClosedAt == nil {
		return f, unavailable(err)
	}
	rows, err = q.Query(ctx, `SELECT `+shownName+` FROM registrations r JOIN users u ON u.id = r.user_id
		LEFT JOIN stats s ON s.user_id = u.id
		WHERE r.tournament_id = $1 AND r.status = 'confirmed' AND r.checked_in_at IS NULL ORDER BY r.created_at, u.id`, t.ID)
	if err != nil {
		return f, unavailable(err)
	}
	f.NoShows, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return f, unavailable(err)
}

// Register implements tournament.Store. Raising the roster version first
// locks the tournament row, so registrations and a status change are taken
// one at a time (no deadlock, no registration slipping past a close); any
// refusal rolls the raise back.
func (s Tournaments) Register(ctx context.Context, tournamentID, userID int64, status string, at time.Time) error {
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		if _, err := lockOpenRoster(ctx, tx, tournamentID); err != nil {
			return err
		}
		var hasDiscord, hasStats bool
		if err := tx.QueryRow(ctx, `SELECT coalesce(u.discord_username, '') <> '', EXISTS (SELECT 1 FROM stats WHERE user_id = u.id)
			FROM users u WHERE u.id = $1`, userID).Scan(&hasDiscord, &hasStats); err != nil {
			return err
		}
		if !hasDiscord {
			return errs.E(errs.Invalid, tournament.MsgNoDiscord)
		}
		if !hasStats {
			return errs.E(errs.Invalid, tournament.MsgNoStats)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO registrations (tournament_id, user_id, status, waitlisted_at)
			VALUES ($1, $2, $3, CASE WHEN $3 = 'waitlisted' THEN $4::timestamptz END)
			ON CONFLICT DO NOTHING`, tournamentID, userID, status, at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errs.E(errs.Conflict, tournament.MsgAlreadyRegistered)
		}
		return nil
	})
	return unavailable(err)
}

// Unregister implements tournament.Store, locking like Register.
func (s Tournaments) Unregister(ctx context.Context, tournamentID, userID int64) (string, error) {
	var was string
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		tx := s.DB.q(ctx)
		name, err := lockOpenRoster(ctx, tx, tournamentID)
		if err != nil {
			if errs.KindOf(err) == errs.Conflict {
				return errs.E(errs.Conflict, "Registration for %s is closed; ask an organiser to withdraw you.", name)
			}
			return err
		}
		err = tx.QueryRow(ctx, `DELETE FROM registrations WHERE tournament_id = $1 AND user_id = $2 RETURNING status`,
			tournamentID, userID).Scan(&was)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.E(errs.Conflict, tournament.MsgNotRegistered)
		}
		return err
	})
	return was, unavailable(err)
}

// Withdraw implements tournament.Store; the list changes, so its cache
// version is raised with it.
func (s Tournaments) Withdraw(ctx context.Context, tournamentID, userID int64) (string, error) {
	var was string
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if err := raiseRoster(ctx, q, tournamentID); err != nil {
			return err
		}
		err := q.QueryRow(ctx, `DELETE FROM registrations WHERE tournament_id = $1 AND user_id = $2 RETURNING status`,
			tournamentID, userID).Scan(&was)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.E(errs.NotFound, "Player not registered")
		}
		return err
	})
	return was, unavailable(err)
}

// DropUnsold implements tournament.Store.
func (s Tournaments) DropUnsold(ctx context.Context, tournamentID, userID int64) (bool, error) {
	tag, err := s.DB.q(ctx).Exec(ctx, `
		WITH dropped AS (
			DELETE FROM registrations r WHERE r.tournament_id = $1 AND r.user_id = $2
			   AND NOT EXISTS (SELECT 1 FROM team_players tp WHERE tp.tournament_id = $1 AND tp.user_id = $2)
			RETURNING r.tournament_id)
		UPDATE tournaments SET roster_version = roster_version + 1 WHERE id IN (SELECT tournament_id FROM dropped)`,
		tournamentID, userID)
	return tag.RowsAffected() > 0, unavailable(err)
}

// lockOpenRoster raises the roster version (locking the row) and refuses a
// tournament that no longer takes registrations.
func lockOpenRoster(ctx context.Context, tx querier, tournamentID int64) (string, error) {
	var status, name string
	err := tx.QueryRow(ctx, `UPDATE tournaments SET roster_version = roster_version + 1 WHERE id = $1
		RETURNING status, name`, tournamentID).Scan(&status, &name)
	if err != nil {
		return "", err
	}
	if status != tournament.StatusRegistration {
		return name, errs.E(errs.Conflict, "Registration for %s is closed.", name)
	}
	return name, nil
}

// IsRegistered implements tournament.Store.
func (s Tournaments) IsRegistered(ctx context.Context, tournamentID, userID int64) (bool, error) {
	var ok bool
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM registrations WHERE tournament_id = $1 AND user_id = $2)`,
		tournamentID, userID).Scan(&ok)
	return ok, unavailable(err)
}

// playerSQL builds public cards; it selects no e-mail, by design. A
// hidden profile's card is its name and registration (scanPlayer).
const playerSQL = `
SELECT u.id,
       coalesce(nullif(s.player_name, ''), nullif(u.discord_username, ''), nullif(u.name, ''), 'Player'),
       CASE WHEN u.avatar_image_id IS NULL THEN NULL ELSE '/api/images/' || u.avatar_image_id END,
       coalesce(s.sk_id, ''), coalesce(s.kd, 0)::float8, coalesce(s.kills, 0), coalesce(s.deaths, 0),
       coalesce(s.games_played, 0), coalesce(s.level, 0), coalesce(s.description, ''),
       coalesce(u.discord_username, ''), u.discord_verified,
       CASE WHEN s.cart_image_id IS NULL THEN NULL ELSE '/api/images/' || s.cart_image_id END,
       coalesce(r.tier, s.category, 4), coalesce(s.verified, false),
       coalesce((SELECT json_agg(json_build_object('id', b.id, 'name', b.name, 'icon', b.icon, 'color', b.color) ORDER BY b.id)
                   FROM user_badges ub JOIN badges b ON b.id = ub.badge_id WHERE ub.user_id = u.id), '[]'::json),
       r.created_at, r.status, r.checked_in_at, r.waitlisted_at, u.profile_hidden
  FROM registrations r
  JOIN users u ON u.id = r.user_id
  LEFT JOIN stats s ON s.user_id = u.id
 WHERE r.tournament_id = $1`

func scanPlayer(row pgx.Row) (tournament.Player, error) {
	var p tournament.Player
	err := row.Scan(&p.ID, &p.Name, &p.Image, &p.SID, &p.KD, &p.Kills, &p.Deaths, &p.GamesPlayed, &p.Level,
		&p.Description, &p.DiscordID, &p.IsDiscordVerified, &p.CartImage, &p.Category, &p.Verified, &p.Badges, &p.CreatedAt,
		&p.Status, &p.CheckedInAt, &p.WaitlistedAt, &p.Hidden)
	p.Finish()
	core.ShowCard(core.Public, &p)
	return p, err
}

// Registrations implements tournament.Store, oldest registration first.
func (s Tournaments) Registrations(ctx context.Context, tournamentID int64) ([]tournament.Player, error) {
	rows, err := s.DB.q(ctx).Query(ctx, playerSQL+` ORDER BY r.created_at, u.id`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	players := []tournament.Player{}
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, err
		}
		players = append(players, p)
	}
	return players, unavailable(rows.Err())
}

// Cards implements tournament.Store, in the list's order.
func (s Tournaments) Cards(ctx context.Context, tournamentID int64, ids []int64) ([]tournament.Player, error) {
	rows, err := s.DB.q(ctx).Query(ctx, playerSQL+` AND r.user_id = ANY($2) ORDER BY r.created_at, u.id`, tournamentID, ids)
	if err != nil {
		return nil, unavailable(err)
	}
	cards, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tournament.Player, error) { return scanPlayer(row) })
	return cards, unavailable(err)
}

// LockRoster implements tournament.Store.
func (s Tournaments) LockRoster(ctx context.Context, id int64) (tournament.Tournament, tournament.Places, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = $1 FOR UPDATE`, id), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, tournament.Places{}, errs.E(errs.NotFound, "Tournament %d not found", id)
	} else if err != nil {
		return t, tournament.Places{}, unavailable(err)
	}
	places, err := s.Places(ctx, t)
	return t, places, err
}

// Places implements tournament.Store.
func (s Tournaments) Places(ctx context.Context, t tournament.Tournament) (tournament.Places, error) {
	p := tournament.Places{Cap: t.Cap, Checkin: t.Checkin}
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'waitlisted'),
		count(*) FILTER (WHERE checked_in_at IS NOT NULL) FROM registrations WHERE tournament_id = $1`, t.ID).
		Scan(&p.Confirmed, &p.Waitlisted, &p.CheckedIn)
	return p, unavailable(err)
}

// waitlistOrder is the waitlist's order: who joined it first, then who
// registered first.
const waitlistOrder = ` ORDER BY waitlisted_at, created_at, user_id`

// Waiting implements tournament.Store.
func (s Tournaments) Waiting(ctx context.Context, tournamentID int64) ([]int64, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT user_id FROM registrations WHERE tournament_id = $1 AND status = 'waitlisted'`+waitlistOrder,
		tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, unavailable(err)
}

// raiseRoster raises the tournament's roster version: its cached list is
// built again.
func raiseRoster(ctx context.Context, q querier, tournamentID int64) error {
	_, err := q.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1 WHERE id = $1`, tournamentID)
	return err
}

// CheckIn implements tournament.Store.
func (s Tournaments) CheckIn(ctx context.Context, tournamentID, userID int64) (bool, error) {
	var checked bool
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		var before *time.Time
		err := q.QueryRow(ctx, `SELECT checked_in_at FROM registrations WHERE tournament_id = $1 AND user_id = $2 FOR UPDATE`,
			tournamentID, userID).Scan(&before)
		if err != nil {
			return notFound(err, tournament.MsgNotRegistered)
		}
		if before != nil {
			return nil
		}
		if _, err := q.Exec(ctx, `UPDATE registrations SET checked_in_at = now() WHERE tournament_id = $1 AND user_id = $2`,
			tournamentID, userID); err != nil {
			return err
		}
		checked = true
		return raiseRoster(ctx, q, tournamentID)
	})
	return checked, unavailable(err)
}

// Promote implements tournament.Store.
func (s Tournaments) Promote(ctx context.Context, tournamentID, userID int64, checkIn bool) error {
	return unavailable(s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		if _, err := q.Exec(ctx, `UPDATE registrations SET status = 'confirmed', waitlisted_at = NULL,
			checked_in_at = CASE WHEN $3 THEN coalesce(checked_in_at, now()) ELSE checked_in_at END
			WHERE tournament_id = $1 AND user_id = $2`, tournamentID, userID, checkIn); err != nil {
			return err
		}
		return raiseRoster(ctx, q, tournamentID)
	}))
}

// SetCap implements tournament.Store.
func (s Tournaments) SetCap(ctx context.Context, tournamentID int64, limit int) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE tournaments SET registration_cap = nullif($2, 0), roster_version = roster_version + 1
		WHERE id = $1`, tournamentID, limit)
	return unavailable(err)
}

// SetCheckin implements tournament.Store: a window keeps when it opened
// while it stays open.
func (s Tournaments) SetCheckin(ctx context.Context, tournamentID int64, deadline *time.Time) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE tournaments SET checkin_deadline = $2,
		checkin_opened_at = CASE WHEN $2::timestamptz IS NULL THEN NULL
		                         WHEN checkin_deadline IS NULL OR checkin_closed_at IS NOT NULL THEN now()
		                         ELSE checkin_opened_at END,
		checkin_closed_at = NULL, roster_version = roster_version + 1 WHERE id = $1`, tournamentID, deadline)
	return unavailable(err)
}

// CloseCheckin implements tournament.Store: the players dropped join the
// waitlist at the deadline, behind those waiting already.
func (s Tournaments) CloseCheckin(ctx context.Context, tournamentID int64, at time.Time) ([]int64, error) {
	var dropped []int64
	err := s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		rows, err := q.Query(ctx, `UPDATE registrations r SET status = 'waitlisted', waitlisted_at = $2
			 WHERE r.tournament_id = $1 AND r.status = 'confirmed' AND r.checked_in_at IS NULL
			   AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.tournament_id = r.tournament_id AND t.captain_user_id = r.user_id)
			RETURNING r.user_id`, tournamentID, at)
		if err != nil {
			return err
		}
		if dropped, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return err
		}
		_, err = q.Exec(ctx, `UPDATE tournaments SET checkin_closed_at = $2, roster_version = roster_version + 1 WHERE id = $1`,
			tournamentID, at)
		return err
	})
	return dropped, unavailable(err)
}

// RegisteredPlayer implements tournament.Store.
func (s Tournaments) RegisteredPlayer(ctx context.Context, tournamentID, userID int64) (tournament.Player, error) {
	p, err := scanPlayer(s.DB.q(ctx).QueryRow(ctx, playerSQL+` AND r.user_id = $2`, tournamentID, userID))
	return p, unavailable(notFound(err, "Player not registered"))
}

// TournamentsOf implements tournament.Store.
func (s Tournaments) TournamentsOf(ctx context.Context, userID int64) ([]string, error) {
	rows, err := s.DB.q(ctx).Query(ctx, `SELECT t.name FROM registrations r JOIN tournaments t ON t.id = r.tournament_id
		WHERE r.user_id = $1 ORDER BY t.id`, userID)
	if err != nil {
		return nil, unavailable(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return names, unavailable(err)
}

const teamsSQL = `
SELECT t.id, t.letter, t.name, t.logo,
       c.id, coalesce(nullif(cs.player_name, ''), nullif(c.discord_username, ''), c.name),
       CASE WHEN c.avatar_image_id IS NULL THEN NULL ELSE '/api/images/' || c.avatar_image_id END, coalesce(c.profile_hidden, false),
       coalesce((SELECT json_agg(json_build_object(
                    'id', p.id,
                    'name', coalesce(nullif(ps.player_name, ''), nullif(p.discord_username, ''), p.name),
                    'image', CASE WHEN p.avatar_image_id IS NULL THEN NULL ELSE '/api/images/' || p.avatar_image_id END,
                    'credits', tp.credits, 'substitute', tp.substitute, 'hidden', p.profile_hidden) ORDER BY tp.substitute, tp.credits DESC, p.id)
                   FROM team_players tp JOIN users p ON p.id = tp.user_id LEFT JOIN stats ps ON ps.user_id = p.id
                  WHERE tp.team_id = t.id), '[]'::json)
  FROM teams t
  LEFT JOIN users c ON c.id = t.captain_user_id
  LEFT JOIN stats cs ON cs.user_id = c.id
 WHERE t.tournament_id = $1
 ORDER BY t.letter`

// Teams implements tournament.Store.
func (s Tournaments) Teams(ctx context.Context, tournamentID int64) ([]tournament.Team, error) {
	rows, err := s.DB.q(ctx).Query(ctx, teamsSQL, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	teams := []tournament.Team{}
	for rows.Next() {
		var (
			t         tournament.Team
			capID     *int64
			capName   *string
			capAvatar *string
			capHidden bool
		)
		if err := rows.Scan(&t.ID, &t.Letter, &t.Name, &t.Logo, &capID, &capName, &capAvatar, &capHidden, &t.Players); err != nil {
			return nil, err
		}
		if capID != nil {
			t.Captain = &tournament.Captain{ID: *capID, Name: deref(capName), Image: capAvatar, Hidden: capHidden}
			core.ShowCard(core.Public, t.Captain)
		}
		core.ShowCards(core.Public, t.Players)
		for _, p := range t.Players {
			t.Credits += p.Credits
		}
		teams = append(teams, t)
	}
	return teams, unavailable(rows.Err())
}

// SetStatus implements tournament.Store.
func (s Tournaments) SetStatus(ctx context.Context, name, status string) (tournament.Tournament, error) {
	var t tournament.Tournament
	err := scanTournament(s.DB.q(ctx).QueryRow(ctx, `UPDATE tournaments SET status = $2 WHERE name = $1
		RETURNING `+tournamentColumns, name, status), &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, tournament.ErrUnknown(name)
	}
	return t, unavailable(err)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
