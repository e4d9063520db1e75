package app

import (
	"net/mail"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/discord"
	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/push"
)

// notifications wires the notifications players choose (internal/notify):
// Web Push when VAPID keys are configured, Discord DMs when the bot has a
// token, and their jobs (registered before the jobs start).
func notifications(cfg config.Config, db *postgres.DB, jobs *postgres.Jobs) (*notify.Service, error) {
	store := postgres.Notify{DB: db}
	n := &notify.Service{Store: store, Directory: store, Tx: db, Jobs: jobs,
		AllowEndpoint: push.Allow(cfg.PushEndpointHosts), Secret: []byte("notify|" + cfg.JWTSecret), PublicURL: cfg.PublicURL}
	if cfg.PushOn() {
		n.Push = push.Sender{PublicKey: cfg.VAPIDPublicKey, PrivateKey: cfg.VAPIDPrivateKey, Subject: vapidSubject(cfg)}
		n.PushKey = cfg.VAPIDPublicKey
	}
	if cfg.DiscordBotToken != "" {
		client, err := discord.HTTPClient(cfg.DiscordAPIURL)
		if err != nil {
			return nil, err
		}
		if n.DM, err = discord.NewDMs(cfg.DiscordBotToken, client); err != nil {
			return nil, err
		}
	}
	postgres.Work(jobs, n.FanoutDue)
	postgres.Work(jobs, n.SendDue)
	postgres.Work(jobs, store.Prune)
	jobs.Every(24*time.Hour, postgres.PruneDeliveries{})
	return n, nil
}

// vapidSubject is VAPID_SUBJECT, else the site's https address, else the
// address mails come from.
func vapidSubject(cfg config.Config) string {
	if cfg.VAPIDSubject != "" {
		return cfg.VAPIDSubject
	}
	if strings.HasPrefix(cfg.PublicURL, "https:") {
		return cfg.PublicURL
	}
	if a, err := mail.ParseAddress(cfg.MailFrom); err == nil {
		return "mailto:" + a.Address
	}
	return "mailto:no-reply@localhost"
}
