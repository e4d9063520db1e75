package records

import (
	"context"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
)

// Kind is a leaderboard.
type Kind string

// The leaderboards: seasons won, kills in league matches, K/D over at
// least a minimum of matches, Red Caps won; and the season archive, each
// completed season with its champion.
const (
	Titles  Kind = "titles"
	Kills   Kind = "kills"
	KD      Kind = "kd"
	RedCaps Kind = "redcaps"
	Seasons Kind = "seasons"
)

// Kinds lists the leaderboards.
var Kinds = []Kind{Titles, Kills, KD, RedCaps, Seasons}

// DefaultMinMatches is the K/D board's minimum of matches when none is asked.
const DefaultMinMatches = 5

// Row is a leaderboard's line: a player (or, in the season archive, a
// season and its champion) and the figure it is ranked by.
type Row struct {
	ID      int64   `json:"id"` // the player; the season's tournament in the archive
	Name    string  `json:"name"`
	Avatar  *string `json:"avatar,omitempty"`
	Hidden  bool    `json:"hidden,omitempty"`
	Value   float64 `json:"value"`
	Matches int     `json:"matches"`
	// The season archive's: the season and its champion team.
	Tournament  string   `json:"tournament,omitempty"`
	DisplayName string   `json:"display_name,omitempty"`
	Season      *int     `json:"season,omitempty"`
	Champion    *TeamRef `json:"champion,omitempty"`
	RedCap      string   `json:"red_cap,omitempty"` // the season's Red Cap's name
}

// Whose implements core.Card.
func (r *Row) Whose() (int64, bool) { return r.ID, r.Hidden }

// NameOnly implements core.Card: the name and the figure stay.
func (r *Row) NameOnly() { r.Avatar = nil }

// Board is a page of a leaderboard.
type Board struct {
	Kind       Kind    `json:"kind"`
	MinMatches int     `json:"min_matches,omitempty"`
	Rows       []Row   `json:"rows"`
	NextCursor *string `json:"next_cursor"`
}

// Board reads a page of leaderboard kind, best first.
func (s *Service) Board(ctx context.Context, kind string, min int, req paging.Request) (Board, error) {
	k := Kind(kind)
	known := false
	for _, x := range Kinds {
		known = known || x == k
	}
	if !known {
		return Board{}, errs.E(errs.NotFound, "No such leaderboard: the boards are titles, kills, kd, redcaps and seasons")
	}
	if k == KD && min == 0 {
		min = DefaultMinMatches
	}
	if min < 0 || min > 1000 {
		return Board{}, errs.E(errs.Invalid, "min_matches is from 1 to 1000")
	}
	rows, err := s.Store.Board(ctx, k, min, req.After, req.Limit+1)
	if err != nil {
		return Board{}, err
	}
	b := Board{Kind: k, Rows: rows}
	if k == KD {
		b.MinMatches = min
	}
	if len(rows) > req.Limit {
		b.Rows = rows[:req.Limit]
		last := b.Rows[req.Limit-1]
		b.NextCursor = paging.Next(true, paging.Key{Num: last.Value, ID: last.ID})
	}
	return b, nil
}
