// Package audit holds the rules for reading the audit log: organisers only,
// newest first, a page at a time (a cursor: the id of the last entry read),
// narrowed to one tournament, one action or one actor on request. Writing
// to it is core.AuditLog's Record, inside each service's own transaction.
//
// A tournament's log holds the actions about that tournament; account
// security events (sign-ins, failed sign-ins, Discord links) concern no
// tournament and are only in the whole log, so however many anonymous
// failed sign-ins there are, they never push a tournament's actions out of
// its view.
package audit

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Page sizes of a read.
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

// MaxAction bounds an action filter (actions are short: "auction.bid").
const MaxAction = 64

// Tournaments finds a tournament by name.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Reader reads the log (postgres.Audit).
type Reader interface {
	// List returns up to f.Limit entries, newest first.
	List(ctx context.Context, f core.AuditFilter) ([]core.AuditEntry, error)
	// Actions lists the actions recorded about the tournament (0: in the
	// whole log), sorted.
	Actions(ctx context.Context, tournamentID int64) ([]string, error)
}

// Service reads the audit log.
type Service struct {
	Log         Reader
	Tournaments Tournaments
}

// Query is one read of the log; its filters combine.
type Query struct {
	Tournament string // "": the whole log
	Action     string // "": every action
	ActorID    int64  // 0: every actor
	Before     int64  // the cursor: entries older than this id; 0: from the newest
	Limit      int    // 0: DefaultLimit
}

// Page is one read: Entries newest first, and Next, the cursor of the
// following page (pass it as Before), nil when nothing older matches. Ids
// only rise, so entries recorded meanwhile never shift the pages after the
// first: following Next reads each entry once. The first page (no Before)
// also lists the Actions of its tournament (or of the whole log), for a
// filter's choices.
type Page struct {
	Entries []core.AuditEntry `json:"entries"`
	Next    *int64            `json:"next"`
	Actions []string          `json:"actions,omitempty"`
}

// List reads one page of the log.
// A tournament's co-organisers read that tournament's log alone; the whole
// log (account events among it) is the site's organisers'.
func (s *Service) List(ctx context.Context, a core.Actor, q Query) (Page, error) {
	if !a.Admin && (!a.OrganisesAny() || q.Tournament == "") {
		if err := a.MustBeAdmin(); err != nil {
			return Page{}, err
		}
	}
	if q.Limit < 0 || q.Limit > MaxLimit {
		return Page{}, errs.E(errs.Invalid, "limit must be a whole number from 1 to %d", MaxLimit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Before < 0 {
		return Page{}, errs.E(errs.Invalid, "before must be the id of an entry")
	}
	if q.ActorID < 0 {
		return Page{}, errs.E(errs.Invalid, "actor must be a user id")
	}
	if !validAction(q.Action) {
		return Page{}, errs.E(errs.Invalid, "action must be an action's name, such as auction.bid")
	}
	f := core.AuditFilter{Action: q.Action, ActorID: q.ActorID, Before: q.Before, Limit: q.Limit + 1}
	if q.Tournament != "" {
		t, err := s.Tournaments.Find(ctx, q.Tournament)
		if err != nil {
			return Page{}, err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return Page{}, err
		}
		f.TournamentID = t.ID
	}
	entries, err := s.Log.List(ctx, f)
	if err != nil {
		return Page{}, err
	}
	for i := range entries {
		entries[i].Actor = shown(entries[i].Actor)
	}
	p := Page{Entries: entries}
	if len(entries) > q.Limit {
		// The one entry past the page says there is a next one.
		p.Entries = entries[:q.Limit]
		next := p.Entries[q.Limit-1].ID
		p.Next = &next
	}
	if q.Before == 0 {
		if p.Actions, err = s.Log.Actions(ctx, f.TournamentID); err != nil {
			return Page{}, err
		}
	}
	return p, nil
}

// Unverified marks a name the account's owner chose themselves.
const Unverified = " (unverified)"

// Deleted names the actor of an entry whose account is gone.
const Deleted = "deleted account"

// shown names who acted by their account as it is now, whatever name was
// recorded: the username of its proven Discord link, else its own name
// (typed at sign-up, or Google's) marked unverified, since anyone may call
// themselves "league.organiser". The account's id is what identifies it.
func shown(a core.AuditActor) core.AuditActor {
	acc := a.Account
	switch {
	case acc == nil && a.UserID == nil && (a.Name == core.AuditSystem || a.Name == core.AuditAnonymous):
		return a
	case acc == nil:
		a.UserID, a.Name = nil, Deleted // the account went (its entries keep no id)
	case acc.DiscordVerified && acc.DiscordUsername != "":
		a.Name, a.DiscordVerified = acc.DiscordUsername, true
	case acc.Name != "":
		a.Name = acc.Name + Unverified
	case acc.DiscordUsername != "":
		a.Name = acc.DiscordUsername + Unverified
	default:
		a.Name = "player" + Unverified
	}
	return a
}

// validAction: "" (every action) or a name of lower-case letters, digits,
// dots and underscores.
func validAction(s string) bool {
	if len(s) > MaxAction {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}
