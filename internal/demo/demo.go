// Package demo loads the demo league into an empty database: about sixty
// registered players with plausible stats and generated images, the
// captains of teams A to H, the two season badges, and organiser and
// captain accounts; then (Advance) plays the league forward to a phase
// through the league's own services, so every phase is a consistent one.
package demo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Options of a load.
type Options struct {
	Players    int    // registered players (the demo has 60), captains included
	Captains   bool   // the first eight players captain teams A to H
	Tournament string // default PPL7
	Password   string // password of the organiser and captain accounts; empty = none can sign in
	// PlayersSignIn gives every player the Password too, so that load
	// scenarios can act as the league's players (save stats, register).
	PlayersSignIn bool
}

// Result says what was loaded.
type Result struct {
	Players int
	Teams   int
	Admin   string // the organiser's e-mail
}

// AdminEmail is the demo organiser; make run puts it in ADMIN_EMAILS.
const AdminEmail = "organiser@demo.pitlane.local"

// Demo Discord accounts, so `pitlane bot console --as ID` can act as the
// demo's people: the organiser is AdminDiscordID, player i (from 1) is
// PlayerDiscordID(i). They are made up; no real Discord account has them.
const AdminDiscordID = "900000000000000000"

// PlayerDiscordID is the made-up Discord id of the demo's i-th player (from 1).
func PlayerDiscordID(i int) string { return fmt.Sprintf("9000000000000%05d", i) }

var (
	tagStart = []string{"Turbo", "Nitro", "Drift", "Blaze", "Shadow", "Pixel", "Rocket", "Viper", "Ghost", "Neon",
		"Storm", "Frost", "Crash", "Blitz", "Comet", "Rogue", "Zero", "Venom", "Hyper", "Lucky"}
	tagEnd = []string{"King", "Racer", "Wolf", "Fox", "Ace", "Byte", "Fang", "Knight", "Rider", "Hawk",
		"Bolt", "Spark", "Ninja", "Tiger", "Ranger", "Sniper"}
	blurbs = []string{"Rocket main, always hunting the Red Cap.", "Mines on every corner. Sorry not sorry.",
		"Laser sniper from across the map.", "Team player, calls the drops.", "Drifts first, asks questions later.",
		"Grinding for the Season 7 title.", "Loves the volcano map.", "Shield timing specialist.",
		"Fresh from the Season 6 playoffs.", "Here for the chaos and the kills."}
)

// Load fills an empty database. It refuses a database that has users unless
// it was asked for more players than exist (the benchmark's top-up).
func Load(ctx context.Context, pool *pgxpool.Pool, opt Options) (Result, error) {
	if opt.Tournament == "" {
		opt.Tournament = "PPL7"
	}
	var res Result
	var users int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&users); err != nil {
		return res, err
	}
	if users > 0 {
		return res, errs.E(errs.Conflict, "the database already has %d accounts; demo data goes only into an empty database", users)
	}
	var hash string
	if opt.Password != "" {
		var err error
		if hash, err = auth.HashPassword(opt.Password); err != nil {
			return res, err
		}
	}
	rng := rand.New(rand.NewPCG(7, 2026))
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var tid int64
		if err := tx.QueryRow(ctx, `INSERT INTO tournaments (name, scoring) VALUES ($1, $2)
			ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`, opt.Tournament, bracket.DefaultScoring).Scan(&tid); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO users (email, password_hash, name, email_verified, discord_username, discord_id, discord_verified)
			VALUES ($1, nullif($2, ''), 'League Organiser', true, 'league.organiser', $3, true)`, AdminEmail, hash, AdminDiscordID); err != nil {
			return err
		}
		res.Admin = AdminEmail
		ids := make([]int64, 0, opt.Players)
		start := time.Now().Add(-time.Duration(opt.Players) * 37 * time.Minute)
		for i := 0; i < opt.Players; i++ {
			id, err := loadPlayer(ctx, tx, rng, i, tid, start.Add(time.Duration(i)*37*time.Minute))
			if err != nil {
				return fmt.Errorf("player %d: %w", i, err)
			}
			ids = append(ids, id)
		}
		res.Players = len(ids)
		if len(ids) > 0 {
			// The two season badges go to the league's most decorated player.
			if _, err := tx.Exec(ctx, `INSERT INTO user_badges (user_id, badge_id) SELECT $1, id FROM badges
				WHERE name IN ('Season 3 Winner', 'Season 5 Winner')`, ids[0]); err != nil {
				return err
			}
		}
		if opt.Captains && len(ids) >= 8 {
			if err := loadCaptains(ctx, tx, tid, ids, hash); err != nil {
				return err
			}
			res.Teams = 8
		}
		if opt.PlayersSignIn && hash != "" {
			if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $1 WHERE password_hash IS NULL AND email <> $2`, hash, AdminEmail); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE tournaments SET roster_version = roster_version + 1 WHERE id = $1`, tid)
		return err
	})
	return res, err
}

func tag(i int) string {
	name := tagStart[i%len(tagStart)] + tagEnd[(i/len(tagStart)+i)%len(tagEnd)]
	if i >= len(tagStart)*len(tagEnd) {
		name += fmt.Sprint(i / (len(tagStart) * len(tagEnd)))
	}
	return name
}

func loadPlayer(ctx context.Context, tx pgx.Tx, rng *rand.Rand, i int, tid int64, at time.Time) (int64, error) {
	name := tag(i)
	hue := float64((i * 47) % 360)
	initials := strings.ToUpper(name[:1]) + strings.ToUpper(string([]rune(name)[len(tagStart[i%len(tagStart)])]))
	avatarID, err := saveImage(ctx, tx, avatar(initials, hue))
	if err != nil {
		return 0, err
	}
	kartID, err := saveImage(ctx, tx, kart(hue))
	if err != nil {
		return 0, err
	}
	discord := strings.ToLower(name)
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO users (email, name, avatar_image_id, discord_username, discord_id, discord_verified, email_verified, created_at)
		VALUES ($1, $2, $3, $4, $5, true, true, $6) RETURNING id`,
		fmt.Sprintf("player%03d@demo.pitlane.local", i+1), name, avatarID, discord, PlayerDiscordID(i+1), at).Scan(&id)
	if err != nil {
		return 0, err
	}
	// Plausible Smash Karts careers: games 80-4000, K/D 0.6-3.2.
	games := 80 + rng.IntN(3900)
	kd := math.Round((0.6+rng.Float64()*2.6)*100) / 100
	kills := int(math.Round(kd * float64(games) * (1.2 + rng.Float64())))
	deaths := int(math.Round(float64(kills) / kd))
	level := 5 + games/40 + rng.IntN(10)
	kd = core.KD(kills, deaths)
	_, err = tx.Exec(ctx, `INSERT INTO stats (user_id, player_name, sk_id, level, kills, deaths, games_played, kd,
		cart_image_id, description, category, preferred_role, verified, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'Player', $12, $13)`,
		id, name, fmt.Sprintf("%d", 100000+rng.IntN(900000)), level, kills, deaths, games, kd, kartID,
		blurbs[rng.IntN(len(blurbs))], core.TierOf(core.Stats{KD: kd, GamesPlayed: games}), rng.IntN(5) > 0, at)
	if err != nil {
		return 0, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO registrations (tournament_id, user_id, created_at) VALUES ($1, $2, $3)`, tid, id, at)
	return id, err
}

// loadCaptains makes the first eight players the captains of teams A to
// H, each with a logo and a demo account that can sign in.
func loadCaptains(ctx context.Context, tx pgx.Tx, tid int64, ids []int64, hash string) error {
	for t := 0; t < 8; t++ {
		letter := string(rune('A' + t))
		if _, err := tx.Exec(ctx, `UPDATE users SET email = $2, password_hash = nullif($3, '') WHERE id = $1`,
			ids[t], CaptainEmail(letter), hash); err != nil {
			return err
		}
		logoID, err := saveImage(ctx, tx, avatar(letter, float64(t*45)))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO teams (tournament_id, letter, name, captain_user_id, logo)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tournament_id, letter)
			DO UPDATE SET captain_user_id = EXCLUDED.captain_user_id, logo = EXCLUDED.logo`,
			tid, letter, "Team "+letter, ids[t], "/api/images/"+logoID); err != nil {
			return err
		}
	}
	return nil
}

// CaptainEmail is the demo account of team letter's captain.
func CaptainEmail(letter string) string {
	return fmt.Sprintf("captain.%s@demo.pitlane.local", strings.ToLower(letter))
}

func saveImage(ctx context.Context, tx pgx.Tx, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	id := hex.EncodeToString(sum[:])
	_, err := tx.Exec(ctx, `INSERT INTO images (id, content_type, data) VALUES ($1, 'image/png', $2) ON CONFLICT DO NOTHING`, id, data)
	return id, err
}
