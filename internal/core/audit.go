package core

import (
	"context"
	"encoding/json"
	"time"
)

// Audited actions. Every organiser and captain action is one, and so is
// each account security event.
const (
	ActionTournamentStatus = "tournament.status"
	ActionTournamentCreate = "tournament.create"
	ActionDeckMove         = "deck.move"
	ActionLogin            = "account.login"
	ActionLoginFailed      = "account.login_failed"
	ActionVerified         = "account.verified"
	ActionPasswordChanged  = "account.password_changed"
	ActionDiscordLinked    = "account.discord_linked"
	ActionDiscordUnlinked  = "account.discord_unlinked"
	ActionDiscordNamed     = "account.discord_named" // a typed, unverified name
	ActionBotAnnounce      = "bot.announce"
)

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	ID    int64      `json:"id"` // rising: newer entries have larger ids
	At    time.Time  `json:"at"`
	Actor AuditActor `json:"actor"`
	Act   string     `json:"action"`
	// Tournament is the tournament the action concerns, "" for none.
	Tournament string          `json:"tournament,omitempty"`
	Target     string          `json:"target"`
	Data       json.RawMessage `json:"data"`
}

// AuditActor is who acted, as the log shows them: by account id, with a
// name that is never an e-mail address. The store gives the name recorded
// with the entry and the account as it is now; the audit service names the
// actor from the account (see package audit), so a name anyone could have
// typed is never passed off as who they are.
type AuditActor struct {
	UserID *int64 `json:"user_id"` // null for the system or an anonymous caller
	Name   string `json:"name"`
	// DiscordVerified: the account has a proven Discord link, and Name is
	// that Discord account's username.
	DiscordVerified bool `json:"discord_verified"`
	// Account is the acting account as the store read it, nil without one.
	Account *AuditAccount `json:"-"`
}

// AuditAccount is what the log's reader names an acting account by.
type AuditAccount struct {
	DiscordVerified bool
	DiscordUsername string
	Name            string // the account's own name: typed at sign-up, or Google's
}

// Names recorded for actors without an account.
const (
	AuditSystem    = "system"
	AuditAnonymous = "anonymous"
)

// AuditFilter narrows a read of the log; its fields combine.
type AuditFilter struct {
	TournamentID int64  // 0: every entry
	Action       string // "": every action
	ActorID      int64  // 0: every actor
	Before       int64  // only entries older than this id; 0: from the newest
	Limit        int
}

// AuditSubject is the player an entry is about: the log shows Name as the
// entry's target, and erasing the account rewrites the entry by UserID,
// never by the name (anyone may call themselves like a rival, a team or a
// tournament).
type AuditSubject struct {
	UserID int64
	Name   string
}

// AuditLog keeps the audit log. Record joins the caller's transaction, so
// an action and its entry commit together.
type AuditLog interface {
	Record(ctx context.Context, a Actor, action string, tournamentID int64, target string, data any) error
	// RecordAbout is Record of an entry about one player, whose name is its
	// target.
	RecordAbout(ctx context.Context, a Actor, action string, tournamentID int64, about AuditSubject, data any) error
	// List returns entries newest first.
	List(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}
