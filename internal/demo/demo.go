// Package demo loads the demo league into an empty database: about sixty
// registered players with plausible stats and generated images, the
// captains of teams A to H, the two season badges, and organiser and
// captain accounts; then (Advance) plays the league forward to a phase
// through the league's own services, so every phase is a consistent one.
package demo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/league"
	"github.com/pitlane/pitlane/internal/postgres"
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
	// History saves each player's stats a few times before today's, so
	// that profiles have a chart over time.
	History bool
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

// Load fills an empty database through the league's own stores and
// services, in one transaction: accounts (the one thing written here: an
// account is otherwise made by a sign-up and its mailed code), stats,
// registrations, captains and badges. It refuses a database that has
// accounts.
func Load(ctx context.Context, db *postgres.DB, opt Options) (Result, error) {
	if opt.Tournament == "" {
		opt.Tournament = "PPL7"
	}
	var res Result
	var users int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&users); err != nil {
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
	lg := league.New(db, league.Options{Default: opt.Tournament, Jobs: noJobs{}})
	ld := &loader{db: db, lg: lg, rng: rng, tournament: opt.Tournament, history: opt.History, karts: map[int]string{}}
	err := db.Transact(ctx, func(ctx context.Context) error {
		if err := (postgres.Tournaments{DB: db}).EnsureTournament(ctx, opt.Tournament); err != nil {
			return err
		}
		if _, err := (postgres.Demo{DB: db}).NewAccount(ctx, postgres.DemoAccount{Email: AdminEmail, PasswordHash: hash,
			Name: "League Organiser", Discord: "league.organiser", DiscordID: AdminDiscordID}); err != nil {
			return err
		}
		res.Admin = AdminEmail
		ids := make([]int64, 0, opt.Players)
		for i := 0; i < opt.Players; i++ {
			id, err := ld.player(ctx, i)
			if err != nil {
				return fmt.Errorf("player %d: %w", i, err)
			}
			ids = append(ids, id)
		}
		res.Players = len(ids)
		if len(ids) > 0 {
			// The two season badges go to the league's most decorated player.
			for _, b := range []string{"Season 3 Winner", "Season 5 Winner"} {
				if err := (postgres.Matches{DB: db}).Award(ctx, b, "trophy", "#FFD700", ids[:1]); err != nil {
					return err
				}
			}
		}
		if opt.Captains && len(ids) >= 8 {
			if err := loadCaptains(ctx, db, lg, opt.Tournament, ids, hash); err != nil {
				return err
			}
			res.Teams = 8
		}
		if opt.PlayersSignIn && hash != "" {
			return (postgres.Demo{DB: db}).SetPasswords(ctx, hash, AdminEmail)
		}
		return nil
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

// loader makes the demo's players. Past the sixty of the demo, players
// share a few kart pictures and have no avatar: a league of thousands
// loads in a minute, not in the time of thousands of PNG encodings.
type loader struct {
	db         *postgres.DB
	lg         *league.League
	rng        *rand.Rand
	tournament string
	history    bool
	karts      map[int]string // shared kart image by hue
}

// ownImages is how many players get pictures of their own.
const ownImages = 60

func (l *loader) images(ctx context.Context, i int, tagName string) (avatarID, kartID string, err error) {
	hue := float64((i * 47) % 360)
	images := postgres.Images{DB: l.db}
	if i >= ownImages {
		bucket := (i * 47) % 360 / 15 * 15
		if id, ok := l.karts[bucket]; ok {
			return "", id, nil
		}
		kartID, err = images.SaveImage(ctx, "image/png", kart(float64(bucket)))
		l.karts[bucket] = kartID
		return "", kartID, err
	}
	initials := strings.ToUpper(tagName[:1]) + strings.ToUpper(string([]rune(tagName)[len(tagStart[i%len(tagStart)])]))
	if avatarID, err = images.SaveImage(ctx, "image/png", avatar(initials, hue)); err != nil {
		return "", "", err
	}
	kartID, err = images.SaveImage(ctx, "image/png", kart(hue))
	return avatarID, kartID, err
}

func (l *loader) player(ctx context.Context, i int) (int64, error) {
	tagName := tag(i)
	rng := l.rng
	avatarID, kartID, err := l.images(ctx, i, tagName)
	if err != nil {
		return 0, err
	}
	id, err := (postgres.Demo{DB: l.db}).NewAccount(ctx, postgres.DemoAccount{Email: fmt.Sprintf("player%03d@demo.pitlane.local", i+1),
		Name: tagName, Avatar: avatarID, Discord: strings.ToLower(tagName), DiscordID: PlayerDiscordID(i + 1)})
	if err != nil {
		return 0, err
	}
	// Plausible Smash Karts careers: games 80-4000, K/D 0.6-3.2.
	games := 80 + rng.IntN(3900)
	kd := math.Round((0.6+rng.Float64()*2.6)*100) / 100
	kills := int(math.Round(kd * float64(games) * (1.2 + rng.Float64())))
	deaths := int(math.Round(float64(kills) / kd))
	level := 5 + games/40 + rng.IntN(10)
	cart := "/api/images/" + kartID
	st := core.Stats{PlayerName: tagName, SkID: fmt.Sprintf("%d", 100000+rng.IntN(900000)), CartImage: &cart,
		Description: blurbs[rng.IntN(len(blurbs))], PreferredRole: "Player", Verified: rng.IntN(5) > 0}
	steps := []float64{1}
	if l.history {
		// Earlier uploads read a younger career: fewer games, a K/D
		// that drifted towards today's.
		steps = []float64{0.55, 0.7, 0.85, 1}
	}
	for _, f := range steps {
		st.GamesPlayed = int(float64(games) * f)
		st.Kills = int(float64(kills) * f * (0.9 + 0.1*f))
		st.Deaths = int(float64(deaths) * f)
		st.Level = max(1, int(float64(level)*(0.7+0.3*f)))
		st.KD = core.KD(st.Kills, st.Deaths)
		st.Category = core.TierOf(core.Stats{KD: st.KD, GamesPlayed: st.GamesPlayed})
		if _, err := (postgres.Stats{DB: l.db}).SaveStats(ctx, id, st); err != nil {
			return 0, err
		}
	}
	_, err = l.lg.Tournaments.Register(ctx, core.Actor{UserID: id, Name: tagName}, l.tournament)
	return id, err
}

// loadCaptains makes the first eight players the captains of teams A to
// H (the organisers' call, as the system), each with a logo and a demo
// account that can sign in.
func loadCaptains(ctx context.Context, db *postgres.DB, lg *league.League, name string, ids []int64, hash string) error {
	for t := 0; t < 8; t++ {
		letter := string(rune('A' + t))
		if err := (postgres.Demo{DB: db}).SetLogin(ctx, ids[t], CaptainEmail(letter), hash); err != nil {
			return err
		}
		logoID, err := (postgres.Images{DB: db}).SaveImage(ctx, "image/png", avatar(letter, float64(t*45)))
		if err != nil {
			return err
		}
		if err := (postgres.Demo{DB: db}).SetLogo(ctx, name, letter, "/api/images/"+logoID); err != nil {
			return err
		}
		if _, err := lg.Auction.SetCaptain(ctx, core.System, name, letter, ids[t]); err != nil {
			return err
		}
	}
	return nil
}

// CaptainEmail is the demo account of team letter's captain.
func CaptainEmail(letter string) string {
	return fmt.Sprintf("captain.%s@demo.pitlane.local", strings.ToLower(letter))
}
