// Package layers states how Pitlane's packages may depend on one another;
// its test fails when an import breaks the rule. The domain (the league's
// rules and the types they need) sits below the adapters that carry it to
// the world (PostgreSQL, the hub, HTTP, Discord, mail, the screenshot
// readers) and never imports them: the adapters import the domain, and
// internal/app wires the two together.
package layers

// Domain packages: rules and types, no I/O of their own.
var Domain = []string{"core", "errs", "bracket", "tournament", "auction", "matches", "room", "deck",
	"accounts", "stats", "audit", "auth", "upload", "avatars", "notify", "calendar", "paging", "records", "streams",
	"chat", "moderation", "prizes", "payments", "social"}

// Adapters: what talks to the world, and what wires it.
var Adapters = []string{"postgres", "hub", "api", "discord", "mail", "extract", "app", "bot", "demo", "testkit", "config", "ratelimit", "league", "push", "metrics", "redisconn", "cards", "twitch",
	"cheers", "stripepay"}
