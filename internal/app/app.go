// Package app wires Pitlane together: stores, services, the hub and the
// routes, from one Config. The binary and the tests build the same thing.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/api"
	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/audit"
	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/avatars"
	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/calendar"
	"github.com/pitlane/pitlane/internal/chat"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/deck"
	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/hub"
	"github.com/pitlane/pitlane/internal/league"
	"github.com/pitlane/pitlane/internal/mail"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/metrics"
	"github.com/pitlane/pitlane/internal/moderation"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/payments"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/records"
	"github.com/pitlane/pitlane/internal/room"
	"github.com/pitlane/pitlane/internal/social"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/streams"
	"github.com/pitlane/pitlane/internal/twitch"
)

// App is the wired server.
type App struct {
	Handler http.Handler
	// Metrics serves /metrics, for a listener of its own (METRICS_ADDR).
	Metrics http.Handler
	Hub     *hub.Hub
	Server  *api.Server
	Jobs    *postgres.Jobs
	// Mail sends the server's mails in the background.
	Mail *mail.Queue
	// Bot is the Discord bot's command router (internal/bot), for the
	// gateway and the console alike.
	Bot *bot.Router
	// Recorder writes this instance's figures down for the dashboard.
	Recorder *metrics.Recorder
	auction  *auction.Service
	// countdowns closes every lot at its deadline on this instance too.
	countdowns *countdowns
	redis      *redis.Client
	relay      *postgres.Relay
	db         *postgres.DB
	log        *slog.Logger
	cfg        config.Config
	botStop    context.CancelFunc
	stopCheers context.CancelFunc // ends the cheers' windows
	botDone    chan struct{}
}

// Close releases what New opened (not the database, which the caller owns).
func (a *App) Close() {
	if a.Recorder != nil {
		a.Recorder.Stop()
	}
	if a.botStop != nil {
		a.botStop()
		<-a.botDone
	}
	if a.countdowns != nil {
		a.countdowns.close()
	}
	if a.stopCheers != nil {
		a.stopCheers()
	}
	if a.auction != nil {
		a.auction.Stop()
	}
	if a.Jobs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := a.Jobs.Stop(ctx); err != nil {
			slog.Warn("stopping the jobs", slog.Any("err", err))
		}
		cancel()
	}
	if a.relay != nil {
		a.relay.Stop()
	}
	if a.Mail != nil {
		// Codes already promised are sent, for a while.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := a.Mail.Close(ctx); err != nil {
			slog.Warn("mails left unsent at shutdown", slog.Any("err", err))
		}
		cancel()
	}
	if a.redis != nil {
		a.redis.Close()
	}
}

// New wires the stores, services, hub and routes. web is the built app (may be nil).
func New(ctx context.Context, cfg config.Config, db *postgres.DB, web fs.FS, log *slog.Logger) (*App, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	a := &App{db: db, log: log, cfg: cfg}
	if cfg.Redis().Set() {
		rdb, err := cfg.Redis().Client(nil)
		if err != nil {
			return nil, err
		}
		a.redis = rdb
	}
	reg.MustRegister(healthCollector{db: db, redis: a.redis})
	work := newWorkMetrics(reg)
	sender, err := mail.New(cfg.SMTPURL, cfg.MailFrom, log)
	if err != nil {
		return nil, err
	}
	if cfg.SMTPURL == "" && cfg.Production() {
		// The development log line carries the code and the address; a
		// production log must not. Sign-up cannot work until SMTP_URL is set.
		log.Error("SMTP_URL is not set: verification e-mails are not sent")
		sender = mail.Unsent{Log: log}
	}
	// Requests never wait for the mail server: an answer then takes as long
	// whether or not it sent a mail. Four sends at a time, 1000 waiting.
	a.Mail = mail.NewQueue(sender, 4, 1000, 30*time.Second, log)
	admins := map[string]bool{}
	for _, e := range cfg.AdminEmails {
		// Compared as accounts keep addresses (composed, lower case).
		if n, err := accounts.NormalizeEmail(e); err == nil {
			e = n
		}
		admins[e] = true
	}
	images := postgres.Images{DB: db}
	// Scheduled work: river, in this database, once across instances
	// (started once its workers are registered, below).
	a.Jobs = &postgres.Jobs{DB: db, Log: log, Observe: work.observeJob}
	lg := league.New(db, league.Options{Default: cfg.DefaultTournament, Jobs: a.Jobs, Log: log,
		LotTime: cfg.AuctionLot, LateBid: cfg.AuctionLateBid})
	outbox, auditLog, tour := lg.Outbox, lg.Audit, lg.Tournaments
	// A hidden profile or an erased account is redacted from the live
	// events kept: the outbox at once, the hub's history by a job.
	history := postgres.History{DB: db, Jobs: a.Jobs}
	acc := &accounts.Service{
		Store:     postgres.Accounts{DB: db},
		Tx:        db,
		Audit:     auditLog,
		Mail:      a.Mail,
		Tokens:    auth.Tokens{Secret: []byte(cfg.JWTSecret)},
		OTPSecret: []byte("otp|" + cfg.JWTSecret),
		Admins:    admins,
		Avatars:   avatars.Fetcher{Images: images, Users: postgres.Accounts{DB: db}, Allow: pictureHosts(cfg)},
		Changed:   tour.PlayerChanged,
		Log:       log,

		RequireSecondFactor: cfg.AdminRequire2FA,
		Sessions:            postgres.Accounts{DB: db},
		Factors:             postgres.Accounts{DB: db},
		EmailChanges:        postgres.Accounts{DB: db},
		Erasure:             postgres.Accounts{DB: db},
		History:             history,
		Events:              outbox,
		Sealer:              auth.NewSealer([]byte(cfg.JWTSecret)),
		Leave:               tour.LeaveAll,
		RotateFeeds: func(ctx context.Context, userID int64) error {
			_, err := postgres.Calendar{DB: db}.Reset(ctx, calendar.Feed{Kind: calendar.Player, ID: userID})
			return err
		},
	}
	if pk, err := auth.NewPasskeys(cfg.PublicURL); err != nil {
		log.Warn("passkeys are off", slog.Any("err", err))
	} else {
		acc.Passkeys = pk
	}
	if cfg.GoogleClientID != "" {
		acc.Google = auth.NewGoogleVerifier(context.WithoutCancel(ctx), cfg.GoogleClientID, cfg.GoogleCertsURL, nil)
	}
	acc.Discord = postgres.Accounts{DB: db}
	if cfg.DiscordClientID != "" {
		client, err := discord.HTTPClient(cfg.DiscordAPIURL)
		if err != nil {
			return nil, err
		}
		acc.DiscordOAuth = discord.NewOAuth(cfg.DiscordClientID, cfg.DiscordClientSecret, cfg.DiscordAPIURL, cfg.PublicURL, client)
	}

	// The hub's seqs are this database's outbox's: its keys carry the
	// database's identity, so a database made again never meets the seqs of
	// the one before it (they would be skipped as delivered).
	identity, err := db.Identity(ctx)
	if err != nil {
		return nil, err
	}
	var broker hub.Broker = hub.MemoryBroker{}
	if cfg.Redis().Set() {
		broker = hub.RedisBroker{Target: cfg.Redis()}
	}
	var rooms *chat.Service // made below; the hub asks it who may hear a room

	pages := &api.Pages{} // served through the router, built below
	cheer := newCheers(cfg, a.redis, log)
	h, err := hub.New(hub.Options{
		Auth:           hubAuth{acc},
		Guard:          func(ctx context.Context, a core.Actor, topic string) error { return rooms.Guard(ctx, a, topic) },
		Cheers:         cheer,
		Pages:          pages.Read,
		Broker:         broker,
		Prefix:         cfg.RedisPrefix + "hub:" + identity + ":",
		OriginPatterns: originPatterns(cfg.CORSOrigins),
		MaxConnsPerIP:  wsConnsPerIP(cfg),
		Logger:         log,
		Registerer:     reg,
	})
	if err != nil {
		return nil, err
	}
	a.Hub = h
	cheer.Out = h.SendLocal
	cheerCtx, stopCheers := context.WithCancel(ctx)
	a.stopCheers = stopCheers
	cheer.Start(cheerCtx)
	// Committed events reach the hub through the relay, whatever happens to
	// Redis meanwhile; one relay works at a time across instances.
	a.relay = &postgres.Relay{DB: db, Sink: h, Log: log,
		Observe: func(lag time.Duration) { work.relayLag.Observe(lag.Seconds()) }}
	a.relay.Start(ctx)

	postgres.Work(a.Jobs, tour.CheckinDeadlineDue)
	nt, err := notifications(cfg, db, a.Jobs)
	if err != nil {
		return nil, err
	}
	auc, mat := lg.Auction, lg.Matches
	a.auction = auc
	postgres.Work(a.Jobs, func(ctx context.Context, job matches.AutoConfirm) error { return mat.AutoConfirmDue(ctx, job.Match) })
	postgres.Work(a.Jobs, mat.RemindDue)
	postgres.Work(a.Jobs, mat.PruneProofsDue)
	a.Jobs.Every(time.Hour, matches.PruneProofs{})
	postgres.Work(a.Jobs, outbox.Prune)
	postgres.Work(a.Jobs, func(ctx context.Context, job postgres.ForgetHistory) error { return history.ForgetDue(ctx, job, h) })
	postgres.Work(a.Jobs, func(ctx context.Context, job auction.CloseLot) error {
		return auc.CloseDue(ctx, job.Tournament, job.Lot)
	})
	postgres.Work(a.Jobs, auc.NominateDue)
	a.Jobs.Every(time.Hour, postgres.PruneOutbox{})
	postgres.Work(a.Jobs, postgres.Accounts{DB: db}.Prune)
	a.Jobs.Every(time.Hour, postgres.PruneCodes{})
	postgres.Work(a.Jobs, postgres.Accounts{DB: db}.PruneSessions)
	a.Jobs.Every(time.Hour, postgres.PruneSessions{})
	postgres.Work(a.Jobs, postgres.Metrics{DB: db}.Prune)
	a.Jobs.Every(time.Hour, postgres.PruneMetrics{})
	live := newStreams(cfg, db, lg, a.Jobs, log)
	if live.On() {
		postgres.Work(a.Jobs, live.PollDue)
		a.Jobs.Every(streams.PollEvery, streams.Poll{})
	}
	money := moneyOf(cfg, db, tour, mat, auditLog, log)
	money.payments.Jobs = a.Jobs
	postgres.Work(a.Jobs, money.payments.SweepDue)
	postgres.Work(a.Jobs, money.payments.HoldEndDue)
	a.Jobs.Every(payments.SweepEvery, payments.Sweep{})
	if err := a.Jobs.Start(ctx); err != nil {
		return nil, err
	}

	if err := (postgres.Tournaments{DB: db}).EnsureTournament(ctx, cfg.DefaultTournament); err != nil {
		log.Error("creating the default tournament", slog.String("tournament", cfg.DefaultTournament), slog.Any("err", err))
	}
	st := &stats.Service{Store: postgres.Stats{DB: db}, Images: images, Tx: db, Changed: tour.PlayerChanged}
	limits := ratelimit.New(a.redis, cfg.RedisPrefix+"rl:", []byte("ratelimit|"+cfg.JWTSecret), cfg.RateLimitScale, log,
		slices.Concat(ratelimit.All, ratelimit.League, ratelimit.Bot, ratelimit.Streams, ratelimit.Moderation, []ratelimit.Rule{ratelimit.FollowUser})...)
	mod := moderationService(db, tour, auditLog, outbox, admins, cfg.JWTSecret)
	tour.Sanctions = mod
	rooms = &chat.Service{Store: postgres.Chat{DB: db}, Tx: db, Events: outbox, Audit: auditLog, Sanctions: mod,
		Pace: limits.Pace(ratelimit.ChatUser), Mentioned: nt.Mention}
	acc.MaySignIn = func(ctx context.Context, u accounts.User) error {
		return mod.MaySignIn(ctx, moderation.Identity{UserID: u.ID, Email: u.Email, GoogleID: u.GoogleID, DiscordID: u.DiscordID})
	}
	recs := &records.Service{Store: postgres.Records{DB: db}, Standings: mat, Tx: db, Changed: tour.PlayerChanged, History: history}
	srv := &api.Server{
		Config:      cfg,
		Accounts:    acc,
		Stats:       st,
		Tournaments: tour,
		Audit:       &audit.Service{Log: auditLog, Tournaments: tour},
		Auction:     auc,
		Matches:     mat,
		Records:     recs,
		Calendar:    &calendar.Service{Store: postgres.Calendar{DB: db}, Key: []byte("calendar|" + cfg.JWTSecret), PublicURL: cfg.PublicURL},
		Room: &room.Service{Store: postgres.Room{DB: db}, Tournaments: tour, Tx: db, Events: outbox, Pace: limits.Pace(ratelimit.RoomUser),
			Sanctions: mod},
		Moderation: mod,
		Chat:       rooms,
		Notify:     nt,
		Streams:    live,
		Cheers:     cheer,
		Social:     &social.Service{Store: postgres.Social{DB: db}},
		Deck:       &deck.Service{Store: postgres.Deck{DB: db}, Tx: db, Events: outbox, Audit: auditLog},
		Images:     images,
		Newsletter: postgres.Newsletter{DB: db},
		DB:         db,
		Hub:        h,
		Limits:     limits,
		Registry:   reg,
		Web:        web,
		Log:        log,
	}
	ex, err := extract.New(extract.Options{
		GeminiAPIKey: cfg.GeminiAPIKey, TextModel: cfg.GeminiTextModel, ImageModel: cfg.GeminiImageModel,
		BaseURL: cfg.GeminiBaseURL, OfflineFallback: true,
	})
	switch {
	case errors.Is(err, extract.ErrNoTesseract):
		log.Warn("screenshots other than the game's Stats panel cannot be read", slog.Any("err", err))
	case err != nil:
		// Screenshot reading is one feature: without it the site still runs.
		log.Error("reading stats from screenshots is unavailable", slog.Any("err", err))
		ex = extract.Unavailable()
	}
	// Offline reading is a core's work per screenshot, and Gemini falls back
	// to it when Google fails, so the slots are sized for the offline reader.
	srv.Uploads = &stats.Uploads{Reader: ex, Stats: st, Images: images, Tx: db, Events: outbox, Log: log,
		Slots: make(chan struct{}, runtime.NumCPU())}
	a.Recorder = metrics.NewRecorder(postgres.Metrics{DB: db}, reg, log)
	// A client's first page load in a day counts toward the page-load goal.
	firstLoad := ratelimit.NewOnce(a.redis, cfg.RedisPrefix+"rum-day:", []byte("rum|"+cfg.JWTSecret), 24*time.Hour, log)
	srv.Metrics = &metrics.Service{Store: postgres.Metrics{DB: db}, Tournaments: tour, Organisers: cfg.AdminEmails,
		Recorder: a.Recorder, FirstToday: firstLoad.First,
		Reminders: &metrics.Reminders{Store: postgres.Metrics{DB: db}, Tx: db, Audit: auditLog, Mail: a.Mail, Notify: nt,
			PublicURL: cfg.PublicURL, Log: log,
			OptOut: func(userID int64) string { return nt.UnsubscribeURL(userID, notify.KindReminder) }}}
	srv.Prizes, srv.Payments = money.prizes, money.payments
	if money.stripe != nil {
		srv.Webhooks = money.stripe
	}
	a.Server = srv
	a.Bot = &bot.Router{Accounts: acc, Tournaments: tour, Stats: st, Auction: auc, Matches: mat, Audit: auditLog, Tx: db,
		Limits: srv.Limits, PublicURL: cfg.PublicURL, Log: log}
	a.Handler = srv.Handler()
	pages.Serve(a.Handler)
	a.Metrics = srv.MetricsHandler()
	// Every instance closes a lot at its deadline, whichever took its bids.
	a.countdowns = &countdowns{feed: h, tournaments: tour, auction: auc, log: log}
	a.countdowns.start(ctx)
	return a, nil
}

// wsConnsPerIP is the hub's bound on websockets per client address:
// WS_CONNECTIONS_PER_IP scaled by RATE_LIMIT_SCALE, at least 1; 0 turns it
// off (the hub's -1).
func wsConnsPerIP(cfg config.Config) int {
	if cfg.WSConnsPerIP == 0 {
		return -1
	}
	return max(1, int(math.Round(float64(cfg.WSConnsPerIP)*cfg.RateLimitScale)))
}

// pictureHosts is what a Google account's picture may be fetched from:
// Google's hosts when tokens are checked against Google's own key set, and
// anything when a test points GOOGLE_CERTS_URL at a key set of its own.
func pictureHosts(cfg config.Config) func(*url.URL) bool {
	if cfg.GoogleCertsURL == config.GoogleCertsDefault {
		return avatars.GooglePictures
	}
	return nil
}

// hubAuth lets the hub check a connection's token with the account rules.
type hubAuth struct{ acc *accounts.Service }

func (h hubAuth) Authenticate(ctx context.Context, token string) (core.Actor, error) {
	au, err := h.acc.Authenticate(ctx, token)
	if errs.KindOf(err) == errs.Unauthorized {
		return core.Actor{}, fmt.Errorf("%w: %v", hub.ErrRejected, err)
	}
	return au.Actor, err
}

// originPatterns turns CORS_ORIGINS (full origins) into the host patterns
// coder/websocket matches Origin headers against.
func originPatterns(origins []string) []string {
	var out []string
	for _, o := range origins {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			out = append(out, u.Host)
		}
	}
	return out
}

// RunBot runs the Discord bot until ctx ends: on one instance at a time
// (the holder of postgres.BotLock), which answers commands and announces;
// the others stand by and take over when it goes.
func (a *App) RunBot(ctx context.Context) error {
	if a.cfg.DiscordBotToken == "" {
		return errors.New("DISCORD_BOT_TOKEN is not set")
	}
	client, err := discord.HTTPClient(a.cfg.DiscordAPIURL)
	if err != nil {
		return err
	}
	leader := &postgres.Leader{DB: a.db, Key: postgres.BotLock, Log: a.log}
	leader.Run(ctx, func(ctx context.Context) error {
		a.log.Info("discord bot: this instance answers")
		s, err := discord.NewSession(a.cfg.DiscordBotToken, client)
		if err != nil {
			return err
		}
		b := &discord.Bot{Session: s, Router: a.Bot, Channel: a.cfg.DiscordChannel, Log: a.log,
			Announcer: &bot.Announcer{Feed: a.Hub, Claims: postgres.Bot{DB: a.db}, Missed: postgres.Bot{DB: a.db}, Log: a.log,
				Seasons: a.Server.Tournaments},
			MatchChannel: a.cfg.DiscordMatchChannel,
			Threads: &bot.MatchThreads{Feed: a.Hub, Store: postgres.Bot{DB: a.db}, Missed: postgres.Bot{DB: a.db}, Matches: a.Bot.Matches,
				PublicURL: a.cfg.PublicURL, Log: a.log}}
		err = b.Run(ctx)
		if err != nil {
			// A refused token or an unreachable gateway will not mend in
			// a second: wait before the next try.
			a.log.Error("discord bot", slog.Any("err", err))
			t := time.NewTimer(30 * time.Second)
			defer t.Stop()
			select {
			case <-ctx.Done():
			case <-t.C:
			}
		}
		return err
	})
	return nil
}

// StartRecorder has this instance write its figures and heartbeat down
// (internal/metrics) until Close: a serving instance's, not a bot's alone,
// since the heartbeat says the site was up.
func (a *App) StartRecorder(ctx context.Context) {
	a.Recorder.Start(ctx)
}

// StartBot runs the bot in the background (inside serve) until Close.
func (a *App) StartBot(ctx context.Context) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a.botStop, a.botDone = cancel, make(chan struct{})
	go func() {
		defer close(a.botDone)
		if err := a.RunBot(ctx); err != nil {
			a.log.Error("discord bot", slog.Any("err", err))
		}
	}()
}

// newStreams is the streams feature: on when the Twitch keys are set, else
// a Service without a platform, which lists nothing.
func newStreams(cfg config.Config, db *postgres.DB, lg *league.League, jobs *postgres.Jobs, log *slog.Logger) *streams.Service {
	s := &streams.Service{Store: postgres.Streams{DB: db}, Tournaments: lg.Tournaments, Tx: db, Events: lg.Outbox,
		Audit: lg.Audit, Jobs: jobs, Sealer: auth.NewSealer([]byte(cfg.JWTSecret)),
		StateKey: []byte("streams|" + cfg.JWTSecret), Log: log}
	if cfg.StreamsOn() {
		s.Platform = twitch.New(twitch.Options{ClientID: cfg.TwitchClientID, ClientSecret: cfg.TwitchClientSecret,
			EventSubSecret: cfg.TwitchEventSubSecret, Auth: cfg.TwitchAuthURL, API: cfg.TwitchAPIURL,
			PublicURL: cfg.PublicURL, Callback: cfg.TwitchCallback})
	}
	return s
}
