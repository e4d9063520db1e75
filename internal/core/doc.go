// Package core is the heart of Pitlane's domain: the types every part of the
// league shares (who is acting and with which roles, a player's stats, live
// events, audit entries) and the interfaces the domain needs from the world
// (a transaction, an event outbox, an audit log, a mailer, a stats reader).
//
// It does no I/O and imports no adapter. The domain services (accounts,
// stats, tournament, deck) build on it; the adapters (postgres, hub, mail,
// extract, api, the bot) implement or call it and never import each other.
package core
