package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// ActionReminder is the audit log's entry of reminders sent.
const ActionReminder = "metrics.reminder"

// ReminderGap is how often a player may be reminded of one step.
const ReminderGap = 7 * 24 * time.Hour

// MaxReminded bounds the players of one request.
const MaxReminded = 100

// Channels a reminder goes by: the notifications a player chose for
// reminders (push, a Discord DM) and e-mail to a verified address.
const (
	ChannelEmail   = "email"
	ChannelPush    = "push"
	ChannelDiscord = "discord"
)

// Reasons a player was not reminded.
const (
	SkipNotStuck   = "not stopped at this step any more"
	SkipRecent     = "reminded of this step in the last 7 days"
	SkipUnreached  = "no channel reaches them"
	SkipUnverified = "their e-mail address is not verified, and it may not be theirs"
)

// ReminderTarget is a player a reminder was asked for, as the store found
// them: where they stand, when they were last reminded of the step, and the
// address a reminder may be mailed to ("" for none: not verified, deleted,
// or they turned reminder e-mails off).
type ReminderTarget struct {
	StuckPlayer
	StuckAt string // the step they stopped before ("" when done)
	Email   string
}

// ReminderStore keeps the reminders (internal/postgres).
type ReminderStore interface {
	ReminderTargets(ctx context.Context, q FunnelQuery, ids []int64) ([]ReminderTarget, error)
	AddReminder(ctx context.Context, userID int64, step string, tournamentID, by int64, channels []string) error
}

// Notifier writes a reminder to a player on the notification channels they
// chose for reminders, in the caller's transaction, and names the channels
// (notify.Service).
type Notifier interface {
	Remind(ctx context.Context, userID int64, key, title, body, path string) ([]string, error)
}

// Reminders sends organisers' reminders to players stuck at a step. A
// reminder is a nudge, never a code: at most one a week per player and
// step, written with its audit entry in one transaction.
type Reminders struct {
	Store  ReminderStore
	Tx     core.Transactor
	Audit  core.AuditLog
	Mail   core.MailQueue
	Notify Notifier
	// PublicURL is the site's address; OptOut the link that turns a
	// player's reminders off (notify's unsubscribe link).
	PublicURL string
	OptOut    func(userID int64) string
	Log       *slog.Logger
}

// ReminderInput is POST /api/admin/metrics/reminders.
type ReminderInput struct {
	Tournament string  `json:"tournament"`
	Step       string  `json:"step"`
	UserIDs    []int64 `json:"user_ids"`
}

// ReminderResult says who was reminded, by which channels, and who was not
// and why.
type ReminderResult struct {
	Sent    []Reminded `json:"sent"`
	Skipped []Skipped  `json:"skipped"`
}

// Reminded is a player reminded.
type Reminded struct {
	UserID   int64    `json:"user_id"`
	Name     string   `json:"name"`
	Channels []string `json:"channels"`
}

// Skipped is a player not reminded.
type Skipped struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// reminderText is what a reminder of each step says.
var reminderText = map[string]struct{ Title, Body, Path string }{
	StepVerified:   {},
	StepDiscord:    {"Link your Discord to finish signing up", "You are one step into %s: link your Discord account, then upload your stats and register.", "/"},
	StepStats:      {"Upload your stats to register", "Upload a screenshot of your Smash Karts stats, then register for %s.", "/?showStatsUpload=true"},
	StepRegistered: {"Register for %s", "Your stats are in: one click registers you for %s.", "/tournament"},
	StepCheckedIn:  {"Check in for %s", "The check-in for %s is open: check in before its deadline to keep your place.", "/tournament"},
}

// Remind sends a reminder of step to each player of in that is still
// stopped before it. Organisers only.
func (s *Service) Remind(ctx context.Context, a core.Actor, in ReminderInput) (ReminderResult, error) {
	out := ReminderResult{Sent: []Reminded{}, Skipped: []Skipped{}}
	if err := a.MustBeAdmin(); err != nil {
		return out, err
	}
	r := s.Reminders
	if r == nil {
		return out, errs.E(errs.Unavailable, "Reminders are not set up on this server.")
	}
	text, ok := reminderText[in.Step]
	if !ok {
		return out, errs.E(errs.Invalid, "step must be one of verified, discord, stats, registered, checked_in")
	}
	if len(in.UserIDs) == 0 || len(in.UserIDs) > MaxReminded {
		return out, errs.E(errs.Invalid, "user_ids must list from 1 to %d players", MaxReminded)
	}
	t, err := s.tournament(ctx, in.Tournament)
	if err != nil {
		return out, err
	}
	if in.Step == StepCheckedIn && t.Checkin.State(s.now()) != tournament.CheckinOpen {
		return out, errs.E(errs.Conflict, "The check-in of %s is not open: there is nothing to remind players of.", t.Name)
	}
	ids := slices.Compact(slices.Sorted(slices.Values(in.UserIDs)))
	// Registered and checked in are about this season; the steps before
	// are the account's, whenever it was made.
	q := s.funnelQuery(t, time.Time{})
	type mail struct {
		to     core.Message
		userID int64
	}
	var mails []mail
	err = r.Tx.Transact(ctx, func(ctx context.Context) error {
		out.Sent, out.Skipped, mails = []Reminded{}, []Skipped{}, nil
		targets, err := r.Store.ReminderTargets(ctx, q, ids)
		if err != nil {
			return err
		}
		for _, p := range targets {
			skip := func(reason string) { out.Skipped = append(out.Skipped, Skipped{p.UserID, p.Name, reason}) }
			switch {
			case p.StuckAt != in.Step:
				skip(SkipNotStuck)
				continue
			case in.Step == StepVerified:
				skip(SkipUnverified)
				continue
			case p.RemindedAt != nil && s.now().Sub(*p.RemindedAt) < ReminderGap:
				skip(SkipRecent)
				continue
			}
			title, body := strings.ReplaceAll(text.Title, "%s", t.Name), strings.ReplaceAll(text.Body, "%s", t.Name)
			key := "reminder:" + t.Name + ":" + in.Step + ":" + strconv.FormatInt(p.UserID, 10) + ":" + s.now().UTC().Format("2006-01-02")
			channels, err := r.Notify.Remind(ctx, p.UserID, key, title, body, text.Path)
			if err != nil {
				return err
			}
			if p.Email != "" {
				channels = append(channels, ChannelEmail)
				mails = append(mails, mail{userID: p.UserID, to: core.Message{To: p.Email, Subject: "Pitlane: " + title,
					Text: reminderMail(p.Name, body, strings.TrimRight(r.PublicURL, "/")+text.Path, r.OptOut(p.UserID))}})
			}
			if len(channels) == 0 {
				skip(SkipUnreached)
				continue
			}
			if err := r.Store.AddReminder(ctx, p.UserID, in.Step, t.ID, a.UserID, channels); err != nil {
				return err
			}
			out.Sent = append(out.Sent, Reminded{p.UserID, p.Name, channels})
		}
		found := map[int64]bool{}
		for _, p := range targets {
			found[p.UserID] = true
		}
		for _, id := range ids {
			if !found[id] {
				out.Skipped = append(out.Skipped, Skipped{UserID: id, Reason: SkipNotStuck})
			}
		}
		sent := make([]int64, len(out.Sent))
		for i, p := range out.Sent {
			sent[i] = p.UserID
		}
		label := in.Step
		for _, l := range StepLabels {
			if l.Step == in.Step {
				label = l.Label
			}
		}
		return r.Audit.Record(ctx, a, ActionReminder, t.ID,
			fmt.Sprintf("%d players stopped before %q", len(out.Sent), label),
			map[string]any{"step": in.Step, "sent": sent, "skipped": len(out.Skipped)})
	})
	if err != nil {
		return ReminderResult{}, err
	}
	// Mail goes once the reminders are committed: a rolled-back request
	// mails nobody.
	for _, m := range mails {
		id := m.userID
		r.Mail.Post(m.to, func(err error) {
			if r.Log != nil {
				r.Log.Warn("a reminder e-mail was not sent", slog.Int64("user_id", id), slog.Any("err", err))
			}
		})
	}
	return out, nil
}

func reminderMail(name, body, link, optOut string) string {
	return "Hi " + name + ",\n\n" + body + "\n\n" + link + "\n\n" +
		"An organiser of the league sent you this reminder. To get no more reminders: " + optOut + "\n"
}
