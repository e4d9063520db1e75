package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Auction is the PostgreSQL store of auction.Store.
type Auction struct{ DB *DB }

var _ auction.Store = Auction{}

// Shown names and pictures: a card's name (never an e-mail) for user u with
// stats s, and u's avatar URL.
const (
	shownName  = `coalesce(nullif(s.player_name, ''), nullif(u.discord_username, ''), nullif(u.name, ''), 'Player')`
	shownImage = `CASE WHEN u.avatar_image_id IS NULL THEN NULL ELSE '/api/images/' || u.avatar_image_id END`
	// shownTier is the organiser's tier for registration r, else the stats'.
	shownTier = `coalesce(r.tier, s.category, 4)`
)

// playerRefSQL reads a registered player as the auction shows them (a
// hidden profile's name and tier alone, once scanned).
const playerRefSQL = `
SELECT u.id, ` + shownName + `, ` + shownTier + `, ` + shownImage + `,
       coalesce(s.kd, 0)::float8, coalesce(s.games_played, 0), coalesce(s.level, 0), u.profile_hidden
  FROM registrations r JOIN users u ON u.id = r.user_id LEFT JOIN stats s ON s.user_id = u.id
 WHERE r.tournament_id = $1`

func scanPlayerRef(row pgx.Row) (auction.PlayerRef, error) {
	var p auction.PlayerRef
	err := row.Scan(&p.UserID, &p.Name, &p.Tier, &p.Image, &p.KD, &p.GamesPlayed, &p.Level, &p.Hidden)
	core.ShowCard(core.Public, &p)
	return p, err
}

// Player implements auction.Store.
func (s Auction) Player(ctx context.Context, tournamentID, userID int64) (auction.PlayerRef, error) {
	p, err := scanPlayerRef(s.DB.q(ctx).QueryRow(ctx, playerRefSQL+` AND r.user_id = $2`, tournamentID, userID))
	return p, unavailable(notFound(err, "Player not registered"))
}

// LockPlayer implements auction.Store.
func (s Auction) LockPlayer(ctx context.Context, tournamentID, userID int64) (auction.PlayerRef, error) {
	p, err := scanPlayerRef(s.DB.q(ctx).QueryRow(ctx, playerRefSQL+` AND r.user_id = $2 FOR UPDATE OF r`, tournamentID, userID))
	return p, unavailable(notFound(err, "Player not registered"))
}

// SetTier implements auction.Store; the card changes, so the list's cache
// version is raised with it.
func (s Auction) SetTier(ctx context.Context, tournamentID, userID int64, tier int) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		tag, err := q.Exec(ctx, `UPDATE registrations SET tier = nullif($3, 0) WHERE tournament_id = $1 AND user_id = $2`,
			tournamentID, userID, tier)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errs.E(errs.NotFound, "Player not registered")
		}
		_, err = q.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1 WHERE id = $1`, tournamentID)
		return err
	})
}

// LockPhase implements auction.Store.
func (s Auction) LockPhase(ctx context.Context, tournamentID int64) (string, error) {
	var status string
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT status FROM tournaments WHERE id = $1 FOR SHARE`, tournamentID).Scan(&status)
	return status, unavailable(notFound(err, "Tournament not found"))
}

// Engaged implements auction.Store.
func (s Auction) Engaged(ctx context.Context, tournamentID, userID int64) (string, error) {
	var why string
	err := s.DB.q(ctx).QueryRow(ctx, `
		SELECT 'captains team ' || letter FROM teams WHERE tournament_id = $1 AND captain_user_id = $2
		UNION ALL
		SELECT 'already plays for team ' || t.letter FROM team_players tp JOIN teams t ON t.id = tp.team_id
		 WHERE tp.tournament_id = $1 AND tp.user_id = $2
		UNION ALL
		SELECT 'is under the hammer' FROM auction_lots WHERE tournament_id = $1 AND user_id = $2 AND status = 'open'
		UNION ALL
		SELECT 'is on the waitlist' FROM registrations WHERE tournament_id = $1 AND user_id = $2 AND status = 'waitlisted'
		LIMIT 1`, tournamentID, userID).Scan(&why)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return why, unavailable(err)
}

// SetCaptain implements auction.Store.
func (s Auction) SetCaptain(ctx context.Context, tournamentID int64, letter string, userID int64) error {
	_, err := s.DB.q(ctx).Exec(ctx, `UPDATE teams SET captain_user_id = $3 WHERE tournament_id = $1 AND letter = $2`,
		tournamentID, letter, userID)
	if isUniqueViolation(err) {
		return errs.E(errs.Conflict, "That player already captains another team.")
	}
	return unavailable(err)
}

// rosterSQL is a team t's roster slots of one kind (substitutes or not)
// as JSON, in the order they were filled.
func rosterSQL(substitutes bool) string {
	where := `NOT tp.substitute`
	if substitutes {
		where = `tp.substitute`
	}
	return `coalesce((SELECT json_agg(json_build_object('user_id', u.id, 'name', ` + shownName + `, 'image', ` + shownImage + `,
                                                   'price', tp.credits, 'tier', ` + shownTier + `, 'hidden', u.profile_hidden)
                                 ORDER BY tp.bought_at, u.id)
                   FROM team_players tp JOIN users u ON u.id = tp.user_id LEFT JOIN stats s ON s.user_id = u.id
                   LEFT JOIN registrations r ON r.tournament_id = tp.tournament_id AND r.user_id = u.id
                  WHERE tp.team_id = t.id AND ` + where + `), '[]'::json)`
}

// teamsSQL reads the eight teams with captain, players, substitutes and
// purse spent (on both).
var teamsAuctionSQL = `
SELECT t.id, t.letter, t.name, t.logo,
       c.id, coalesce(nullif(cs.player_name, ''), nullif(c.discord_username, ''), nullif(c.name, ''), 'Captain'),
       CASE WHEN c.avatar_image_id IS NULL THEN NULL ELSE '/api/images/' || c.avatar_image_id END, coalesce(c.profile_hidden, false),
       ` + rosterSQL(false) + `, ` + rosterSQL(true) + `,
       coalesce((SELECT sum(credits) FROM team_players WHERE team_id = t.id), 0)
  FROM teams t
  LEFT JOIN users c ON c.id = t.captain_user_id
  LEFT JOIN stats cs ON cs.user_id = c.id
 WHERE t.tournament_id = $1
 ORDER BY t.letter`

// Teams implements auction.Store.
func (s Auction) Teams(ctx context.Context, tournamentID int64, purse int) ([]auction.Team, error) {
	rows, err := s.DB.q(ctx).Query(ctx, teamsAuctionSQL, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	teams := []auction.Team{}
	for rows.Next() {
		var (
			t              auction.Team
			capID          *int64
			capName        string
			capImage, logo *string
			capHidden      bool
			spent          int
			players, subs  []byte
		)
		if err := rows.Scan(&t.DBID, &t.ID, &t.Name, &logo, &capID, &capName, &capImage, &capHidden, &players, &subs, &spent); err != nil {
			return nil, err
		}
		if logo != nil {
			t.Logo = *logo
		}
		if capID != nil {
			t.Captain = &auction.Captain{UserID: *capID, Name: capName, Image: capImage, Hidden: capHidden}
			core.ShowCard(core.Public, t.Captain)
		}
		if err := json.Unmarshal(players, &t.Players); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(subs, &t.Substitutes); err != nil {
			return nil, err
		}
		core.ShowCards(core.Public, t.Players)
		core.ShowCards(core.Public, t.Substitutes)
		t.Purse, t.PurseLeft, t.Slots = purse, purse-spent, auction.Slots
		t.FreeSlots = max(auction.Slots-len(t.Players), 0)
		t.MaxBid = auction.MaxBid(t.PurseLeft, t.FreeSlots)
		teams = append(teams, t)
	}
	return teams, unavailable(rows.Err())
}

// lotSQL reads lots with their player and high bid.
const lotSQL = `
SELECT l.id, l.tournament_id, l.base_price, l.increment, l.status, ht.letter, l.high_amount, l.ends_at, l.paused_left_ms,
       l.opened_at, l.closed_at,
       u.id, ` + shownName + `, ` + shownTier + `, ` + shownImage + `,
       coalesce(s.kd, 0)::float8, coalesce(s.games_played, 0), coalesce(s.level, 0), u.profile_hidden
  FROM auction_lots l
  JOIN users u ON u.id = l.user_id
  LEFT JOIN stats s ON s.user_id = u.id
  LEFT JOIN registrations r ON r.tournament_id = l.tournament_id AND r.user_id = u.id
  LEFT JOIN teams ht ON ht.id = l.high_team_id`

func scanLot(row pgx.Row) (auction.Lot, error) {
	var (
		l      auction.Lot
		team   *string
		amount *int
	)
	err := row.Scan(&l.ID, &l.TournamentID, &l.BasePrice, &l.Increment, &l.Status, &team, &amount, &l.EndsAt, &l.PausedLeftMs, &l.OpenedAt,
		&l.ClosedAt, &l.Player.UserID, &l.Player.Name, &l.Player.Tier, &l.Player.Image, &l.Player.KD,
		&l.Player.GamesPlayed, &l.Player.Level, &l.Player.Hidden)
	core.ShowCard(core.Public, &l.Player)
	if team != nil && amount != nil {
		l.High = &auction.HighBid{Team: *team, Amount: *amount}
	}
	l.Bids = []auction.Bid{}
	return l, err
}

// CreateLot implements auction.Store.
func (s Auction) CreateLot(ctx context.Context, l auction.Lot) (auction.Lot, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `INSERT INTO auction_lots (tournament_id, user_id, base_price, increment, ends_at, opened_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, l.TournamentID, l.Player.UserID, l.BasePrice, l.Increment, l.EndsAt, l.OpenedAt).Scan(&id)
	if isUniqueViolation(err) {
		return l, errs.E(errs.Conflict, "Another lot is open: close it first.")
	}
	if err != nil {
		return l, unavailable(err)
	}
	return s.FindLot(ctx, l.TournamentID, id)
}

// LockLot implements auction.Store. The lock is taken alone, then the lot
// read by a statement of its own: a statement that waits for a lock sees
// the locked row's new version but not what it joins (the high bidder).
func (s Auction) LockLot(ctx context.Context, tournamentID, lotID int64) (auction.Lot, error) {
	q := s.DB.q(ctx)
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM auction_lots WHERE tournament_id = $1 AND id = $2 FOR UPDATE`, tournamentID, lotID).Scan(&id)
	if err != nil {
		return auction.Lot{}, unavailable(notFound(err, "Lot not found"))
	}
	l, err := scanLot(q.QueryRow(ctx, lotSQL+` WHERE l.id = $1`, id))
	return l, unavailable(err)
}

// FindLot implements auction.Store.
func (s Auction) FindLot(ctx context.Context, tournamentID, lotID int64) (auction.Lot, error) {
	q := s.DB.q(ctx)
	l, err := scanLot(q.QueryRow(ctx, lotSQL+` WHERE l.tournament_id = $1 AND l.id = $2`, tournamentID, lotID))
	if err != nil {
		return l, unavailable(notFound(err, "Lot not found"))
	}
	rows, err := q.Query(ctx, `SELECT t.letter, b.amount, b.at FROM auction_bids b JOIN teams t ON t.id = b.team_id
		WHERE b.lot_id = $1 ORDER BY b.id`, lotID)
	if err != nil {
		return l, unavailable(err)
	}
	l.Bids, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (auction.Bid, error) {
		var b auction.Bid
		return b, row.Scan(&b.Team, &b.Amount, &b.At)
	})
	if l.Bids == nil {
		l.Bids = []auction.Bid{}
	}
	return l, unavailable(err)
}

// OpenLot implements auction.Store.
func (s Auction) OpenLot(ctx context.Context, tournamentID int64) (*auction.Lot, error) {
	var id int64
	err := s.DB.q(ctx).QueryRow(ctx, `SELECT id FROM auction_lots WHERE tournament_id = $1 AND status = 'open'`, tournamentID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(err)
	}
	l, err := s.FindLot(ctx, tournamentID, id)
	return &l, err
}

// AddBid implements auction.Store.
func (s Auction) AddBid(ctx context.Context, lotID int64, team auction.Team, userID int64, amount int, endsAt time.Time) error {
	q := s.DB.q(ctx)
	if _, err := q.Exec(ctx, `INSERT INTO auction_bids (lot_id, team_id, user_id, amount) VALUES ($1, $2, $3, $4)`,
		lotID, team.DBID, userID, amount); err != nil {
		return unavailable(err)
	}
	_, err := q.Exec(ctx, `UPDATE auction_lots SET high_team_id = $2, high_amount = $3, ends_at = $4 WHERE id = $1`,
		lotID, team.DBID, amount, endsAt)
	return unavailable(err)
}

// FinishLot implements auction.Store.
func (s Auction) FinishLot(ctx context.Context, l auction.Lot, status string) error {
	return s.DB.Transact(ctx, func(ctx context.Context) error {
		q := s.DB.q(ctx)
		switch status {
		case auction.LotSold:
			_, err := q.Exec(ctx, `INSERT INTO team_players (team_id, tournament_id, user_id, credits, lot_id)
				SELECT l.high_team_id, l.tournament_id, l.user_id, l.high_amount, l.id FROM auction_lots l WHERE l.id = $1`, l.ID)
			if isUniqueViolation(err) {
				return errs.E(errs.Conflict, "%s is already on a team.", l.Player.Name)
			}
			if err != nil {
				return err
			}
		case auction.LotVoided:
			if _, err := q.Exec(ctx, `DELETE FROM team_players WHERE lot_id = $1`, l.ID); err != nil {
				return err
			}
		}
		// clock_timestamp(), not now(): now() is when the transaction began,
		// which for a close that waited for the lot's lock (a bid holding it)
		// is before the deadline the close then found passed.
		_, err := q.Exec(ctx, `UPDATE auction_lots SET status = $2, closed_at = coalesce(closed_at, clock_timestamp()), paused_left_ms = NULL WHERE id = $1`, l.ID, status)
		return err
	})
}

// Results implements auction.Store: the sales standing, and each player
// whose latest lot went unsold and who is still free.
func (s Auction) Results(ctx context.Context, tournamentID int64) ([]auction.Sale, []auction.Unsold, error) {
	q := s.DB.q(ctx)
	rows, err := q.Query(ctx, lotSQL+` WHERE l.tournament_id = $1 AND l.status = 'sold' ORDER BY l.closed_at, l.id`, tournamentID)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	sold := []auction.Sale{}
	for rows.Next() {
		l, err := scanLot(rows)
		if err != nil {
			rows.Close()
			return nil, nil, err
		}
		sale := auction.Sale{LotID: l.ID, Player: l.Player}
		if l.High != nil {
			sale.Team, sale.Price = l.High.Team, l.High.Amount
		}
		if l.ClosedAt != nil {
			sale.At = *l.ClosedAt
		}
		sold = append(sold, sale)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, unavailable(err)
	}
	rows, err = q.Query(ctx, lotSQL+` WHERE l.tournament_id = $1 AND l.status = 'unsold'
		   AND NOT EXISTS (SELECT 1 FROM auction_lots later WHERE later.tournament_id = l.tournament_id
		                      AND later.user_id = l.user_id AND later.id > l.id)
		 ORDER BY l.closed_at, l.id`, tournamentID)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	unsold := []auction.Unsold{}
	for rows.Next() {
		l, err := scanLot(rows)
		if err != nil {
			rows.Close()
			return nil, nil, err
		}
		u := auction.Unsold{LotID: l.ID, Player: l.Player}
		if l.ClosedAt != nil {
			u.At = *l.ClosedAt
		}
		unsold = append(unsold, u)
	}
	return sold, unsold, unavailable(rows.Err())
}

// Pool implements auction.Store: strongest tier first, then by name.
func (s Auction) Pool(ctx context.Context, tournamentID int64) ([]auction.PlayerRef, error) {
	rows, err := s.DB.q(ctx).Query(ctx, playerRefSQL+`
		   AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.tournament_id = r.tournament_id AND t.captain_user_id = u.id)
		   AND NOT EXISTS (SELECT 1 FROM team_players tp WHERE tp.tournament_id = r.tournament_id AND tp.user_id = u.id)
		   AND NOT EXISTS (SELECT 1 FROM auction_lots l WHERE l.tournament_id = r.tournament_id AND l.user_id = u.id AND l.status = 'open')
		   AND r.status = 'confirmed'
		 ORDER BY 3, 2, 1`, tournamentID)
	if err != nil {
		return nil, unavailable(err)
	}
	pool, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (auction.PlayerRef, error) { return scanPlayerRef(row) })
	if pool == nil {
		pool = []auction.PlayerRef{}
	}
	return pool, unavailable(err)
}
