package ratelimit

import "time"

// Rules of the league's signed-in actions, per user: a bid or a message
// is a broadcast to every open client.
var (
	BidUser = Rule{"bid-user", 120, time.Minute}
	// LeagueAdmin bounds an organiser's changes (lots, captains, tiers).
	LeagueAdmin = Rule{"league-admin", 300, time.Minute}
)

// League is every rule of the league, for New.
var League = []Rule{BidUser, LeagueAdmin}
