package ratelimit

import "time"

// Rules of moderation and the team rooms.
var (
	// ReportUser bounds a player's reports: enough for a bad evening, too
	// few to flood the staff's queue.
	ReportUser = Rule{"report-user", 20, time.Hour}
	// ModerationAdmin bounds the sanctions and report settlements of one
	// staff member.
	ModerationAdmin = Rule{"moderation-admin", 120, time.Minute}
	// ChatUser is a member's pace in the team and match rooms
	// (chat.Burst per chat.Window), besides each room's slow mode.
	ChatUser = Rule{"chat-user", 10, 10 * time.Second}
)

// Moderation is every rule of moderation and the rooms, for New.
var Moderation = []Rule{ReportUser, ModerationAdmin, ChatUser}
