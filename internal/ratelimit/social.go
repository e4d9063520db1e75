package ratelimit

import "time"

// FollowUser bounds an account's follows, unfollows, blocks and unblocks
// (internal/social): plenty for a night, too few to spam a player's
// followers list.
var FollowUser = Rule{"follow-user", 120, time.Hour}
