package core

import "context"

// Sanctions says whether a sanction stands in a player's way
// (internal/moderation): each refusal carries the sanction's reason and end.
type Sanctions interface {
	// MayTakePart refuses a player banned from the tournament (or from
	// every tournament, or from the site).
	MayTakePart(ctx context.Context, userID, tournamentID int64) error
	// MaySpeak refuses a player muted (there or site-wide) or banned from
	// the tournament; tournamentID 0 is a place of no tournament.
	MaySpeak(ctx context.Context, userID, tournamentID int64) error
}
