package ratelimit

import "time"

// Rules of the league's signed-in actions, per user: a bid or a message
// is a broadcast to every open client.
var (
	BidUser = Rule{"bid-user", 120, time.Minute}
	// LeagueAdmin bounds an organiser's changes (lots, captains, tiers).
	LeagueAdmin = Rule{"league-admin", 300, time.Minute}
	// ProofUser bounds a captain's end-of-match screenshots (up to 8 MB
	// each), as ExtractUser bounds stats screenshots.
	ProofUser = Rule{"proof-user", 30, time.Hour}
)

// League is every rule of the league, for New.
var League = []Rule{BidUser, LeagueAdmin, ProofUser}

// Rules of the Discord bot, per Discord member and per e-mail address a
// link code is mailed to (any Discord account may ask for one).
var (
	BotMember    = Rule{"bot-member", 20, time.Minute}
	BotCodeEmail = Rule{"bot-code-email", 3, time.Hour}
	// Bot is every rule of the bot, for New.
	Bot = []Rule{BotMember, BotCodeEmail}
)
