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
	At    time.Time  `json:"at"`
	Actor AuditActor `json:"actor"`
	Act   string     `json:"action"`
	// Tournament is the tournament the action concerns, "" for none.
	Tournament string          `json:"tournament,omitempty"`
	Target     string          `json:"target"`
	Data       json.RawMessage `json:"data"`
}

// AuditActor is who acted, as the log shows them: never an e-mail address.
type AuditActor struct {
	UserID *int64 `json:"user_id"` // null for the system or an anonymous caller
	Name   string `json:"name"`
}

// AuditFilter narrows a read of the log.
type AuditFilter struct {
	TournamentID int64 // 0: every entry
	Limit        int
}

// AuditLog keeps the audit log. Record joins the caller's transaction, so
// an action and its entry commit together.
type AuditLog interface {
	Record(ctx context.Context, a Actor, action string, tournamentID int64, target string, data any) error
	// List returns entries newest first.
	List(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}
