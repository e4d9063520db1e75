// Package social is who follows whom: players, teams and tournaments
// followed by accounts, friends (players who follow each other) and
// blocks. Its rules are here; the SQL is postgres.Social.
package social

import (
	"context"
	"slices"
	"strconv"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
)

// Kinds of what one follows.
const (
	KindPlayer     = "player"
	KindTeam       = "team"
	KindTournament = "tournament"
)

// Who may see whom a player follows and who follows them.
const (
	VisibleEveryone = "everyone"
	VisibleFriends  = "friends"
	VisibleNobody   = "nobody"
)

// Target is something followed: a player by account id, a team by id, a
// tournament by name.
type Target struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// Follow is one follow as its follower reads it.
type Follow struct {
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Friend bool   `json:"friend,omitempty"` // a player who follows back
	At     string `json:"at"`
}

// Follower is one account following a player.
type Follower struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name"`
	Friend bool   `json:"friend,omitempty"` // the player follows them back
	cursor int64
}

// Followers is a page of a player's followers with their counts.
type Followers struct {
	UserID     int64      `json:"user_id"`
	Followers  int        `json:"followers"` // visible accounts following the player
	Following  int        `json:"following"` // players the player follows
	Items      []Follower `json:"items"`
	NextCursor *string    `json:"next_cursor"`
}

// Person is what the rules need to know of an account.
type Person struct {
	ID       int64
	Exists   bool // an account, not erased
	Hidden   bool // profile hidden (core.ShowCard)
	Visible  string
	Follows  bool // the viewer follows them
	Followed bool // they follow the viewer
	Blocks   bool // they block the viewer
	Blocked  bool // the viewer blocks them
}

// Store is postgres.Social.
type Store interface {
	// Person is userID as viewer sees the relation.
	Person(ctx context.Context, viewer, userID int64) (Person, error)
	// Resolve finds the team or tournament a target names: its row id, or
	// 0 when there is none.
	Resolve(ctx context.Context, t Target) (int64, error)
	Follow(ctx context.Context, follower int64, kind string, id int64) error
	Unfollow(ctx context.Context, follower int64, kind string, id int64) error
	Follows(ctx context.Context, userID int64) ([]Follow, error)
	// FollowersPage lists the visible (not hidden, not erased) followers of
	// userID, newest first, after cursor (a follow's id; 0 the first page).
	FollowersPage(ctx context.Context, userID, after int64, limit int) ([]Follower, error)
	Counts(ctx context.Context, userID int64) (followers, following int, err error)
	Block(ctx context.Context, blocker, blocked int64) error
	Unblock(ctx context.Context, blocker, blocked int64) error
	SetVisible(ctx context.Context, userID int64, visible string) error
}

// Service applies the rules.
type Service struct {
	Store Store
}

var kinds = []string{KindPlayer, KindTeam, KindTournament}

// target checks t and returns the row it names.
func (s *Service) target(ctx context.Context, a core.Actor, t Target) (int64, error) {
	if !slices.Contains(kinds, t.Kind) {
		return 0, errs.E(errs.NotFound, "One follows a player, a team or a tournament, not %q", errs.Echo(t.Kind))
	}
	if t.Kind == KindPlayer {
		id, err := strconv.ParseInt(t.ID, 10, 64)
		if err != nil || id <= 0 {
			return 0, errs.E(errs.Invalid, "A player is followed by their user id, not %q", errs.Echo(t.ID))
		}
		if id == a.UserID {
			return 0, errs.E(errs.Invalid, "You cannot follow yourself")
		}
		p, err := s.Store.Person(ctx, a.UserID, id)
		if err != nil {
			return 0, err
		}
		if !p.Exists {
			return 0, errs.E(errs.NotFound, "There is no player %d", id)
		}
		if p.Blocks {
			// Said as it is: the blocked account may not follow, and a
			// follow it could not make is no secret from it.
			return 0, errs.E(errs.Forbidden, "This player has blocked you")
		}
		return id, nil
	}
	if t.Kind == KindTeam {
		if id, err := strconv.ParseInt(t.ID, 10, 64); err != nil || id <= 0 {
			return 0, errs.E(errs.Invalid, "A team is followed by its id, not %q", errs.Echo(t.ID))
		}
	}
	id, err := s.Store.Resolve(ctx, t)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, errs.E(errs.NotFound, "There is no %s %q", t.Kind, errs.Echo(t.ID))
	}
	return id, nil
}

// Follow makes a follow; following twice is one follow.
func (s *Service) Follow(ctx context.Context, a core.Actor, t Target) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to follow")
	}
	id, err := s.target(ctx, a, t)
	if err != nil {
		return err
	}
	return s.Store.Follow(ctx, a.UserID, t.Kind, id)
}

// Unfollow ends a follow; one that is not there is already ended.
func (s *Service) Unfollow(ctx context.Context, a core.Actor, t Target) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to follow")
	}
	if t.Kind == KindPlayer {
		id, err := strconv.ParseInt(t.ID, 10, 64)
		if err != nil || id <= 0 {
			return errs.E(errs.Invalid, "A player is followed by their user id, not %q", errs.Echo(t.ID))
		}
		return s.Store.Unfollow(ctx, a.UserID, t.Kind, id)
	}
	id, err := s.target(ctx, a, t)
	if err != nil {
		return err
	}
	return s.Store.Unfollow(ctx, a.UserID, t.Kind, id)
}

// Mine is everything the signed-in account follows.
func (s *Service) Mine(ctx context.Context, a core.Actor) ([]Follow, error) {
	if a.UserID == 0 {
		return nil, errs.E(errs.Unauthorized, "Sign in to see whom you follow")
	}
	return s.Store.Follows(ctx, a.UserID)
}

// MaySeeFollows is the rule of a player's lists: the player always; anyone
// else only when the profile is shown, the viewer is not blocked, and the
// player's setting lets them (everyone, or friends only when they follow
// each other).
func MaySeeFollows(viewer int64, p Person) bool {
	if viewer == p.ID {
		return true
	}
	if !p.Exists || p.Hidden || p.Blocks {
		return false
	}
	switch p.Visible {
	case VisibleEveryone:
		return true
	case VisibleFriends:
		return viewer != 0 && p.Follows && p.Followed
	}
	return false
}

// Followers is a page of userID's followers, as its visibility allows.
func (s *Service) Followers(ctx context.Context, a core.Actor, userID int64, req paging.Request) (Followers, error) {
	p, err := s.Store.Person(ctx, a.UserID, userID)
	if err != nil {
		return Followers{}, err
	}
	if !p.Exists {
		return Followers{}, errs.E(errs.NotFound, "There is no player %d", userID)
	}
	if !MaySeeFollows(a.UserID, p) {
		return Followers{}, errs.E(errs.Forbidden, "This player keeps whom they follow and who follows them to themselves")
	}
	var after int64
	if req.After != nil {
		after = req.After.ID
	}
	items, err := s.Store.FollowersPage(ctx, userID, after, req.Limit+1)
	if err != nil {
		return Followers{}, err
	}
	out := Followers{UserID: userID, Items: items}
	if len(items) > req.Limit {
		out.Items = items[:req.Limit]
		out.NextCursor = paging.Next(true, paging.Key{ID: out.Items[req.Limit-1].cursor})
	}
	if out.Items == nil {
		out.Items = []Follower{}
	}
	out.Followers, out.Following, err = s.Store.Counts(ctx, userID)
	return out, err
}

// WithCursor is a Follower as the store reads it, with its page key.
func WithCursor(f Follower, followID int64) Follower {
	f.cursor = followID
	return f
}

// Block blocks userID: their follow of the blocker goes, and they can no
// longer follow the blocker or see their feed entries.
func (s *Service) Block(ctx context.Context, a core.Actor, userID int64) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to block an account")
	}
	if userID == a.UserID {
		return errs.E(errs.Invalid, "You cannot block yourself")
	}
	p, err := s.Store.Person(ctx, a.UserID, userID)
	if err != nil {
		return err
	}
	if !p.Exists {
		return errs.E(errs.NotFound, "There is no account %d", userID)
	}
	return s.Store.Block(ctx, a.UserID, userID)
}

// Unblock lifts a block.
func (s *Service) Unblock(ctx context.Context, a core.Actor, userID int64) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to unblock an account")
	}
	return s.Store.Unblock(ctx, a.UserID, userID)
}

// SetVisible sets who may see the signed-in player's follows.
func (s *Service) SetVisible(ctx context.Context, a core.Actor, visible string) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to change your settings")
	}
	if !slices.Contains([]string{VisibleEveryone, VisibleFriends, VisibleNobody}, visible) {
		return errs.E(errs.Invalid, "Who sees your follows is everyone, friends or nobody, not %q", errs.Echo(visible))
	}
	return s.Store.SetVisible(ctx, a.UserID, visible)
}
