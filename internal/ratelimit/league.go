package ratelimit

import "time"

// Rules of the league's signed-in actions, per user, a bucket for each
// kind: a bid, a message or a match's change is a broadcast to every open
// client, and one kind used up leaves the others (a captain who chatted
// can still bid).
var (
	BidUser = Rule{"bid-user", 120, time.Minute}
	// RoomUser is the captains room's own pace (room.Burst per room.Window),
	// which the room states in its refusal.
	RoomUser = Rule{"room-user", 5, 10 * time.Second}
	// MatchUser bounds a captain's match changes (room, time, lineup,
	// report, answers).
	MatchUser = Rule{"match-user", 60, time.Minute}
	// LeagueAdmin bounds an organiser's changes (lots, captains, tiers).
	LeagueAdmin = Rule{"league-admin", 300, time.Minute}
	// ProofUser bounds a captain's end-of-match screenshots (up to 8 MB
	// each), as ExtractUser bounds stats screenshots.
	ProofUser = Rule{"proof-user", 30, time.Hour}
)

// League is every rule of the league, for New.
var League = []Rule{BidUser, RoomUser, MatchUser, LeagueAdmin, ProofUser}

// Rules of the Discord bot: commands per Discord member, and link codes per
// e-mail address and Discord member. Any Discord account may ask for a code
// to any address, so a limit per address alone would let a stranger keep
// its owner from linking; what one address gets is bounded by each
// member's own limit and cooldown instead. Only codes issued count (a
// request refused by the member's cooldown costs nothing).
var (
	BotMember          = Rule{"bot-member", 20, time.Minute}
	BotCodeEmailMember = Rule{"bot-code-email-member", 3, time.Hour}
	// Bot is every rule of the bot, for New.
	Bot = []Rule{BotMember, BotCodeEmailMember}
)
