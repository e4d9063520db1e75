package tournament

import (
	"sort"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/paging"
)

// RosterPage is a page of the public list: the list's own fields (Count
// is every player on it) with the page's players, and NextCursor when
// more follow.
type RosterPage struct {
	Roster
	Limit      int     `json:"limit"`
	NextCursor *string `json:"next_cursor"`
}

// key is a player's place in the list: registered at, then id.
func key(p Player) paging.Key {
	return paging.Key{Text: p.CreatedAt.UTC().Format(time.RFC3339Nano), ID: p.ID}
}

func after(p Player, k paging.Key) bool {
	at, err := time.Parse(time.RFC3339Nano, k.Text)
	if err != nil {
		return p.ID > k.ID
	}
	return p.CreatedAt.After(at) || (p.CreatedAt.Equal(at) && p.ID > k.ID)
}

// Page is the part of the list a request asks for: the players after its
// cursor (registered later; a player who unregistered between two pages
// moves none of the others), whose name holds its search if it has one.
func (r Roster) Page(req paging.Request) RosterPage {
	ps := r.Players
	if req.After != nil {
		k := *req.After
		ps = ps[sort.Search(len(ps), func(i int) bool { return after(ps[i], k) }):]
	}
	q := strings.ToLower(req.Q)
	out := make([]Player, 0, min(req.Limit, len(ps)))
	more := false
	for _, p := range ps {
		if q != "" && !strings.Contains(strings.ToLower(p.Name), q) {
			continue
		}
		if len(out) == req.Limit {
			more = true
			break
		}
		out = append(out, p)
	}
	page := RosterPage{Roster: r, Limit: req.Limit}
	page.Players = out
	if len(out) > 0 {
		page.NextCursor = paging.Next(more, key(out[len(out)-1]))
	}
	return page
}
