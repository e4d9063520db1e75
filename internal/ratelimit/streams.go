package ratelimit

import "time"

// Rules of the streams feature.
var (
	// StreamsUser bounds a player's channel links and unlinks (each costs
	// calls to Twitch).
	StreamsUser = Rule{"streams-user", 20, time.Hour}
	// WebhookIP bounds what one address may post to the Twitch webhook
	// before its signature is checked; Twitch itself sends far fewer.
	WebhookIP = Rule{"webhook-ip", 600, time.Minute}
)

// Streams is every rule of the streams feature, for New.
var Streams = []Rule{StreamsUser, WebhookIP}
